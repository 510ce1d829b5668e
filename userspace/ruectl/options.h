// SPDX-License-Identifier: GPL-2.0
//
// ruectl's global options, which come before the object, as in rdma(8):
// -j/--json, -p/--pretty, -d/--details, -V/--version, -h/--help.  Short
// options bundle (-jp), long ones may be shortened to a unique prefix
// (--js), and "--" ends the options.
#ifndef RUE_RUECTL_OPTIONS_H_
#define RUE_RUECTL_OPTIONS_H_

#include <string_view>
#include <vector>

#include "nl/result.h"

namespace rue::cli {

struct Options {
  bool json = false;
  bool pretty = false;
  bool details = false;
  bool version = false;
  bool help = false;
};

struct CommandLine {
  Options options;
  std::vector<std::string_view> words;  // OBJECT COMMAND ARGS...
};

// Parses argv (argv[0] is the program); EINVAL, saying which option, for
// an option ruectl does not have.
nl::Result<CommandLine> ParseCommandLine(int argc, char* argv[]);

}  // namespace rue::cli

#endif  // RUE_RUECTL_OPTIONS_H_
