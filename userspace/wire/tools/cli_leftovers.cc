// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/cli_leftovers.h"

namespace rue::cli11 {

Leftovers SortLeftovers(const std::vector<std::string>& remaining) {
  Leftovers sorted;
  bool operands_only = false;
  for (const std::string& word : remaining) {
    if (word == "--" && !operands_only) {
      operands_only = true;
    } else if (!operands_only && word.size() > 1 && word[0] == '-') {
      sorted.options.push_back(word);
    } else {
      sorted.arguments.push_back(word);
    }
  }
  return sorted;
}

}  // namespace rue::cli11
