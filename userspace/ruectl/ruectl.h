// SPDX-License-Identifier: GPL-2.0
//
// ruectl [OPTIONS] OBJECT { COMMAND | help }: the whole program but its
// main(), so that tests can run it with their own streams and backend.
#ifndef RUE_RUECTL_RUECTL_H_
#define RUE_RUECTL_RUECTL_H_

#include <ostream>
#include <span>
#include <string>

#include "nl/result.h"
#include "ruectl/backend.h"

namespace rue::cli {

// Runs one command line; returns the exit status (0, or 1 on any
// failure, reported on `err`).
int Run(int argc, char* argv[], std::ostream& out, std::ostream& err,
        Backend& backend);

// Runs the command line `words` (without the program's name), as Run()
// does, and returns what went wrong instead of reporting it.
nl::Status Execute(std::span<const std::string> words, Backend& backend,
                   std::ostream& out);

}  // namespace rue::cli

#endif  // RUE_RUECTL_RUECTL_H_
