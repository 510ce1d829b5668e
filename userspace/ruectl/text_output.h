// SPDX-License-Identifier: GPL-2.0
//
// Text output in the style of rdma(8): one line per record, its name
// fields first ("0: rue0:"), then "key value" pairs; a record with kLine
// fields continues on lines of its own, indented by four spaces; list
// fields go on the following lines, indented by four spaces per level.
// Absent fields are left out.
#ifndef RUE_RUECTL_TEXT_OUTPUT_H_
#define RUE_RUECTL_TEXT_OUTPUT_H_

#include <span>
#include <string>

#include "ruectl/record.h"

namespace rue::cli {

std::string RenderText(std::span<const Record> records, bool details);

}  // namespace rue::cli

#endif  // RUE_RUECTL_TEXT_OUTPUT_H_
