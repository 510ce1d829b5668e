// SPDX-License-Identifier: GPL-2.0
#include "rueperf/rueperf.h"

#include "rueperf/client.h"
#include "rueperf/options.h"
#include "rueperf/report.h"
#include "rueperf/server.h"

#ifndef RUE_VERSION
#define RUE_VERSION "0.1"
#endif

namespace rue::perf {

int Run(std::span<const std::string_view> args, std::ostream& out,
        std::ostream& err) {
  ParseResult parsed = ParseArgs(args);
  if (!parsed.options) {
    err << "rueperf: " << parsed.error << "\n";
    return 1;
  }
  const Options& o = *parsed.options;
  if (o.action == Action::kHelp) {
    out << parsed.help;
    return 0;
  }
  if (o.action == Action::kVersion) {
    out << "rueperf utility, rue-" RUE_VERSION "\n";
    return 0;
  }
  if (o.role == Role::kServer) {
    ServerResult r = RunServer(o);
    if (!r.summary) {
      err << "rueperf server: " << r.error << "\n";
      return 1;
    }
    out << SummaryLine(*r.summary);
    return r.summary->verify_errors ? 1 : 0;
  }
  ClientResult r = RunClient(o);
  if (!r.report) {
    err << "rueperf client: " << r.error << "\n";
    return 1;
  }
  out << (o.json ? RenderJson(*r.report, o.pretty) : RenderText(*r.report));
  if (r.report->verify_errors) {
    err << "rueperf client: " << r.report->verify_errors << " of "
        << r.report->verified.value_or(0) << " messages did not verify\n";
    return 1;
  }
  return 0;
}

}  // namespace rue::perf
