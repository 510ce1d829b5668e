// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/format.h"

#include <gtest/gtest.h>

#include "ruedump/record.h"

namespace rue::dump {
namespace {

TEST(FormatTest, Addresses) {
  EXPECT_EQ(FormatMac({0x02, 0, 0xab, 0, 0, 0xff}), "02:00:ab:00:00:ff");
  EXPECT_EQ(FormatIpv4({192, 0, 2, 255}), "192.0.2.255");
  EXPECT_EQ(
      FormatIpv6({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}),
      "2001:db8::1");
  EXPECT_EQ(
      FormatIpv6({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 1}),
      "::ffff:192.0.2.1");
  const uint8_t two[] = {0xa, 0xb};
  EXPECT_EQ(FormatLinkAddress(two), "0a:0b");
  EXPECT_EQ(FormatLinkAddress({}), "");
}

TEST(FormatTest, Values) {
  EXPECT_EQ(Hex(0x1a).text, "0x1a");
  EXPECT_EQ(Hex(0x1a, 4).text, "0x001a");
  EXPECT_EQ(Hex(0xffffffffffffffff).text, "0xffffffffffffffff");
  EXPECT_EQ(std::get<std::string>(Hex(0x1a).json), "0x1a");
  EXPECT_EQ(Number(42).text, "42");
  EXPECT_EQ(std::get<uint64_t>(Number(42).json), 42u);
  EXPECT_EQ(Bool(true).text, "1");
  EXPECT_EQ(Bool(false, "ok", "BAD").text, "BAD");
  EXPECT_EQ(std::get<bool>(Bool(true).json), true);
  EXPECT_EQ(Seconds(1700000000, 5).text, "1700000000.000005");
}

}  // namespace
}  // namespace rue::dump
