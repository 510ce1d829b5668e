// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What getopt_long(3) accepted and CLI11 2.1 does not: a long option
// shortened to a unique prefix ("--verb" for --verbose).  ruedump and the
// inject tools parsed with getopt_long, and scripts may spell them so.
// Everything else getopt_long took (bundled short options "-jxc3", "-c3",
// "--count=3", options after the operands, "--") CLI11 takes as it is.
#ifndef RUE_WIRE_TOOLS_CLI_GETOPT_H_
#define RUE_WIRE_TOOLS_CLI_GETOPT_H_

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace rue::cli11 {

// Rewrites each word of args (in command line order) that starts with "--"
// and names no long option of app, or of its option groups, but is the
// prefix of exactly one, to that option's whole name ("--filt=uet" becomes
// "--filter=uet").  Stops at "--".  Ambiguous and unknown words stay as
// they are, for the parse to refuse.  A value that starts with "--" ("-F
// --j") is rewritten too, unlike getopt_long: no value of these tools can
// start so.
void ExpandLongPrefixes(const CLI::App& app, std::vector<std::string>* args);

// app->parse() on main()'s argc and argv, prefixes expanded.  Throws what
// parse() throws.
void ParseLikeGetopt(CLI::App* app, int argc, const char* const argv[]);

}  // namespace rue::cli11

#endif  // RUE_WIRE_TOOLS_CLI_GETOPT_H_
