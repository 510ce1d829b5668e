// SPDX-License-Identifier: GPL-2.0
//
// The server side of a run: accept one client, make one QP per peer the
// client asks for, serve until the client says it is done (receive and
// verify SENDs, answer latency pings, or stay out of the way of WRITEs
// and READs), then tell the client what it saw.
#ifndef RUE_RUEPERF_SERVER_H_
#define RUE_RUEPERF_SERVER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "rueperf/options.h"
#include "rueperf/params.h"

namespace rue::perf {

struct ServerSummary {
  Params params;
  uint64_t received = 0;
  uint64_t verified = 0;
  uint64_t verify_errors = 0;
};

struct ServerResult {
  std::optional<ServerSummary> summary;
  std::string error;
};

ServerResult RunServer(const Options& options);

// One line about a served run, for the server's standard output.
std::string SummaryLine(const ServerSummary& summary);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_SERVER_H_
