// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/tap_listener.h"

#include <algorithm>
#include <sstream>

namespace rue::test {
namespace {

// TAP lines are single lines: directives ('#') in a name would be
// misread, so they are replaced.
std::string Clean(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '#') c = ' ';
  return s;
}

std::string FullName(const ::testing::TestInfo& info) {
  return std::string(info.test_suite_name()) + "." + info.name();
}

}  // namespace

void TapListener::Line(const std::string& s) {
  fputs(s.c_str(), out_);
  fputc('\n', out_);
  fflush(out_);
}

void TapListener::Comment(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) Line("# " + line);
}

void TapListener::OnTestProgramStart(const ::testing::UnitTest&) {
  Line("TAP version 13");
}

void TapListener::OnTestStart(const ::testing::TestInfo&) {
  messages_.clear();
  skip_reason_.clear();
}

void TapListener::OnTestPartResult(const ::testing::TestPartResult& part) {
  if (part.skipped()) {
    skip_reason_ = part.message();
    return;
  }
  if (!part.failed()) return;
  std::ostringstream s;
  if (part.file_name())
    s << part.file_name() << ":" << part.line_number() << ": ";
  s << part.summary();
  messages_.push_back(s.str());
}

void TapListener::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult* r = info.result();
  std::string name = Clean(FullName(info));
  n_++;
  times_.emplace_back(static_cast<long long>(r->elapsed_time()), name);
  if (r->Failed()) {
    failed_++;
    Line("not ok " + std::to_string(n_) + " " + name);
    for (const std::string& m : messages_) Comment(m);
  } else if (r->Skipped()) {
    skipped_++;
    std::string why = Clean(skip_reason_);
    why.erase(0, why.find_first_not_of(' '));
    Line("ok " + std::to_string(n_) + " " + name + " # SKIP " + why);
  } else {
    Line("ok " + std::to_string(n_) + " " + name);
  }
}

void TapListener::OnTestProgramEnd(const ::testing::UnitTest& unit) {
  // Failures outside any test (environment set-up and tear-down).
  const ::testing::TestResult& adhoc = unit.ad_hoc_test_result();
  if (adhoc.Failed()) {
    n_++;
    failed_++;
    Line("not ok " + std::to_string(n_) + " global set-up or tear-down");
    for (int i = 0; i < adhoc.total_part_count(); i++) {
      const ::testing::TestPartResult& p = adhoc.GetTestPartResult(i);
      if (p.failed()) Comment(p.summary());
    }
  }
  std::sort(times_.rbegin(), times_.rend());
  std::ostringstream s;
  s << "slowest:";
  for (size_t i = 0; i < times_.size() && i < 5; i++)
    s << " " << times_[i].second << " " << times_[i].first << " ms;";
  Comment(s.str());
  Comment(std::to_string(n_ - failed_ - skipped_) + " passed, " +
          std::to_string(failed_) + " failed, " + std::to_string(skipped_) +
          " skipped in " + std::to_string(unit.elapsed_time()) + " ms");
  Line("1.." + std::to_string(n_));
}

}  // namespace rue::test
