// SPDX-License-Identifier: GPL-2.0
//
// The client side of a run: connect, exchange, drive the QPs in the
// loop the test asks for, collect the server's view, report.
#ifndef RUE_RUEPERF_CLIENT_H_
#define RUE_RUEPERF_CLIENT_H_

#include <optional>
#include <string>

#include "rueperf/options.h"
#include "rueperf/report.h"

namespace rue::perf {

struct ClientResult {
  std::optional<Report> report;
  std::string error;
};

ClientResult RunClient(const Options& options);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_CLIENT_H_
