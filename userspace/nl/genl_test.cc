// SPDX-License-Identifier: GPL-2.0
#include "nl/genl.h"

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include <cerrno>

#include "nl/test_messages.h"

namespace rue::nl {
namespace {

TEST(ParseGenlTest, ReadsHeaders) {
  MessageBuilder m = testing::MakeGenl(0x1a, 3, 9, NLM_F_MULTI);
  m.PutU32(1, 77);
  Result<GenlMessage> g = ParseGenl(m.bytes());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->family, 0x1a);
  EXPECT_EQ(g->flags, NLM_F_MULTI);
  EXPECT_EQ(g->cmd, 3);
  EXPECT_EQ(g->version, 1);
  EXPECT_EQ(g->attrs.size(), 8u);
}

TEST(ParseGenlTest, RejectsMissingGenlHeader) {
  MessageBuilder m(0x1a, 0);
  Result<GenlMessage> g = ParseGenl(m.bytes());
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, EBADMSG);
}

TEST(GenlRequestTest, BuildsRequest) {
  MessageBuilder r = GenlRequest(0x1a, 5, 2);
  EXPECT_EQ(r.header()->nlmsg_type, 0x1a);
  EXPECT_EQ(r.header()->nlmsg_flags, NLM_F_REQUEST);
  Result<GenlMessage> g = ParseGenl(r.bytes());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->cmd, 5);
  EXPECT_EQ(g->version, 2);
  EXPECT_TRUE(g->attrs.empty());
}

MessageBuilder FamilyReply() {
  MessageBuilder m = testing::MakeGenl(GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 1);
  m.PutU16(CTRL_ATTR_FAMILY_ID, 0x22).PutString(CTRL_ATTR_FAMILY_NAME, "rue");
  m.PutU32(CTRL_ATTR_VERSION, 1).PutU32(CTRL_ATTR_MAXATTR, 12);
  MessageBuilder::Nest ops = m.BeginNest(CTRL_ATTR_OPS);
  m.PutU32(1, 1);
  m.EndNest(ops);
  return m;
}

TEST(ParseFamilyTest, ReadsFamily) {
  MessageBuilder m = FamilyReply();
  Result<GenlMessage> g = ParseGenl(m.bytes());
  ASSERT_TRUE(g.ok());
  Result<Family> f = ParseFamily(g->attrs);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->id, 0x22);
  EXPECT_EQ(f->name, "rue");
  EXPECT_EQ(f->version, 1u);
  EXPECT_EQ(f->max_attr, 12u);
}

TEST(ParseFamilyTest, RequiresId) {
  MessageBuilder m = testing::MakeGenl(GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 1);
  m.PutString(CTRL_ATTR_FAMILY_NAME, "rue");
  Result<GenlMessage> g = ParseGenl(m.bytes());
  ASSERT_TRUE(g.ok());
  Result<Family> f = ParseFamily(g->attrs);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().message, "missing attribute \"family-id\" (1)");
}

TEST(ParseFamilyTest, RejectsWideId) {
  MessageBuilder m = testing::MakeGenl(GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 1);
  m.PutU32(CTRL_ATTR_FAMILY_ID, 0x22).PutString(CTRL_ATTR_FAMILY_NAME, "rue");
  Result<GenlMessage> g = ParseGenl(m.bytes());
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(ParseFamily(g->attrs).ok());
}

}  // namespace
}  // namespace rue::nl
