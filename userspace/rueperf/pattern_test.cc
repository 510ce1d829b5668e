// SPDX-License-Identifier: GPL-2.0
#include "rueperf/pattern.h"

#include <gtest/gtest.h>

#include <vector>

namespace rue::perf {
namespace {

TEST(Pattern, SeedAndCheck) {
  std::vector<uint8_t> buf(64);
  FillPattern(buf, 7);
  EXPECT_EQ(buf[0], 0);
  EXPECT_EQ(buf[3], 7);
  EXPECT_EQ(CheckPattern(buf), 7u);
  for (size_t i = 4; i < buf.size(); ++i) EXPECT_NE(buf[i], 0) << i;
  EXPECT_FALSE(AllZero(buf));
}

TEST(Pattern, DetectsDamage) {
  std::vector<uint8_t> buf(4096);
  FillPattern(buf, 3);
  auto flipped = buf;
  flipped[2000] ^= 1;
  EXPECT_FALSE(CheckPattern(flipped));
  // Another slot's data is not this slot's.
  auto other = buf;
  FillPattern(other, 4);
  EXPECT_EQ(CheckPattern(other), 4u);
  // A torn message: the head of one, the tail of another.
  std::copy(buf.begin(), buf.begin() + 100, other.begin());
  EXPECT_FALSE(CheckPattern(other));
  // Shifted by a byte.
  std::vector<uint8_t> shifted(buf.begin() + 1, buf.end());
  shifted.push_back(0x55);
  EXPECT_FALSE(CheckPattern(shifted));
}

TEST(Pattern, ZeroIsNeverAPattern) {
  std::vector<uint8_t> buf(16, 0);
  EXPECT_TRUE(AllZero(buf));
  EXPECT_FALSE(CheckPattern(buf));
}

TEST(Pattern, ShortMessages) {
  EXPECT_EQ(SlotSeed(5, 3), 0u);
  EXPECT_EQ(SlotSeed(5, 4), 6u);
  for (size_t n = 1; n < 4; ++n) {
    std::vector<uint8_t> buf(n);
    FillPattern(buf, 99);  // too short to carry it: seed 0
    EXPECT_EQ(CheckPattern(buf), 0u);
    EXPECT_FALSE(AllZero(buf));
    buf[n - 1] ^= 0xff;
    EXPECT_FALSE(CheckPattern(buf));
  }
}

}  // namespace
}  // namespace rue::perf
