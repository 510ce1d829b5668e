// SPDX-License-Identifier: GPL-2.0
#include "ruectl/uet_cmd.h"

#include <optional>
#include <vector>

#include "ruectl/errors.h"
#include "ruectl/print.h"
#include "ruectl/uet_fields.h"

namespace rue::cli {
namespace {

constexpr std::string_view kUetHelp =
    "Usage: ruectl uet [ stats [ DEV ] ]\n"
    "       ruectl uet help\n"
    "\n"
    "stats  the UET counters of DEV, or of every rue device, one a line\n"
    "       below the device, with the kernel's names: PDCs opened, closed\n"
    "       and failed, ACKs, SACKs and NACKs, retransmits, SES errors,\n"
    "       window changes, ECN marks.  \"rdma statistic\" shows the\n"
    "       uet_* counters it has room for\n"
    "\n"
    "Examples:\n"
    "  ruectl uet stats rue0\n"
    "  ruectl uet\n"
    "  ruectl -j uet stats rue0\n";

// The counters of device `name`, or without it of every device.
nl::Result<std::vector<UetStats>> Select(Backend& backend,
                                         std::optional<std::string_view> name) {
  if (!name) {
    nl::Result<std::vector<UetStats>> all = backend.ListUetStats();
    if (!all.ok()) return RequestError(all.error(), std::nullopt);
    return all;
  }
  nl::Result<UetStats> one = backend.GetUetStats(*name);
  if (!one.ok()) return RequestError(one.error(), name);
  return std::vector<UetStats>{std::move(one).value()};
}

nl::Status UetStatsShow(Context& context, Args& args) {
  std::optional<std::string_view> name;
  if (!args.empty()) name = args.Next();
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  // The records borrow the counters' names: `stats` outlives them.
  nl::Result<std::vector<UetStats>> stats = Select(context.backend, name);
  if (!stats.ok()) return stats.error();
  std::vector<Record> records;
  for (const UetStats& device : *stats)
    records.push_back(UetStatsRecord(device));
  Print(context.out, records, context.options);
  return nl::Ok();
}

nl::Status UetHelp(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kUetHelp;
  return nl::Ok();
}

constexpr Command kUetCommands[] = {
    {"stats", UetStatsShow},
    {"help", UetHelp},
};

constexpr CommandTable kUetTable = {"command", "ruectl uet help", kUetCommands};

}  // namespace

nl::Status RunUet(Context& context, Args& args) {
  return RunCommand(kUetTable, context, args);
}

}  // namespace rue::cli
