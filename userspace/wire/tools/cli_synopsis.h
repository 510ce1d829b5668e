// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The usage line of a tool's CLI11 --help, written by hand.  CLI11 2.1
// makes it from the options ("Usage: roce_inject [OPTIONS]"), which cannot
// say which of them are required together or exclude each other; the tools
// had said so, and their tests and man pages quote it.
#ifndef RUE_WIRE_TOOLS_CLI_SYNOPSIS_H_
#define RUE_WIRE_TOOLS_CLI_SYNOPSIS_H_

#include <CLI/CLI.hpp>

#include <string>

namespace rue::cli11 {

// Prints "Usage: " and the synopsis where CLI11 would print its usage line:
// first in --help when the app has no description.  The synopsis may run
// over several lines (alternatives, a sentence about the tool) and ends
// without a newline.
class SynopsisFormatter : public CLI::Formatter {
 public:
  explicit SynopsisFormatter(std::string synopsis);

  std::string make_usage(const CLI::App* app, std::string name) const override;

 private:
  std::string synopsis_;
};

// Gives app (not the subcommands it already has) a SynopsisFormatter.
void SetSynopsis(CLI::App* app, std::string synopsis);

// What the tools' getopt_long parsers did, for the options app adds from
// now on: a repeated option's last value counts, a flag takes no value,
// and words CLI11 does not know are left for the tool to report.
void LikeGetopt(CLI::App* app);

}  // namespace rue::cli11

#endif  // RUE_WIRE_TOOLS_CLI_SYNOPSIS_H_
