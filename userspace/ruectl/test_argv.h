// SPDX-License-Identifier: GPL-2.0
//
// Test helper: a mutable argv, as main() gets it, from string literals.
#ifndef RUE_RUECTL_TEST_ARGV_H_
#define RUE_RUECTL_TEST_ARGV_H_

#include <initializer_list>
#include <string>
#include <vector>

namespace rue::cli::testing {

class Argv {
 public:
  // argv[0] is "ruectl"; `words` follow it.
  Argv(std::initializer_list<const char*> words)
      : Argv(std::vector<const char*>(words)) {}
  explicit Argv(const std::vector<const char*>& words) : strings_{"ruectl"} {
    strings_.insert(strings_.end(), words.begin(), words.end());
    for (std::string& s : strings_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
  }
  Argv(const Argv&) = delete;
  Argv& operator=(const Argv&) = delete;

  int argc() const { return static_cast<int>(strings_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

}  // namespace rue::cli::testing

#endif  // RUE_RUECTL_TEST_ARGV_H_
