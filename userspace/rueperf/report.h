// SPDX-License-Identifier: GPL-2.0
//
// The one print path of a run's result.  Each field is declared once in
// report.cc's list (its kebab-case key, the JSON key and the text label
// at once), and both the text and the JSON output are written from that
// list, so that they cannot drift apart.  Text: the parameters on one
// line, the results on the next, "key value" pairs.  JSON (-j): one
// object per run, on one line (-p: indented).
#ifndef RUE_RUEPERF_REPORT_H_
#define RUE_RUEPERF_REPORT_H_

#include <optional>
#include <string>

#include "rueperf/params.h"
#include "rueperf/stats.h"

namespace rue::perf {

struct Report {
  std::string device;
  Params params;
  Throughput throughput;
  std::optional<Latency> latency;     // lat tests only
  std::optional<uint64_t> received;   // SEND: what the server received
  std::optional<uint64_t> verified;   // --verify: messages or slots checked
  uint64_t verify_errors = 0;
};

std::string RenderText(const Report& report);
std::string RenderJson(const Report& report, bool pretty);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_REPORT_H_
