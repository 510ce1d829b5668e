// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The JSON rendering of a Record: one object on one line (JSON lines).
#ifndef RUE_RUEDUMP_JSON_OUTPUT_H_
#define RUE_RUEDUMP_JSON_OUTPUT_H_

#include <optional>
#include <string>
#include <string_view>

#include "ruedump/record.h"

namespace rue::dump {

// Cells of sections with an empty key go to the top level, the others into
// an object under the section's key.  Detail cells only when verbose.  A
// section with nothing to show is left out.  If hex is given, it is added
// as "hex" at the top level.  Ends with "\n".
std::string RenderJson(const Record& record, bool verbose,
                       std::optional<std::string_view> hex = std::nullopt);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_JSON_OUTPUT_H_
