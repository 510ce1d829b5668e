// SPDX-License-Identifier: GPL-2.0
#include "nl/ack.h"

#include <gtest/gtest.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include <cerrno>

#include "nl/test_messages.h"

namespace rue::nl {
namespace {

using testing::MakeAck;
using testing::MakeDone;

TEST(ParseAckTest, ZeroIsAck) {
  EXPECT_TRUE(ParseAck(MakeAck(0, 1).bytes()).ok());
}

TEST(ParseAckTest, AckWithWarningIsStillOk) {
  EXPECT_TRUE(ParseAck(MakeAck(0, 1, "just so you know").bytes()).ok());
}

TEST(ParseAckTest, ErrorWithoutExtack) {
  Status s = ParseAck(MakeAck(-EPERM, 1).bytes());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EPERM);
  EXPECT_EQ(s.error().message, "");
  EXPECT_EQ(s.error().ToString(), "Operation not permitted");
}

TEST(ParseAckTest, ErrorWithExtackMessage) {
  Status s = ParseAck(MakeAck(-ENODEV, 1, "no such rue device").bytes());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "no such rue device");
}

TEST(ParseAckTest, FindsExtackAfterEchoedRequest) {
  Status s = ParseAck(MakeAck(-EINVAL, 1, "bad index", /*echo=*/true).bytes());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
  EXPECT_EQ(s.error().message, "bad index");
}

TEST(ParseAckTest, PositiveErrnoAccepted) {
  Status s = ParseAck(MakeAck(ENOENT, 1).bytes());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENOENT);
}

TEST(ParseAckTest, TruncatedIsBadMessage) {
  MessageBuilder ack = MakeAck(-EPERM, 1);
  Status s = ParseAck(ack.bytes().first(MNL_NLMSG_HDRLEN + 4));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EBADMSG);
}

TEST(ParseAckTest, BogusEchoLengthLeavesErrnoAlone) {
  MessageBuilder ack = MakeAck(-EPERM, 1, "lost", /*echo=*/true);
  auto* err = static_cast<nlmsgerr*>(mnl_nlmsg_get_payload(ack.header()));
  err->msg.nlmsg_len = 4000;  // claims an echo far past the end
  Status s = ParseAck(ack.bytes());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EPERM);
  EXPECT_EQ(s.error().message, "");
}

TEST(ParseDoneTest, ZeroIsOk) {
  EXPECT_TRUE(ParseDone(MakeDone(0, 1).bytes()).ok());
}

TEST(ParseDoneTest, EmptyDoneIsOk) {
  MessageBuilder done(NLMSG_DONE, NLM_F_MULTI);
  EXPECT_TRUE(ParseDone(done.bytes()).ok());
}

TEST(ParseDoneTest, CarriesDumpError) {
  Status s = ParseDone(MakeDone(-EMSGSIZE, 1, "device too large").bytes());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EMSGSIZE);
  EXPECT_EQ(s.error().message, "device too large");
}

}  // namespace
}  // namespace rue::nl
