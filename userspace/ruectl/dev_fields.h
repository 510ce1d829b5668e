// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl dev show" prints of a device: its field list, declared
// once for the text and the JSON output (see print.h).
#ifndef RUE_RUECTL_DEV_FIELDS_H_
#define RUE_RUECTL_DEV_FIELDS_H_

#include "ruectl/device.h"
#include "ruectl/print.h"

namespace rue::cli {

Record DeviceRecord(const Device& device);

}  // namespace rue::cli

#endif  // RUE_RUECTL_DEV_FIELDS_H_
