// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The words a CLI11 parse with allow_extras() set aside, sorted for the
// tools' own messages ("unknown option '-q'", "one capture file only"):
// CLI11's ExtrasError says "The following argument was not expected"
// for either, and the tools' callers read what they said before.
#ifndef RUE_WIRE_TOOLS_CLI_LEFTOVERS_H_
#define RUE_WIRE_TOOLS_CLI_LEFTOVERS_H_

#include <string>
#include <vector>

namespace rue::cli11 {

struct Leftovers {
  std::vector<std::string> options;    // "-q", "--frob=1": unknown options
  std::vector<std::string> arguments;  // operands no positional took
};

// Sorts remaining (CLI::App::remaining(), in command line order): a word
// that starts with '-' and is longer is an option, unless it comes after
// "--" (which CLI11 keeps there too); the "--" itself is neither.
Leftovers SortLeftovers(const std::vector<std::string>& remaining);

}  // namespace rue::cli11

#endif  // RUE_WIRE_TOOLS_CLI_LEFTOVERS_H_
