// SPDX-License-Identifier: GPL-2.0
//
// "ruectl cc set DEV [prio P] KEY VALUE [KEY VALUE ...]": from the words
// after DEV to what is to change.  Everything is checked here, before any
// request: keys (a unique prefix will do), values and their ranges,
// read-only parameters, keys given twice, and with "prio P" keys that are
// not DCQCN parameters (CcParam::per_prio).
#ifndef RUE_RUECTL_CC_SET_H_
#define RUE_RUECTL_CC_SET_H_

#include <cstdint>
#include <optional>
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
  // What to send: the scalars, and the per-priority tables given whole;
  // prio, from "prio P", when the DCQCN parameters are for priority P
  // only.  dscp_prio stays unset.
  CcConfig config;
  // The DSCP map and table entries to change.  The kernel takes only
  // whole maps and tables, so these go over the current ones
  // (ApplyDscpPrio, ApplyPrioValues) before sending.
  std::vector<DscpPrio> dscp_prio;
  std::vector<TableEntries> tables;
  std::vector<std::string_view> keys;  // in full, in the order given
};

// Takes every word left in `args`: "prio P" if first, then the KEY VALUE
// pairs.  EINVAL, naming the key and the value, on the first that is
// wrong, or when there is none.
nl::Result<CcChanges> ParseCcChanges(Args& args);

// Takes "prio P" (the keyword in full, P from 0 to 7) if it is next in
// `args`, for "cc show" and "cc set": std::nullopt when it is not.
// EINVAL when P is missing or wrong.
nl::Result<std::optional<uint32_t>> TakePrio(Args& args);

// `map` with `changes` applied.
DscpMap ApplyDscpPrio(DscpMap map, std::span<const DscpPrio> changes);

// `table` with `changes` applied.
PrioTable ApplyPrioValues(PrioTable table, std::span<const PrioValue> changes);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_SET_H_
