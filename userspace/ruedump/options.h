// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ruedump's command line.
#ifndef RUE_RUEDUMP_OPTIONS_H_
#define RUE_RUEDUMP_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "ruedump/packet_decoder.h"

namespace rue::dump {

struct Options {
  bool json = false;              // -j
  bool hex = false;               // -x
  bool verbose = false;           // -v
  bool check = false;             // --check
  bool help = false;              // -h
  bool version = false;           // -V
  std::optional<uint64_t> count;  // -c: stop after this many packets shown
  Selection selection;            // -F
  std::string file;               // "-": standard input
};

// Parses argv with CLI11, taking what getopt_long(3) took before: bundled
// short options, long options and their unique prefixes, options after the
// file, "--", a repeated option's last value.  On a bad command line
// returns nullopt and sets *error.
std::optional<Options> ParseOptions(int argc, char* argv[], std::string* error);

// The --help text, CLI11's.
std::string Usage();

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_OPTIONS_H_
