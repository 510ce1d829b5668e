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
#include "ruectl/cc_value.h"

namespace rue::cli {

struct CcChanges {
  CcConfig config;  // the scalars to send; dscp_prio stays unset
  // The DSCP map entries to change.  The kernel takes only whole maps,
  // so these go over the current one (ApplyDscpPrio) before sending.
  std::vector<DscpPrio> dscp_prio;
  std::vector<std::string_view> keys;  // in full, in the order given
};

// Takes every word left in `args`; EINVAL, naming the key and the value,
// on the first that is wrong, or when there is none.
nl::Result<CcChanges> ParseCcChanges(Args& args);

// `map` with `changes` applied.
DscpMap ApplyDscpPrio(DscpMap map, std::span<const DscpPrio> changes);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_SET_H_
