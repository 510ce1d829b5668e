// SPDX-License-Identifier: GPL-2.0
#include "nl/message.h"

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include <array>
#include <vector>

#include "nl/attr.h"

namespace rue::nl {
namespace {

Bytes AttrsOf(const MessageBuilder& m, size_t extra) {
  return m.bytes().subspan(MNL_NLMSG_HDRLEN + MNL_ALIGN(extra));
}

TEST(MessageBuilderTest, StartsWithHeader) {
  MessageBuilder m(0x20, NLM_F_REQUEST);
  EXPECT_EQ(m.header()->nlmsg_type, 0x20);
  EXPECT_EQ(m.header()->nlmsg_flags, NLM_F_REQUEST);
  EXPECT_EQ(m.bytes().size(), MNL_NLMSG_HDRLEN);
  EXPECT_TRUE(m.ok());
}

TEST(MessageBuilderTest, PutsAttributesInOrder) {
  MessageBuilder m(0x20, 0);
  m.PutExtraHeader<genlmsghdr>()->cmd = 7;
  m.PutU8(1, 0xab).PutU16(2, 0x1234).PutU32(3, 0xdeadbeef);
  m.PutU64(4, 0x0102030405060708ull).PutString(5, "rue0");
  std::vector<Attr> seen;
  Status walked = ForEachAttr(AttrsOf(m, GENL_HDRLEN), [&](const Attr& a) {
    seen.push_back(a);
    return Ok();
  });
  ASSERT_TRUE(walked.ok());
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_EQ(seen[0].U8(), 0xab);
  EXPECT_EQ(seen[1].U16(), 0x1234);
  EXPECT_EQ(seen[2].U32(), 0xdeadbeefu);
  EXPECT_EQ(seen[3].U64(), 0x0102030405060708ull);
  EXPECT_EQ(seen[4].Str(), "rue0");
  EXPECT_EQ(seen[4].payload().size(), 5u);  // with its NUL
}

TEST(MessageBuilderTest, NestsAttributes) {
  MessageBuilder m(0x20, 0);
  MessageBuilder::Nest outer = m.BeginNest(9);
  m.PutU32(1, 42);
  m.EndNest(outer);
  std::vector<Attr> inner;
  Status walked = ForEachAttr(AttrsOf(m, 0), [&](const Attr& a) {
    EXPECT_EQ(a.type(), 9);
    return ForEachAttr(a.payload(), [&](const Attr& b) {
      inner.push_back(b);
      return Ok();
    });
  });
  ASSERT_TRUE(walked.ok());
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0].U32(), 42u);
}

TEST(MessageBuilderTest, PutsBytes) {
  std::array<std::byte, 3> raw = {std::byte{1}, std::byte{2}, std::byte{3}};
  MessageBuilder m(0x20, 0);
  m.PutBytes(2, raw);
  Status walked = ForEachAttr(AttrsOf(m, 0), [&](const Attr& a) {
    EXPECT_EQ(a.payload().size(), 3u);
    EXPECT_EQ(a.payload()[2], std::byte{3});
    return Ok();
  });
  EXPECT_TRUE(walked.ok());
}

TEST(MessageBuilderTest, ReportsOverflow) {
  MessageBuilder m(0x20, 0, 24);
  m.PutU32(1, 1);  // 16 + 8: fits exactly
  EXPECT_TRUE(m.ok());
  m.PutU32(2, 2);
  EXPECT_FALSE(m.ok());
  EXPECT_EQ(m.bytes().size(), 24u);
}

TEST(MessageBuilderTest, ReportsOverflowOfNestAndHeader) {
  MessageBuilder nest(0x20, 0, MNL_NLMSG_HDRLEN);
  nest.EndNest(nest.BeginNest(1));
  EXPECT_FALSE(nest.ok());
  MessageBuilder extra(0x20, 0, MNL_NLMSG_HDRLEN);
  EXPECT_EQ(extra.PutExtraHeader(4), nullptr);
  EXPECT_FALSE(extra.ok());
}

}  // namespace
}  // namespace rue::nl
