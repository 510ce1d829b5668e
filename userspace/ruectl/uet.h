// SPDX-License-Identifier: GPL-2.0
//
// A device's UET counters as RUE_CMD_UET_STATS_GET reports them: names
// and values in the kernel's order.  The kernel's table is the only list
// of counters; ruectl shows whatever names it sends.
#ifndef RUE_RUECTL_UET_H_
#define RUE_RUECTL_UET_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rue::cli {

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

}  // namespace rue::cli

#endif  // RUE_RUECTL_UET_H_
