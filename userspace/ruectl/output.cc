// SPDX-License-Identifier: GPL-2.0
#include "ruectl/output.h"

#include "ruectl/json_output.h"
#include "ruectl/text_output.h"

namespace rue::cli {

void Print(std::ostream& out, std::span<const Record> records,
           const Options& options) {
  if (options.json)
    out << RenderJson(records, options.details, options.pretty);
  else
    out << RenderText(records, options.details);
}

}  // namespace rue::cli
