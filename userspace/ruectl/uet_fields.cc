// SPDX-License-Identifier: GPL-2.0
#include "ruectl/uet_fields.h"

namespace rue::cli {
namespace {

// "index: name:", as "cc show" starts; the counters follow one a line.
constexpr Field<UetStats> kUetStatsFields[] = {
    {"index", Text::kName, Level::kBrief,
     [](const UetStats& s) { return Value(uint64_t{s.dev_index}); }},
    {"name", Text::kName, Level::kBrief,
     [](const UetStats& s) { return Value(s.dev); }},
};

}  // namespace

// The counters keep the kernel's names, as rdma statistic shows its own:
// the one spelling in the kernel's table, ruectl's output and the docs.
Record UetStatsRecord(const UetStats& stats) {
  Record record = MakeRecord(stats, kUetStatsFields);
  for (const UetCounter& counter : stats.counters)
    record.cells.push_back(
        Cell{counter.name, Text::kLine, Level::kBrief, counter.value});
  return record;
}

}  // namespace rue::cli
