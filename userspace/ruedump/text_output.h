// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The text rendering of a Record.
#ifndef RUE_RUEDUMP_TEXT_OUTPUT_H_
#define RUE_RUEDUMP_TEXT_OUTPUT_H_

#include <string>

#include "ruedump/record.h"

namespace rue::dump {

// One line: the brief cells of every section, in order, each placed as
// its Style says; a section with inline_title and something to show is
// preceded by its title.  Ends with "\n".
std::string RenderLine(const Record& record);

// The line above, then every section with a cell to show under its title,
// one cell a line ("    key  value"), detail cells included.
std::string RenderVerbose(const Record& record);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_TEXT_OUTPUT_H_
