// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/inject_cli.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace rue::inject {
namespace {

// What validator makes of text: "" and the rewritten text, or the refusal.
std::string Validate(const CLI::Validator& validator, std::string* text) {
  return validator(*text);
}

TEST(InjectCliTest, NumberUpToRewritesInDecimal) {
  const CLI::Validator number = NumberUpTo(0xff);
  for (const auto& [in, out] :
       {std::pair<std::string, std::string>{"0x1f", "31"},
        {"010", "10"},  // not octal
        {"255", "255"},
        {"0", "0"}}) {
    std::string text = in;
    EXPECT_EQ(Validate(number, &text), "") << in;
    EXPECT_EQ(text, out) << in;
  }
}

TEST(InjectCliTest, NumberUpToRefuses) {
  const CLI::Validator number = NumberUpTo(0xffffff);
  for (const char* in :
       {"0x1000000", "16777216", "-1", "+1", " 1", "", "1e3", "x"}) {
    std::string text = in;
    EXPECT_EQ(Validate(number, &text),
              std::string("want a number from 0 to 16777215 (0xffffff), "
                          "not '") + in + "'");
  }
}

TEST(InjectCliTest, AtLeastOne) {
  std::string zero = "0", one = "1";
  EXPECT_EQ(Validate(AtLeastOne("frame"), &zero), "want at least 1 frame");
  EXPECT_EQ(Validate(AtLeastOne("frame"), &one), "");
}

TEST(InjectCliTest, HexBytes) {
  std::string good = "81 00:ff", odd = "810", prefixed = "0x81";
  EXPECT_EQ(Validate(HexBytes(), &good), "");
  EXPECT_EQ(good, "81 00:ff");  // checked, not rewritten
  EXPECT_EQ(Validate(HexBytes(), &odd),
            "want pairs of hex digits (spaces and colons between bytes "
            "allowed), not '810'");
  EXPECT_NE(Validate(HexBytes(), &prefixed), "");
}

}  // namespace
}  // namespace rue::inject
