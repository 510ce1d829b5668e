// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Test helper: pfc_inject's ParseOptions() on a command line given as
// words, as main() would get it.
#ifndef RUE_WIRE_TOOLS_PFC_INJECT_TEST_UTIL_H_
#define RUE_WIRE_TOOLS_PFC_INJECT_TEST_UTIL_H_

#include <optional>
#include <string>
#include <vector>

#include "tools/pfc_inject_options.h"

namespace rue::pfc_inject::testing {

struct Parsed {
  std::optional<Options> options;
  std::string error;
};

inline Parsed Parse(const std::vector<std::string>& args) {
  std::vector<std::string> words = {"pfc_inject"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  Parsed parsed;
  parsed.options =
      ParseOptions(static_cast<int>(words.size()), argv.data(), &parsed.error);
  return parsed;
}

}  // namespace rue::pfc_inject::testing

#endif  // RUE_WIRE_TOOLS_PFC_INJECT_TEST_UTIL_H_
