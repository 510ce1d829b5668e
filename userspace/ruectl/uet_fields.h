// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl uet stats" prints of a device: its index and name, declared
// once for the text and the JSON output (see print.h), then one field per
// counter the kernel reported, keyed by the counter's own name.
#ifndef RUE_RUECTL_UET_FIELDS_H_
#define RUE_RUECTL_UET_FIELDS_H_

#include "ruectl/print.h"
#include "ruectl/uet.h"

namespace rue::cli {

// The record's counter keys point into `stats`, which must outlive it.
Record UetStatsRecord(const UetStats& stats);

}  // namespace rue::cli

#endif  // RUE_RUECTL_UET_FIELDS_H_
