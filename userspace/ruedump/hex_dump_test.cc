// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/hex_dump.h"

#include <gtest/gtest.h>

#include <vector>

namespace rue::dump {
namespace {

std::vector<std::byte> Range(int n) {
  std::vector<std::byte> out;
  for (int i = 0; i < n; ++i) out.push_back(static_cast<std::byte>(0x3c + i));
  return out;
}

TEST(HexDumpTest, FullAndPartialLines) {
  EXPECT_EQ(HexDump(Range(19)),
            "  0x0000:  3c3d 3e3f 4041 4243 4445 4647 4849 4a4b  "
            "<=>?@ABCDEFGHIJK\n"
            "  0x0010:  4c4d 4e                                  LMN\n");
}

TEST(HexDumpTest, Unprintables) {
  const std::vector<std::byte> bytes = {std::byte{0x00}, std::byte{0x7f},
                                        std::byte{0x20}, std::byte{0xff}};
  EXPECT_EQ(HexDump(bytes),
            "  0x0000:  007f 20ff                                .. .\n");
}

TEST(HexDumpTest, Empty) {
  EXPECT_EQ(HexDump({}), "");
  EXPECT_EQ(HexString({}), "");
}

TEST(HexDumpTest, HexString) { EXPECT_EQ(HexString(Range(3)), "3c3d3e"); }

}  // namespace
}  // namespace rue::dump
