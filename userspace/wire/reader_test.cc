// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/reader.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::Bytes;

const std::vector<std::byte> kData =
    Bytes({0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
           0x0c, 0x0d, 0x0e, 0x0f, 0x10});

TEST(ReaderTest, ReadU8) {
  Reader r(kData);
  uint8_t v = 0;
  ASSERT_TRUE(r.ReadU8(&v));
  EXPECT_EQ(v, 0x01);
  ASSERT_TRUE(r.ReadU8(&v));
  EXPECT_EQ(v, 0x02);
  EXPECT_EQ(r.offset(), 2u);
  EXPECT_EQ(r.remaining(), kData.size() - 2);
  EXPECT_TRUE(r.ok());
}

TEST(ReaderTest, ReadU16IsBigEndian) {
  Reader r(kData);
  uint16_t v = 0;
  ASSERT_TRUE(r.ReadU16(&v));
  EXPECT_EQ(v, 0x0102);
  EXPECT_EQ(r.offset(), 2u);
}

TEST(ReaderTest, ReadU24IsBigEndian) {
  Reader r(kData);
  uint32_t v = 0xFFFFFFFF;
  ASSERT_TRUE(r.ReadU24(&v));
  EXPECT_EQ(v, 0x010203u);
  EXPECT_EQ(r.offset(), 3u);
}

TEST(ReaderTest, ReadU32IsBigEndian) {
  Reader r(kData);
  uint32_t v = 0;
  ASSERT_TRUE(r.ReadU32(&v));
  EXPECT_EQ(v, 0x01020304u);
  EXPECT_EQ(r.offset(), 4u);
}

TEST(ReaderTest, ReadU64IsBigEndian) {
  Reader r(kData);
  uint64_t v = 0;
  ASSERT_TRUE(r.ReadU64(&v));
  EXPECT_EQ(v, 0x0102030405060708ull);
  EXPECT_EQ(r.offset(), 8u);
}

TEST(ReaderTest, ReadU32LeIsLittleEndian) {
  Reader r(kData);
  uint32_t v = 0;
  ASSERT_TRUE(r.ReadU32Le(&v));
  EXPECT_EQ(v, 0x04030201u);
  EXPECT_EQ(r.offset(), 4u);
}

TEST(ReaderTest, HighBitsSurvive) {
  const std::vector<std::byte> data =
      Bytes({0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0xfa, 0xf9, 0xf8});
  Reader r(data);
  uint64_t v = 0;
  ASSERT_TRUE(r.ReadU64(&v));
  EXPECT_EQ(v, 0xfffefdfcfbfaf9f8ull);
}

TEST(ReaderTest, ReadBytesCopies) {
  Reader r(kData);
  std::array<std::byte, 3> out{};
  ASSERT_TRUE(r.Skip(1));
  ASSERT_TRUE(r.ReadBytes(out));
  EXPECT_EQ(out[0], std::byte{0x02});
  EXPECT_EQ(out[2], std::byte{0x04});
  EXPECT_EQ(r.offset(), 4u);
}

TEST(ReaderTest, ReadSpanBorrows) {
  Reader r(kData);
  std::span<const std::byte> s;
  ASSERT_TRUE(r.Skip(2));
  ASSERT_TRUE(r.ReadSpan(4, &s));
  EXPECT_EQ(s.data(), kData.data() + 2);
  EXPECT_EQ(s.size(), 4u);
  EXPECT_EQ(r.offset(), 6u);
}

TEST(ReaderTest, ZeroLengthReadsSucceedAtEnd) {
  Reader r(kData);
  ASSERT_TRUE(r.Skip(kData.size()));
  EXPECT_TRUE(r.AtEnd());
  std::span<const std::byte> s;
  EXPECT_TRUE(r.ReadSpan(0, &s));
  EXPECT_TRUE(r.Skip(0));
  EXPECT_TRUE(r.ReadBytes({}));
  EXPECT_TRUE(r.ok());
}

TEST(ReaderTest, SkipAndRest) {
  Reader r(kData);
  ASSERT_TRUE(r.Skip(10));
  EXPECT_EQ(r.Rest().size(), 6u);
  EXPECT_EQ(r.Rest()[0], std::byte{0x0b});
}

TEST(ReaderTest, EmptyBuffer) {
  Reader r(std::span<const std::byte>{});
  uint8_t v = 0;
  EXPECT_TRUE(r.AtEnd());
  EXPECT_FALSE(r.ReadU8(&v));
  EXPECT_FALSE(r.ok());
}

