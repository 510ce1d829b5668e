// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/writer.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "rue/wire/reader.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::Bytes;

TEST(WriterTest, WritesBigEndian) {
  std::array<std::byte, 18> buf{};
  Writer w(buf);
  EXPECT_TRUE(w.WriteU8(0x01));
  EXPECT_TRUE(w.WriteU16(0x0203));
  EXPECT_TRUE(w.WriteU24(0x040506));
  EXPECT_TRUE(w.WriteU32(0x0708090a));
  EXPECT_TRUE(w.WriteU64(0x0b0c0d0e0f101112ull));
  EXPECT_TRUE(w.ok());
  EXPECT_EQ(w.length(), 18u);
  EXPECT_EQ(w.remaining(), 0u);
  for (std::size_t i = 0; i < buf.size(); ++i) {
    EXPECT_EQ(buf[i], static_cast<std::byte>(i + 1)) << i;
  }
}

TEST(WriterTest, WriteU32LeIsLittleEndian) {
  std::array<std::byte, 4> buf{};
  Writer w(buf);
  ASSERT_TRUE(w.WriteU32Le(0x04030201));
  EXPECT_EQ(buf, (std::array<std::byte, 4>{std::byte{1}, std::byte{2},
                                            std::byte{3}, std::byte{4}}));
}

TEST(WriterTest, WriteBytesAndRepeated) {
  std::array<std::byte, 6> buf{};
  Writer w(buf);
  const std::vector<std::byte> src = Bytes({0xaa, 0xbb});
  ASSERT_TRUE(w.WriteBytes(src));
  ASSERT_TRUE(w.WriteRepeated(3, std::byte{0xcc}));
  ASSERT_TRUE(w.WriteBytes({}));
  EXPECT_EQ(w.length(), 5u);
  EXPECT_EQ(buf[0], std::byte{0xaa});
  EXPECT_EQ(buf[1], std::byte{0xbb});
  EXPECT_EQ(buf[4], std::byte{0xcc});
  EXPECT_EQ(buf[5], std::byte{0x00});
}

TEST(WriterTest, RoundTripsThroughReader) {
  std::array<std::byte, 22> buf{};
  Writer w(buf);
  w.WriteU8(0xfe);
  w.WriteU16(0xfedc);
  w.WriteU24(0xfedcba);
  w.WriteU32(0xfedcba98);
  w.WriteU64(0xfedcba9876543210ull);
  w.WriteU32Le(0x89abcdef);
  ASSERT_TRUE(w.ok());
  Reader r(w.Written());
  uint8_t a = 0;
  uint16_t b = 0;
  uint32_t c = 0, d = 0, f = 0;
  uint64_t e = 0;
  r.ReadU8(&a);
  r.ReadU16(&b);
  r.ReadU24(&c);
  r.ReadU32(&d);
  r.ReadU64(&e);
  r.ReadU32Le(&f);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.AtEnd());
  EXPECT_EQ(a, 0xfe);
  EXPECT_EQ(b, 0xfedc);
  EXPECT_EQ(c, 0xfedcbau);
  EXPECT_EQ(d, 0xfedcba98u);
  EXPECT_EQ(e, 0xfedcba9876543210ull);
  EXPECT_EQ(f, 0x89abcdefu);
}

TEST(WriterTest, WriteU24RejectsValuesOver24Bits) {
  std::array<std::byte, 8> buf{};
  Writer w(buf);
  EXPECT_TRUE(w.WriteU24(0xFFFFFF));
  EXPECT_FALSE(w.WriteU24(0x1000000));
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.length(), 3u);
}

TEST(WriterTest, BufferTooSmallForEachMethod) {
  struct Case {
    const char* name;
    std::size_t size;
    bool (*write)(Writer&);
  };
  const Case cases[] = {
      {"WriteU8", 1, [](Writer& w) { return w.WriteU8(0xff); }},
      {"WriteU16", 2, [](Writer& w) { return w.WriteU16(0xffff); }},
      {"WriteU24", 3, [](Writer& w) { return w.WriteU24(0xffffff); }},
      {"WriteU32", 4, [](Writer& w) { return w.WriteU32(0xffffffff); }},
      {"WriteU32Le", 4, [](Writer& w) { return w.WriteU32Le(0xffffffff); }},
      {"WriteU64", 8, [](Writer& w) { return w.WriteU64(~0ull); }},
      {"WriteBytes", 5, [](Writer& w) {
         const std::array<std::byte, 5> src = {
             std::byte{0xff}, std::byte{0xff}, std::byte{0xff},
             std::byte{0xff}, std::byte{0xff}};
         return w.WriteBytes(src);
       }},
      {"WriteRepeated", 5,
       [](Writer& w) { return w.WriteRepeated(5, std::byte{0xff}); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::array<std::byte, 8> buf{};
    {
      Writer w(std::span<std::byte>(buf).first(c.size));
      EXPECT_TRUE(c.write(w));
      EXPECT_EQ(w.length(), c.size);
    }
    buf.fill(std::byte{0});
    {
      Writer w(std::span<std::byte>(buf).first(c.size - 1));
      EXPECT_FALSE(c.write(w));
      EXPECT_FALSE(w.ok());
      EXPECT_EQ(w.length(), 0u);
      EXPECT_EQ(w.remaining(), 0u);
      // Nothing was written, not even a prefix.
      for (std::byte b : buf) EXPECT_EQ(b, std::byte{0});
    }
  }
}

TEST(WriterTest, EveryWriteFailsAfterTheFirstFailure) {
  std::array<std::byte, 8> buf{};
  Writer w(buf);
  ASSERT_TRUE(w.WriteU32(1));
  EXPECT_FALSE(w.WriteU64(2));  // 4 bytes of room, 8 wanted
  EXPECT_EQ(w.length(), 4u);
  EXPECT_FALSE(w.WriteU8(3));
  EXPECT_FALSE(w.WriteU16(3));
  EXPECT_FALSE(w.WriteU24(3));
  EXPECT_FALSE(w.WriteU32(3));
  EXPECT_FALSE(w.WriteU32Le(3));
  EXPECT_FALSE(w.WriteBytes({}));
  EXPECT_FALSE(w.WriteRepeated(0, std::byte{0}));
  EXPECT_FALSE(w.ok());
  EXPECT_EQ(w.length(), 4u);
  EXPECT_EQ(buf[4], std::byte{0});
}

TEST(WriterTest, FailPoisons) {
  std::array<std::byte, 4> buf{};
  Writer w(buf);
  w.Fail();
  EXPECT_FALSE(w.WriteU8(1));
  EXPECT_EQ(buf[0], std::byte{0});
}

TEST(WriterTest, WrittenAllowsPatching) {
  std::array<std::byte, 8> buf{};
  Writer w(buf);
  w.WriteU16(0);  // placeholder
  w.WriteU32(0xdeadbeef);
  ASSERT_EQ(w.Written().size(), 6u);
  Writer patch(w.Written().first(2));
  ASSERT_TRUE(patch.WriteU16(0x0006));
  EXPECT_EQ(buf[1], std::byte{0x06});
  EXPECT_EQ(buf[2], std::byte{0xde});
}

}  // namespace
}  // namespace rue::wire
