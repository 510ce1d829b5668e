// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl cc show" prints of a device's congestion control: its
// field list, declared once for the text and the JSON output (see
// record.h).  The keys are those of cc_params.h, in the same order.
#ifndef RUE_RUECTL_CC_FIELDS_H_
#define RUE_RUECTL_CC_FIELDS_H_

#include "ruectl/cc.h"
#include "ruectl/print.h"

namespace rue::cli {

Record CcRecord(const DeviceCc& device);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_FIELDS_H_
