// SPDX-License-Identifier: GPL-2.0
#include "rueperf/values.h"

#include <gtest/gtest.h>

#include <string>

namespace rue::perf {
namespace {

TEST(Values, ParseSize) {
  EXPECT_EQ(ParseSize("0"), 0u);
  EXPECT_EQ(ParseSize("64"), 64u);
  EXPECT_EQ(ParseSize("64k"), 65536u);
  EXPECT_EQ(ParseSize("2M"), 2u << 20);
  EXPECT_EQ(ParseSize("1G"), 1u << 30);
  EXPECT_FALSE(ParseSize(""));
  EXPECT_FALSE(ParseSize("K"));
  EXPECT_FALSE(ParseSize("-1"));
  EXPECT_FALSE(ParseSize("1KB"));
  EXPECT_FALSE(ParseSize("99999999999999999999"));
  EXPECT_FALSE(ParseSize("18446744073709551615G"));  // overflows
}

TEST(Values, ParseSeconds) {
  EXPECT_EQ(ParseSeconds("2"), 2000u);
  EXPECT_EQ(ParseSeconds("2.5"), 2500u);
  EXPECT_EQ(ParseSeconds("0.001"), 1u);
  EXPECT_EQ(ParseSeconds(".25"), 250u);
  EXPECT_FALSE(ParseSeconds("2."));
  EXPECT_FALSE(ParseSeconds("1.0001"));
  EXPECT_FALSE(ParseSeconds("x"));
  EXPECT_FALSE(ParseSeconds(""));
  EXPECT_FALSE(ParseSeconds("1.-5"));
}

// What validator makes of text: "" and the rewritten text, or the refusal.
std::string Validate(const CLI::Validator& validator, std::string* text) {
  return validator(*text);
}

TEST(Values, CountRewritesThePlainNumber) {
  std::string text = "4K";
  EXPECT_EQ(Validate(Count(1, 1 << 20, true), &text), "");
  EXPECT_EQ(text, "4096");
  text = "010";
  EXPECT_EQ(Validate(Count(1, 100), &text), "");
  EXPECT_EQ(text, "10");  // not octal
  text = "4K";
  EXPECT_EQ(Validate(Count(1, 1 << 20), &text), "'4K' is not a number");
  text = "0x10";
  EXPECT_EQ(Validate(Count(1, 100), &text), "'0x10' is not a number");
  text = "101";
  EXPECT_EQ(Validate(Count(1, 100), &text), "101 is out of range 1..100");
}

TEST(Values, SecondsAsMilliseconds) {
  std::string text = "1.5";
  EXPECT_EQ(Validate(Seconds(), &text), "");
  EXPECT_EQ(text, "1500");
  text = "3601";
  EXPECT_EQ(Validate(Seconds(), &text),
            "3601 is out of range 0.001..3600 seconds");
  text = "1s";
  EXPECT_EQ(Validate(Seconds(), &text), "'1s' is not a number of seconds");
}

TEST(Values, OneOf) {
  std::string text = "rud";
  EXPECT_EQ(Validate(OneOf({"rc", "rud", "rod"}), &text), "");
  EXPECT_EQ(text, "rud");
  text = "RUD";
  EXPECT_EQ(Validate(OneOf({"rc", "rud", "rod"}), &text),
            "'RUD' is not one of rc, rud, rod");
}

TEST(Values, DeviceName) {
  std::string name = "rue0", empty;
  EXPECT_EQ(Validate(DeviceName(), &name), "");
  EXPECT_EQ(Validate(DeviceName(), &empty), "the device name is empty");
}

}  // namespace
}  // namespace rue::perf
