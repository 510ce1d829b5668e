// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/crc32.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace rue::wire {
namespace {

std::vector<std::byte> Ascii(std::string_view s) {
  std::vector<std::byte> out;
  for (char c : s) out.push_back(static_cast<std::byte>(c));
  return out;
}

TEST(Crc32Test, KnownVectors) {
  EXPECT_EQ(ComputeCrc32({}), 0x00000000u);
  EXPECT_EQ(ComputeCrc32(Ascii("a")), 0xE8B7BE43u);
  EXPECT_EQ(ComputeCrc32(Ascii("123456789")), 0xCBF43926u);
  EXPECT_EQ(ComputeCrc32(Ascii("The quick brown fox jumps over the lazy dog")),
            0x414FA339u);
}

TEST(Crc32Test, IncrementalEqualsOneShot) {
  const std::vector<std::byte> data =
      Ascii("The quick brown fox jumps over the lazy dog");
  for (std::size_t split = 0; split <= data.size(); ++split) {
    Crc32 crc;
    crc.Update(std::span<const std::byte>(data).first(split));
    crc.Update(std::span<const std::byte>(data).subspan(split));
    EXPECT_EQ(crc.Value(), ComputeCrc32(data)) << split;
  }
}

TEST(Crc32Test, UpdateRepeatedEqualsBytes) {
  const std::vector<std::byte> ff(8, std::byte{0xFF});
  Crc32 a;
  a.UpdateRepeated(8, 0xFF);
  EXPECT_EQ(a.Value(), ComputeCrc32(ff));
  // Linux rdma_rxe's ICRC seed is this register value.
  EXPECT_EQ(a.register_value(), 0xDEBB20E3u);
}

TEST(Crc32Test, TableIsComputedAtCompileTime) {
  static_assert(kCrc32Table[0] == 0);
  static_assert(kCrc32Table[128] == kCrc32ReflectedPolynomial);
  EXPECT_EQ(kCrc32Table[0x80], 0xEDB88320u);
}

}  // namespace
}  // namespace rue::wire
