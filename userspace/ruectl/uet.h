// SPDX-License-Identifier: GPL-2.0
//
// The "uet" object: ruectl uet { stats [DEV] | help }.  A device's UET
// counters as RUE_CMD_UET_STATS_GET reports them, names and values in the
// kernel's order: the messages, what "uet stats" prints, and the command.
// The kernel's table is the only list of counters; ruectl shows whatever
// names it sends.
#ifndef RUE_RUECTL_UET_H_
#define RUE_RUECTL_UET_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/print.h"

namespace rue::cli {

class Cli;

struct UetCounter {
  std::string name;  // as the kernel spells it ("pdc_opened")
  uint64_t value = 0;

  bool operator==(const UetCounter&) const = default;
};

struct UetStats {
  uint32_t dev_index = 0;  // ib_device index
  std::string dev;
  std::vector<UetCounter> counters;

  bool operator==(const UetStats&) const = default;
};

// A RUE_CMD_UET_STATS_GET reply; `attrs`: the attributes after the
// genlmsghdr.  It needs the device's index and name and the
// RUE_A_DEV_UET_STATS nest; each counter in it needs a name and a value.
// Attributes this code does not know are skipped.  EBADMSG, naming the
// attribute, when one is missing or malformed, or when a counter's name
// is empty or comes twice.
nl::Result<UetStats> ParseUetStats(nl::Bytes attrs);

// RUE_CMD_UET_STATS_GET: as a do, the counters of device `name`; without
// it, as a dump, those of every device.
nl::MessageBuilder UetStatsRequest(uint16_t family_id,
                                   std::optional<std::string_view> name);

// What "uet stats" prints of a device: its index and name, then one field
// per counter the kernel reported, keyed by the counter's own name.  The
// record's counter keys point into `stats`, which must outlive it.
Record UetStatsRecord(const UetStats& stats);

void AddUetObject(Cli& cli);

}  // namespace rue::cli

#endif  // RUE_RUECTL_UET_H_
