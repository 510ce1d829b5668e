// SPDX-License-Identifier: GPL-2.0
//
// rueperf's command line:
//
//   rueperf server -d DEV [--port P] [--gid-index X] [--ib-port N] [-j]
//   rueperf client -d DEV HOST [--port P] [--gid-index X] [--ib-port N]
//           [--transport rc|rud|rod] [--op send|write|read]
//           [--test bw|lat|rate] [--size S] [--iters N | --duration T]
//           [--depth Q] [--peers N] [--job ID] [--verify] [-j] [-p]
//
// Parsed with CLI11 (options.cc), which also writes --help.  Parsing never
// throws: a bad command line comes back as one sentence naming the option
// and what is wrong with it.
#ifndef RUE_RUEPERF_OPTIONS_H_
#define RUE_RUEPERF_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "rueperf/params.h"

namespace rue::perf {

enum class Role : uint8_t { kServer, kClient };
enum class Action : uint8_t { kRun, kHelp, kVersion };

inline constexpr uint16_t kDefaultPort = 18520;
inline constexpr uint64_t kDefaultIters = 1000;

struct Options {
  Action action = Action::kRun;
  Role role = Role::kClient;
  std::string device;
  std::string host;          // client only
  uint16_t port = kDefaultPort;
  int gid_index = -1;        // -1: the first RoCEv2 GID, IPv4 ones first
  uint8_t ib_port = 1;
  bool json = false;
  bool pretty = false;
  Params params;             // client only; the server learns them
};

struct ParseResult {
  std::optional<Options> options;  // set on success
  std::string error;               // set on failure
  std::string help;                // with Action::kHelp: the text to print
};

// @args: the arguments after the program name.
ParseResult ParseArgs(std::span<const std::string_view> args);

// The whole --help text: every command and its options.
std::string Usage();

}  // namespace rue::perf

#endif  // RUE_RUEPERF_OPTIONS_H_
