// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A GoogleTest event listener that reports in TAP version 13, the form
// kselftest and rue's guest runner read: "ok N name", "not ok N name"
// followed by the failure messages as "# " lines, "ok N name # SKIP why",
// and the plan "1..N" at the end.
#ifndef RUE_TESTS_TAP_LISTENER_H_
#define RUE_TESTS_TAP_LISTENER_H_

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace rue::test {

class TapListener : public ::testing::EmptyTestEventListener {
 public:
  explicit TapListener(FILE* out = stdout) : out_(out) {}

  void OnTestProgramStart(const ::testing::UnitTest& unit) override;
  void OnTestStart(const ::testing::TestInfo& info) override;
  void OnTestPartResult(const ::testing::TestPartResult& part) override;
  void OnTestEnd(const ::testing::TestInfo& info) override;
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override;

  int count() const { return n_; }

 private:
  void Line(const std::string& s);
  void Comment(const std::string& text);

  FILE* out_;
  int n_ = 0;
  int failed_ = 0;
  int skipped_ = 0;
  std::vector<std::string> messages_;  // of the running test
  std::string skip_reason_;
  std::vector<std::pair<long long, std::string>> times_;  // ms, name
};

}  // namespace rue::test

#endif  // RUE_TESTS_TAP_LISTENER_H_
