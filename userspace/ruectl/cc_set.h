// SPDX-License-Identifier: GPL-2.0
//
// "ruectl cc set DEV KEY VALUE [KEY VALUE ...]": from the words after DEV
// to what is to change.  Everything is checked here, before any request:
// keys (a unique prefix will do), values and their ranges, read-only
// parameters, keys given twice.
#ifndef RUE_RUECTL_CC_SET_H_
#define RUE_RUECTL_CC_SET_H_

#include <span>
#include <string_view>
#include <vector>

#include "nl/result.h"
#include "ruectl/args.h"
#include "ruectl/cc.h"
#include "ruectl/cc_params.h"
#include "ruectl/cc_value.h"

namespace rue::cli {

// Entries of the per-priority table of `param` to change.
struct TableEntries {
  const CcParam* param;
  std::vector<PrioValue> entries;

  bool operator==(const TableEntries&) const = default;
};

struct CcChanges {
  // What to send: the scalars, and the per-priority tables given whole.
  // dscp_prio stays unset.
  CcConfig config;
  // The DSCP map and table entries to change.  The kernel takes only
  // whole maps and tables, so these go over the current ones
  // (ApplyDscpPrio, ApplyPrioValues) before sending.
  std::vector<DscpPrio> dscp_prio;
  std::vector<TableEntries> tables;
  std::vector<std::string_view> keys;  // in full, in the order given
};

// Takes every word left in `args`; EINVAL, naming the key and the value,
// on the first that is wrong, or when there is none.
nl::Result<CcChanges> ParseCcChanges(Args& args);

// `map` with `changes` applied.
DscpMap ApplyDscpPrio(DscpMap map, std::span<const DscpPrio> changes);

// `table` with `changes` applied.
PrioTable ApplyPrioValues(PrioTable table, std::span<const PrioValue> changes);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_SET_H_
