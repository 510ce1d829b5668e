// SPDX-License-Identifier: GPL-2.0
#include "nl/attr.h"

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "nl/message.h"

namespace rue::nl {
namespace {

enum : uint16_t { kIndex = 1, kName = 2, kGid = 3, kList = 4, kUnknown = 9 };

constexpr AttrPolicy kPolicy[] = {
    {kIndex, AttrKind::kU32, "index", true},
    {kName, AttrKind::kString, "name"},
    {kGid, AttrKind::kBinary, "gid", false, 16},
    {kList, AttrKind::kNested, "list"},
};

// Raw attribute bytes: a header claiming `len`, then `payload` bytes.
std::vector<std::byte> RawAttr(uint16_t len, uint16_t type,
                               std::vector<uint8_t> payload) {
  nlattr nla{len, type};
  std::vector<std::byte> out(sizeof(nla));
  std::memcpy(out.data(), &nla, sizeof(nla));
  for (uint8_t b : payload) out.push_back(std::byte{b});
  out.resize(MNL_ALIGN(out.size()));
  return out;
}

// The attributes of a message built with MessageBuilder.
std::vector<std::byte> AttrsOf(const MessageBuilder& m) {
  Bytes all = m.bytes().subspan(MNL_NLMSG_HDRLEN);
  return std::vector<std::byte>(all.begin(), all.end());
}

std::vector<std::byte> Good() {
  MessageBuilder m(0x20, 0);
  m.PutU32(kIndex, 7).PutString(kName, "rue0").PutU8(kUnknown, 1);
  return AttrsOf(m);
}

TEST(AttrTest, ReadsScalarsZeroExtended) {
  std::vector<std::byte> payload = {std::byte{0x34}, std::byte{0x12}};
  Attr attr(5, payload);
  EXPECT_EQ(attr.U16(), 0x1234);
  EXPECT_EQ(attr.U32(), 0x1234u);  // short payload: zero-extended
  EXPECT_EQ(attr.U8(), 0x34);
  EXPECT_EQ(Attr(5, {}).U64(), 0u);
}

TEST(AttrTest, StrStopsAtNul) {
  std::vector<std::byte> payload = {std::byte{'a'}, std::byte{0},
                                    std::byte{'b'}};
  EXPECT_EQ(Attr(1, payload).Str(), "a");
  EXPECT_EQ(Attr(1, Bytes(payload).first(1)).Str(), "a");
}

TEST(ForEachAttrTest, VisitsInOrder) {
  std::vector<std::byte> data = Good();
  std::vector<uint16_t> types;
  Status s = ForEachAttr(data, [&](const Attr& a) {
    types.push_back(a.type());
    return Ok();
  });
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(types, (std::vector<uint16_t>{kIndex, kName, kUnknown}));
}

TEST(ForEachAttrTest, EmptyIsOk) {
  EXPECT_TRUE(ForEachAttr({}, [](const Attr&) { return Ok(); }).ok());
}

TEST(ForEachAttrTest, StopsAtVisitorError) {
  std::vector<std::byte> data = Good();
  int calls = 0;
  Status s = ForEachAttr(data, [&](const Attr&) -> Status {
    ++calls;
    return Error{EIO, "stop"};
  });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EIO);
  EXPECT_EQ(calls, 1);
}

TEST(ForEachAttrTest, MasksNestedFlag) {
  std::vector<std::byte> data = RawAttr(4, NLA_F_NESTED | kList, {});
  Status s = ForEachAttr(data, [](const Attr& a) {
    EXPECT_EQ(a.type(), kList);
    return Ok();
  });
  EXPECT_TRUE(s.ok());
}

TEST(ForEachAttrTest, RejectsTruncatedHeader) {
  std::vector<std::byte> data = Good();
  data.resize(data.size() + 2);  // half an attribute header at the end
  Status s = ForEachAttr(data, [](const Attr&) { return Ok(); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EBADMSG);
  EXPECT_EQ(s.error().message, "truncated attribute at offset 28");
}

TEST(ForEachAttrTest, RejectsLengthPastEnd) {
  std::vector<std::byte> data = RawAttr(12, kIndex, {1, 0, 0, 0});
  Status s = ForEachAttr(data, [](const Attr&) { return Ok(); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EBADMSG);
}

TEST(ForEachAttrTest, RejectsLengthBelowHeader) {
  std::vector<std::byte> data = RawAttr(2, kIndex, {0, 0, 0, 0});
  EXPECT_FALSE(ForEachAttr(data, [](const Attr&) { return Ok(); }).ok());
}

TEST(ForEachAttrTest, RejectsMisalignedSpan) {
  std::vector<std::byte> data(12);
  Status s =
      ForEachAttr(Bytes(data).subspan(1, 8), [](const Attr&) { return Ok(); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
}

TEST(AttrTableTest, IndexesByType) {
  std::vector<std::byte> data = Good();
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->U32(kIndex), 7u);
  EXPECT_EQ(t->Str(kName), "rue0");
  EXPECT_FALSE(t->Has(kGid));
  EXPECT_FALSE(t->Has(kUnknown));  // not in the policy: skipped
  EXPECT_EQ(t->U32(kGid, 99), 99u);
  EXPECT_TRUE(t->Payload(kGid).empty());
}

TEST(AttrTableTest, LastRepeatWins) {
  MessageBuilder m(0x20, 0);
  m.PutU32(kIndex, 1).PutU32(kIndex, 2);
  std::vector<std::byte> data = AttrsOf(m);
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->U32(kIndex), 2u);
}

TEST(AttrTableTest, RejectsMissingRequired) {
  MessageBuilder m(0x20, 0);
  m.PutString(kName, "rue0");
  std::vector<std::byte> data = AttrsOf(m);
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, EBADMSG);
  EXPECT_EQ(t.error().message, "missing attribute \"index\" (1)");
}

TEST(AttrTableTest, RejectsWrongScalarLength) {
  MessageBuilder m(0x20, 0);
  m.PutU16(kIndex, 7);  // u32 expected
  std::vector<std::byte> data = AttrsOf(m);
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, "attribute \"index\" (1): length 2, expected 4");
}

TEST(AttrTableTest, RejectsUnterminatedString) {
  std::vector<std::byte> data = RawAttr(4 + 3, kName, {'r', 'u', 'e'});
  std::vector<std::byte> index = RawAttr(8, kIndex, {1, 0, 0, 0});
  data.insert(data.end(), index.begin(), index.end());
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message,
            "attribute \"name\" (2): string is not NUL-terminated");
}

