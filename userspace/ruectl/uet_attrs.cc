// SPDX-License-Identifier: GPL-2.0
#include "ruectl/uet_attrs.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "nl/genl.h"

namespace rue::cli {
namespace {

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

}  // namespace rue::cli