// Each read with one byte too few fails, does not move, does not write the
// output, and poisons the reader.
TEST(ReaderTest, BufferTooSmallForEachMethod) {
  const std::vector<std::byte> data = Bytes({0xaa, 0xbb, 0xcc, 0xdd, 0xee,
                                             0xff, 0x11, 0x22});
  struct Case {
    const char* name;
    std::size_t size;  // bytes the read needs
    bool (*read)(Reader&);
  };
  const Case cases[] = {
      {"ReadU8", 1, [](Reader& r) { uint8_t v = 7; bool ok = r.ReadU8(&v); return ok || v != 7; }},
      {"ReadU16", 2, [](Reader& r) { uint16_t v = 7; bool ok = r.ReadU16(&v); return ok || v != 7; }},
      {"ReadU24", 3, [](Reader& r) { uint32_t v = 7; bool ok = r.ReadU24(&v); return ok || v != 7; }},
      {"ReadU32", 4, [](Reader& r) { uint32_t v = 7; bool ok = r.ReadU32(&v); return ok || v != 7; }},
      {"ReadU32Le", 4, [](Reader& r) { uint32_t v = 7; bool ok = r.ReadU32Le(&v); return ok || v != 7; }},
      {"ReadU64", 8, [](Reader& r) { uint64_t v = 7; bool ok = r.ReadU64(&v); return ok || v != 7; }},
      {"ReadBytes", 5, [](Reader& r) {
         std::array<std::byte, 5> out{};
         bool ok = r.ReadBytes(out);
         return ok || out[0] != std::byte{0};
       }},
      {"ReadSpan", 5, [](Reader& r) {
         std::span<const std::byte> s;
         bool ok = r.ReadSpan(5, &s);
         return ok || !s.empty();
       }},
      {"Skip", 5, [](Reader& r) { return r.Skip(5); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_LE(c.size, data.size());
    // Exactly enough: succeeds.
    {
      Reader r(std::span<const std::byte>(data).first(c.size));
      EXPECT_TRUE(c.read(r));
      EXPECT_TRUE(r.ok());
      EXPECT_TRUE(r.AtEnd());
    }
    // One short: fails without moving.
    {
      Reader r(std::span<const std::byte>(data).first(c.size - 1));
      EXPECT_FALSE(c.read(r));
      EXPECT_FALSE(r.ok());
      EXPECT_EQ(r.offset(), 0u);
      EXPECT_EQ(r.remaining(), 0u);
      EXPECT_TRUE(r.Rest().empty());
    }
  }
}

TEST(ReaderTest, EveryReadFailsAfterTheFirstFailure) {
  Reader r(kData);
  uint64_t big = 0;
  ASSERT_TRUE(r.Skip(12));
  EXPECT_FALSE(r.ReadU64(&big));  // 4 bytes left, 8 wanted
  EXPECT_EQ(r.offset(), 12u);
  // 4 bytes are still there, but the reader is poisoned.
  uint8_t u8 = 0;
  uint16_t u16 = 0;
  uint32_t u32 = 0;
  std::array<std::byte, 1> one{};
  std::span<const std::byte> s;
  EXPECT_FALSE(r.ReadU8(&u8));
  EXPECT_FALSE(r.ReadU16(&u16));
  EXPECT_FALSE(r.ReadU24(&u32));
  EXPECT_FALSE(r.ReadU32(&u32));
  EXPECT_FALSE(r.ReadU32Le(&u32));
  EXPECT_FALSE(r.ReadBytes(one));
  EXPECT_FALSE(r.ReadSpan(0, &s));
  EXPECT_FALSE(r.Skip(0));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.offset(), 12u);
}

TEST(ReaderTest, CheckOnceAtTheEnd) {
  const std::vector<std::byte> data = Bytes({0x12, 0x34, 0x56});
  Reader r(data);
  uint16_t a = 0;
  uint16_t b = 0;
  uint8_t c = 0;
  r.ReadU16(&a);
  r.ReadU16(&b);  // fails: one byte left
  r.ReadU8(&c);   // fails: poisoned, although one byte is left
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(a, 0x1234);
  EXPECT_EQ(b, 0);
  EXPECT_EQ(c, 0);
}

TEST(ReaderTest, FailPoisons) {
  Reader r(kData);
  r.Fail();
  uint8_t v = 0;
  EXPECT_FALSE(r.ReadU8(&v));
  EXPECT_FALSE(r.ok());
}

TEST(ReaderTest, HugeSkipDoesNotOverflow) {
  Reader r(kData);
  ASSERT_TRUE(r.Skip(1));
  EXPECT_FALSE(r.Skip(SIZE_MAX));
  EXPECT_EQ(r.offset(), 1u);
}

}  // namespace
}  // namespace rue::wire
