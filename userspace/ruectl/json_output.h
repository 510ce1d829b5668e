// SPDX-License-Identifier: GPL-2.0
//
// JSON output: an array with one object per record, keys in field order,
// numbers as numbers, flags as booleans, sets of numbers as arrays of
// numbers, list fields as arrays of objects; absent fields are left out.
// Compact on one line, or indented by four spaces with -p, as rdma(8)
// does.
#ifndef RUE_RUECTL_JSON_OUTPUT_H_
#define RUE_RUECTL_JSON_OUTPUT_H_

#include <span>
#include <string>

#include "ruectl/record.h"

namespace rue::cli {

std::string RenderJson(std::span<const Record> records, bool details,
                       bool pretty);

}  // namespace rue::cli

#endif  // RUE_RUECTL_JSON_OUTPUT_H_
