// SPDX-License-Identifier: GPL-2.0
//
// ruectl [OPTIONS] OBJECT { COMMAND | help }: the whole program but its
// main(), so that tests can run it with their own streams and backend.
#ifndef RUE_RUECTL_RUECTL_H_
#define RUE_RUECTL_RUECTL_H_

#include <ostream>

#include "ruectl/backend.h"

namespace rue::cli {

// Runs one command line; returns the exit status (0, or 1 on any
// failure, reported on `err`).
int Run(int argc, char* argv[], std::ostream& out, std::ostream& err,
        Backend& backend);

}  // namespace rue::cli

#endif  // RUE_RUECTL_RUECTL_H_
