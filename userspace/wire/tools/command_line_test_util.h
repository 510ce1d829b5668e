// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Test helpers for the tools' command lines (roce_inject, pfc_inject,
// ruedump): a command line given as words, handed over as main() gets it.
#ifndef RUE_WIRE_TOOLS_COMMAND_LINE_TEST_UTIL_H_
#define RUE_WIRE_TOOLS_COMMAND_LINE_TEST_UTIL_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rue::cli11::testing {

// argc and argv for words: the program's name first, a null pointer last.
class Argv {
 public:
  Argv(std::string program, const std::vector<std::string>& words)
      : words_{std::move(program)} {
    words_.insert(words_.end(), words.begin(), words.end());
    for (std::string& w : words_) pointers_.push_back(w.data());
    pointers_.push_back(nullptr);
  }
  Argv(const Argv&) = delete;
  Argv& operator=(const Argv&) = delete;

  int argc() const { return static_cast<int>(words_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<char*> pointers_;  // into words_, which no longer changes
};

// What a tool's ParseOptions() made of a command line.
template <typename Options>
struct Parsed {
  std::optional<Options> options;  // set on success
  std::string error;               // set on failure
};

template <typename Options>
using ParseFunction = std::optional<Options> (*)(int argc, char* argv[],
                                                 std::string* error);

// parse, a tool's ParseOptions(), on words.
template <typename Options>
Parsed<Options> ParseWords(ParseFunction<Options> parse,
                           const std::vector<std::string>& words) {
  Argv argv("tool", words);
  Parsed<Options> parsed;
  parsed.options = parse(argv.argc(), argv.argv(), &parsed.error);
  return parsed;
}

}  // namespace rue::cli11::testing

#endif  // RUE_WIRE_TOOLS_COMMAND_LINE_TEST_UTIL_H_