TEST(AttrTableTest, ChecksBinaryLength) {
  std::vector<std::byte> gid(15);
  MessageBuilder m(0x20, 0);
  m.PutU32(kIndex, 1).PutBytes(kGid, gid);
  std::vector<std::byte> data = AttrsOf(m);
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, "attribute \"gid\" (3): length 15, expected 16");
}

TEST(AttrTableTest, ChecksNestFraming) {
  std::vector<std::byte> inner = RawAttr(40, kIndex, {1, 0, 0, 0});
  std::vector<uint8_t> payload;
  for (std::byte b : inner) payload.push_back(static_cast<uint8_t>(b));
  std::vector<std::byte> data =
      RawAttr(static_cast<uint16_t>(4 + payload.size()), kList, payload);
  std::vector<std::byte> index = RawAttr(8, kIndex, {1, 0, 0, 0});
  data.insert(data.end(), index.begin(), index.end());
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message,
            "attribute \"list\" (4): truncated attribute at offset 0");
}

TEST(AttrTableTest, RejectsTruncatedRun) {
  std::vector<std::byte> data = Good();
  data.resize(data.size() - 6);  // cut into the last attribute
  Result<AttrTable> t = AttrTable::Parse(data, kPolicy);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, EBADMSG);
}

}  // namespace
}  // namespace rue::nl
