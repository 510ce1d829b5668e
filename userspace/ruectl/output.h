// SPDX-License-Identifier: GPL-2.0
//
// Print: records out as the global options ask, JSON (-j, -p) or text,
// with the -d fields or without.
#ifndef RUE_RUECTL_OUTPUT_H_
#define RUE_RUECTL_OUTPUT_H_

#include <ostream>
#include <span>

#include "ruectl/options.h"
#include "ruectl/record.h"

namespace rue::cli {

void Print(std::ostream& out, std::span<const Record> records,
           const Options& options);

}  // namespace rue::cli

#endif  // RUE_RUECTL_OUTPUT_H_
