// SPDX-License-Identifier: GPL-2.0
#include "ruectl/uet.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <cerrno>

#include "nl/genl.h"
#include "ruectl/backend.h"
#include "ruectl/cli.h"

namespace rue::cli {
namespace {

// The messages.

using nl::AttrKind;
using nl::AttrPolicy;

constexpr AttrPolicy kDeviceStatsPolicy[] = {
    {RUE_A_DEV_INDEX, AttrKind::kU32, "dev-index", true},
    {RUE_A_DEV_NAME, AttrKind::kString, "dev-name", true},
    {RUE_A_DEV_UET_STATS, AttrKind::kNested, "dev-uet-stats", true},
};

constexpr AttrPolicy kStatPolicy[] = {
    {RUE_A_UET_STAT_NAME, AttrKind::kString, "uet-stat-name", true},
    {RUE_A_UET_STAT_VALUE, AttrKind::kU64, "uet-stat-value", true},
};

nl::Error BadName(const std::string& why) {
  return nl::Error{EBADMSG, "attribute \"uet-stat-name\" (" +
                                std::to_string(RUE_A_UET_STAT_NAME) +
                                "): " + why};
}

nl::Result<UetCounter> ParseCounter(nl::Bytes nest) {
  nl::Result<nl::AttrTable> table = nl::AttrTable::Parse(nest, kStatPolicy);
  if (!table.ok()) return table.error();
  UetCounter counter{std::string(table->Str(RUE_A_UET_STAT_NAME)),
                     table->U64(RUE_A_UET_STAT_VALUE)};
  if (counter.name.empty()) return BadName("empty");
  return counter;
}

// The counters of the nest, in order; each name once, or one of them
// would hide the other in JSON.
nl::Result<std::vector<UetCounter>> ParseCounters(nl::Bytes nest) {
  std::vector<UetCounter> counters;
  nl::Status walked = nl::ForEachAttr(nest, [&](const nl::Attr& attr) {
    if (attr.type() != RUE_A_DEV_UET_STAT) return nl::Ok();
    nl::Result<UetCounter> counter = ParseCounter(attr.payload());
    if (!counter.ok()) return nl::Status(counter.error());
    auto same = [&](const UetCounter& c) { return c.name == counter->name; };
    if (std::any_of(counters.begin(), counters.end(), same))
      return nl::Status(BadName("\"" + counter->name + "\" twice"));
    counters.push_back(std::move(counter).value());
    return nl::Ok();
  });
  if (!walked.ok()) return walked.error();
  return counters;
}

// The fields: "index: name:", as "cc show" starts; the counters follow
// one a line.

constexpr Field<UetStats> kUetStatsFields[] = {
    {"index", Text::kName, Level::kBrief,
     [](const UetStats& s) { return Value(uint64_t{s.dev_index}); }},
    {"name", Text::kName, Level::kBrief,
     [](const UetStats& s) { return Value(s.dev); }},
};

// The command.

constexpr char kUsage[] =
    "Usage: ruectl uet [ stats [ DEV ] ]\n"
    "       ruectl uet help\n";

constexpr char kStatsHelp[] =
    "the UET counters of DEV, or of every rue device, one a line\n"
    "below the device, with the kernel's names: PDCs opened, closed\n"
    "and failed, ACKs, SACKs and NACKs, retransmits, SES errors,\n"
    "window changes, ECN marks.  \"rdma statistic\" shows the\n"
    "uet_* counters it has room for";

constexpr char kFooter[] =
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

nl::Status UetStatsShow(Context& context, const CLI::App& command) {
  // The records borrow the counters' names: `stats` outlives them.
  nl::Result<std::vector<UetStats>> stats =
      Select(context.backend, Arg(command, kDev));
  if (!stats.ok()) return stats.error();
  std::vector<Record> records;
  for (const UetStats& device : *stats)
    records.push_back(UetStatsRecord(device));
  Print(context.out, records, context.options);
  return nl::Ok();
}

}  // namespace

nl::Result<UetStats> ParseUetStats(nl::Bytes attrs) {
  nl::Result<nl::AttrTable> table =
      nl::AttrTable::Parse(attrs, kDeviceStatsPolicy);
  if (!table.ok()) return table.error();
  nl::Result<std::vector<UetCounter>> counters =
      ParseCounters(table->Payload(RUE_A_DEV_UET_STATS));
  if (!counters.ok()) return counters.error();
  UetStats stats;
  stats.dev_index = table->U32(RUE_A_DEV_INDEX);
  stats.dev = table->Str(RUE_A_DEV_NAME);
  stats.counters = std::move(counters).value();
  return stats;
}

nl::MessageBuilder UetStatsRequest(uint16_t family_id,
                                   std::optional<std::string_view> name) {
  nl::MessageBuilder request =
      nl::GenlRequest(family_id, RUE_CMD_UET_STATS_GET, RUE_GENL_VERSION);
  if (name) request.PutString(RUE_A_DEV_NAME, *name);
  return request;
}

// The counters keep the kernel's names, as rdma statistic shows its own:
// the one spelling in the kernel's table, ruectl's output and the docs.
Record UetStatsRecord(const UetStats& stats) {
  Record record = MakeRecord(stats, kUetStatsFields);
  for (const UetCounter& counter : stats.counters)
    record.cells.push_back(
        Cell{counter.name, Text::kLine, Level::kBrief, counter.value});
  return record;
}

void AddUetObject(Cli& cli) {
  CLI::App* uet = cli.AddObject("uet", kUsage, kFooter);
  cli.AddCommand(uet, "stats", kStatsHelp, UetStatsShow)->add_option(kDev);
}

}  // namespace rue::cli
