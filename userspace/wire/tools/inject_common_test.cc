// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/inject_common.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "test_util.h"

namespace rue::inject {
namespace {

using wire::testing::Bytes;

TEST(InjectCommonTest, Numbers) {
  EXPECT_EQ(ParseNumber("0", 10), 0u);
  EXPECT_EQ(ParseNumber("10", 10), 10u);
  EXPECT_EQ(ParseNumber("0xA", 10), 10u);
  EXPECT_EQ(ParseNumber("0X0a", 10), 10u);
  EXPECT_EQ(ParseNumber("18446744073709551615", UINT64_MAX), UINT64_MAX);
  EXPECT_FALSE(ParseNumber("11", 10));
  EXPECT_FALSE(ParseNumber("18446744073709551616", UINT64_MAX));
  EXPECT_FALSE(ParseNumber("", 10));
  EXPECT_FALSE(ParseNumber("0x", 10));
  EXPECT_FALSE(ParseNumber("-1", 10));
  EXPECT_FALSE(ParseNumber("+1", 10));
  EXPECT_FALSE(ParseNumber(" 1", 10));
  EXPECT_FALSE(ParseNumber("1k", 10));
  EXPECT_FALSE(ParseNumber("0x-1", 10));
}

TEST(InjectCommonTest, Hex) {
  EXPECT_EQ(ParseHex(""), std::vector<std::byte>());
  EXPECT_EQ(ParseHex("00ff"), Bytes({0x00, 0xff}));
  EXPECT_EQ(ParseHex(" 0A:bC  "), Bytes({0x0a, 0xbc}));
  EXPECT_FALSE(ParseHex("abc"));   // odd digit count
  EXPECT_FALSE(ParseHex("a bc"));  // a separator inside a byte
  EXPECT_FALSE(ParseHex("0x81"));  // no prefix
  EXPECT_FALSE(ParseHex("zz"));
}

TEST(InjectCommonTest, HexString) {
  EXPECT_EQ(HexString({}), "");
  EXPECT_EQ(HexString(Bytes({0x00, 0x0f, 0xa0, 0xff})), "000fa0ff");
  EXPECT_EQ(ParseHex(HexString(Bytes({1, 2, 0xfe}))), Bytes({1, 2, 0xfe}));
}

TEST(InjectCommonTest, ErrnoText) {
  EXPECT_EQ(ErrnoText(ENODEV), "No such device (ENODEV)");
  EXPECT_EQ(ErrnoText(EPERM), "Operation not permitted (EPERM)");
}

}  // namespace
}  // namespace rue::inject
