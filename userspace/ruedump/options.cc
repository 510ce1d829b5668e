// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/options.h"

#include <getopt.h>

#include <charconv>
#include <cstring>
#include <string_view>

namespace rue::dump {
namespace {

// Leading ':': a missing argument is reported as ':', not '?'.
constexpr char kShortOptions[] = ":jxvc:F:hV";
constexpr int kCheck = 256;

constexpr option kLongOptions[] = {
    {"json", no_argument, nullptr, 'j'},
    {"hex", no_argument, nullptr, 'x'},
    {"verbose", no_argument, nullptr, 'v'},
    {"count", required_argument, nullptr, 'c'},
    {"filter", required_argument, nullptr, 'F'},
    {"check", no_argument, nullptr, kCheck},
    {"help", no_argument, nullptr, 'h'},
    {"version", no_argument, nullptr, 'V'},
    {nullptr, 0, nullptr, 0},
};

std::optional<uint64_t> ParseCount(std::string_view text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value == 0) return std::nullopt;
  return value;
}

std::optional<Selection> ParseFilter(std::string_view text) {
  if (text == "all") return Selection{true, true};
  if (text == "roce") return Selection{true, false};
  if (text == "uet") return Selection{false, true};
  return std::nullopt;
}

// The word getopt_long() refused.  An unknown short option (perhaps inside
// a bundle) is in optopt; otherwise getopt_long() has stepped past the word
// at fault: an unknown long option (optopt 0), a long one given an argument
// it does not take (optopt is one of ours), or one missing its argument.
std::string Offender(int flag, char* argv[]) {
  const bool ours = optopt > 0 && optopt < kCheck &&
                    std::strchr(kShortOptions + 1, optopt) != nullptr;
  if (flag == '?' && optopt > 0 && !ours)
    return std::string("-") + static_cast<char>(optopt);
  return argv[optind - 1];
}

// Applies one option; false with *error on a bad argument.
bool Apply(int flag, const char* arg, Options* options, std::string* error) {
  switch (flag) {
    case 'j':
      options->json = true;
      return true;
    case 'x':
      options->hex = true;
      return true;
    case 'v':
      options->verbose = true;
      return true;
    case kCheck:
      options->check = true;
      return true;
    case 'h':
      options->help = true;
      return true;
    case 'V':
      options->version = true;
      return true;
    case 'c':
      options->count = ParseCount(arg);
      if (!options->count)
        *error = std::string("-c: COUNT must be a positive integer, not '") +
                 arg + "'";
      return options->count.has_value();
    case 'F': {
      std::optional<Selection> selection = ParseFilter(arg);
      if (!selection)
        *error = std::string("-F: want roce, uet or all, not '") + arg + "'";
      if (selection) options->selection = *selection;
      return selection.has_value();
    }
  }
  return false;
}

bool TakeFile(int argc, char* argv[], Options* options, std::string* error) {
  const int files = argc - optind;
  if (files == 1) {
    options->file = argv[optind];
    return true;
  }
  if (files == 0) {
    *error = "no capture file given (use - for standard input)";
  } else {
    *error = std::string("one capture file only, not '") + argv[optind] +
             "' and '" + argv[optind + 1] + "'";
  }
  return false;
}

}  // namespace

std::optional<Options> ParseOptions(int argc, char* argv[],
                                    std::string* error) {
  Options options;
  optind = 0;  // glibc: start afresh, as if never called
  opterr = 0;  // errors are ours to report
  int flag;
  while ((flag = getopt_long(argc, argv, kShortOptions, kLongOptions,
                             nullptr)) != -1) {
    if (flag == '?') {
      *error = "unknown option '" + Offender(flag, argv) + "'";
      return std::nullopt;
    }
    if (flag == ':') {
      *error = "option '" + Offender(flag, argv) + "' needs an argument";
      return std::nullopt;
    }
    if (!Apply(flag, optarg, &options, error)) return std::nullopt;
  }
  if (options.help || options.version) return options;
  if (!TakeFile(argc, argv, &options, error)) return std::nullopt;
  return options;
}

std::string Usage() {
  return "Usage: ruedump [-j] [-x] [-v] [-c COUNT] [-F roce|uet|all] "
         "[--check] FILE\n"
         "Decode RoCEv2 (UDP 4791) and UET (UDP 4793) packets in a pcap "
         "file (- for standard input).\n"
         "\n"
         "  -j, --json          one JSON object per packet (JSON lines)\n"
         "  -x, --hex           add a hex dump of each packet\n"
         "  -v, --verbose       every field, one a line (with -j: every "
         "field)\n"
         "  -c, --count COUNT   stop after COUNT packets shown\n"
         "  -F, --filter PROTO  decode roce, uet or all (default all)\n"
         "      --check         exit 0 only if every packet parsed and every "
         "ICRC verified\n"
         "  -h, --help          this text\n"
         "  -V, --version       the version\n"
         "\n"
         "Exit status: 0 ok, 1 bad command line or unreadable file, 2 --check "
         "found\nmalformed packets or bad ICRCs.\n";
}

}  // namespace rue::dump
