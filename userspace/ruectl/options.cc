// SPDX-License-Identifier: GPL-2.0
//
// getopt_long(3), as rdma(8) uses: glibc's, so bundling, unique-prefix
// long options and "--" behave as in the other iproute2 tools.  "+" stops
// at the first word that is not an option: the object.
#include "ruectl/options.h"

#include <getopt.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace rue::cli {
namespace {

constexpr char kShortOptions[] = "+jpdVh";

constexpr option kLongOptions[] = {
    {"json", no_argument, nullptr, 'j'},
    {"pretty", no_argument, nullptr, 'p'},
    {"details", no_argument, nullptr, 'd'},
    {"version", no_argument, nullptr, 'V'},
    {"help", no_argument, nullptr, 'h'},
    {nullptr, 0, nullptr, 0},
};

bool Set(Options& options, int flag) {
  switch (flag) {
    case 'j':
      return options.json = true;
    case 'p':
      return options.pretty = true;
    case 'd':
      return options.details = true;
    case 'V':
      return options.version = true;
    case 'h':
      return options.help = true;
    default:
      return false;
  }
}

// The option getopt_long() refused.  An unknown short option is in optopt
// (part of a bundle, perhaps); otherwise getopt_long() has stepped past
// the word at fault: an unknown or ambiguous long option (optopt 0), or a
// long one given an argument (optopt is then one of our own flags).
std::string Offender(char* argv[]) {
  bool ours = optopt != 0 && std::strchr(kShortOptions + 1, optopt);
  if (optopt != 0 && !ours) return std::string("-") + static_cast<char>(optopt);
  return argv[optind - 1];
}

}  // namespace

nl::Result<CommandLine> ParseCommandLine(int argc, char* argv[]) {
  CommandLine line;
  optind = 0;  // glibc: start afresh, as if never called
  opterr = 0;  // errors are ours to report
  int flag;
  while ((flag = getopt_long(argc, argv, kShortOptions, kLongOptions,
                             nullptr)) != -1) {
    if (!Set(line.options, flag))
      return nl::Error{EINVAL, "invalid option \"" + Offender(argv) +
                                   "\"; try \"ruectl -h\""};
  }
  for (int i = optind; i < argc; ++i) line.words.emplace_back(argv[i]);
  return line;
}

}  // namespace rue::cli
