// SPDX-License-Identifier: GPL-2.0
#include "ruectl/command.h"

#include <string>
#include <vector>

#include "ruectl/match.h"

namespace rue::cli {

nl::Status RunCommand(const CommandTable& table, Context& context, Args& args) {
  if (args.empty()) return table.rows.front().run(context, args);
  std::vector<std::string_view> names;
  for (const Command& row : table.rows) names.push_back(row.name);
  nl::Result<size_t> hit = MatchName(names, args.Next(), table.what);
  if (!hit.ok())
    return nl::Error{hit.error().code, hit.error().message + "; try \"" +
                                           std::string(table.help) + "\""};
  return table.rows[*hit].run(context, args);
}

}  // namespace rue::cli
