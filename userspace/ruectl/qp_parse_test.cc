// SPDX-License-Identifier: GPL-2.0
//
// From QP_GET dump messages built here, as the kernel would send them, to
// Qp records.
#include "ruectl/qp_parse.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>

#include <cerrno>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

constexpr uint16_t kFamily = 0x1d;

nl::MessageBuilder Message() {
  nl::MessageBuilder m =
      nl::testing::MakeGenl(kFamily, RUE_CMD_QP_GET, 1, NLM_F_MULTI);
  m.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  return m;
}

// The sample RC QP, as the kernel fills RUE_A_DEV_QP.
void PutRcQp(nl::MessageBuilder& m) {
  nl::MessageBuilder::Nest qp = m.BeginNest(RUE_A_DEV_QP);
  m.PutU32(RUE_A_QP_NUM, 17);
  m.PutU8(RUE_A_QP_TYPE, 2).PutU8(RUE_A_QP_STATE, 3);
  m.PutU32(RUE_A_QP_DEST_NUM, 18);
  m.PutU8(RUE_A_QP_PRIO, 3).PutU8(RUE_A_QP_DSCP, 26);
  m.PutU8(RUE_A_QP_CC_LIMITED, 1);
  m.PutU32(RUE_A_QP_CC_RATE, 12500).PutU32(RUE_A_QP_CC_TARGET, 18750);
  m.PutU32(RUE_A_QP_CC_ALPHA, 512);
  // nla_put_u64_64bit() pads with RUE_A_QP_PAD where needed.
  m.PutBytes(RUE_A_QP_PAD, {});
  m.PutU64(RUE_A_QP_CNP_SENT, 0).PutU64(RUE_A_QP_CNP_HANDLED, 4);
  m.PutU64(RUE_A_QP_ECN_MARKED, 0).PutU64(RUE_A_QP_TX_BYTES, 1234567);
  m.EndNest(qp);
}

nl::Result<Qp> Parse(const nl::MessageBuilder& m) {
  EXPECT_TRUE(m.ok());
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  EXPECT_TRUE(genl.ok());
  return ParseQp(genl->attrs);
}

TEST(ParseQpTest, ReadsWhatTheKernelSends) {
  nl::MessageBuilder m = Message();
  PutRcQp(m);
  nl::Result<Qp> qp = Parse(m);
  ASSERT_TRUE(qp.ok()) << qp.error().message;
  EXPECT_EQ(*qp, testing::SampleQps()[1]);
}

TEST(ParseQpTest, OnlyTheNumberIsRequired) {
  nl::MessageBuilder m = Message();
  nl::MessageBuilder::Nest nest = m.BeginNest(RUE_A_DEV_QP);
  m.PutU32(RUE_A_QP_NUM, 1);
  m.PutU8(RUE_A_QP_CC_LIMITED, 0);
  m.EndNest(nest);
  nl::Result<Qp> qp = Parse(m);
  ASSERT_TRUE(qp.ok()) << qp.error().message;
  Qp want;
  want.dev = "rue0";
  want.qpn = 1;
  want.limited = false;  // present, and no
  EXPECT_EQ(*qp, want);
}

TEST(ParseQpTest, SkipsUnknownAttributes) {
  nl::MessageBuilder m = Message();
  m.PutU32(RUE_A_DEV_MAX + 1, 9);
  nl::MessageBuilder::Nest nest = m.BeginNest(RUE_A_DEV_QP);
  m.PutU32(RUE_A_QP_MAX + 1, 9);
  m.PutU32(RUE_A_QP_NUM, 5);
  m.PutBytes(RUE_A_QP_MAX + 2, {});
  m.EndNest(nest);
  nl::Result<Qp> qp = Parse(m);
  ASSERT_TRUE(qp.ok()) << qp.error().message;
  EXPECT_EQ(qp->qpn, 5u);
}

TEST(ParseQpTest, MissingNumberIsBadMessage) {
  nl::MessageBuilder m = Message();
  nl::MessageBuilder::Nest nest = m.BeginNest(RUE_A_DEV_QP);
  m.PutU8(RUE_A_QP_TYPE, 2);
  m.EndNest(nest);
  nl::Result<Qp> qp = Parse(m);
  ASSERT_FALSE(qp.ok());
  EXPECT_EQ(qp.error().code, EBADMSG);
  EXPECT_EQ(qp.error().message, "missing attribute \"qp-num\" (1)");
}

TEST(ParseQpTest, MissingNestIsBadMessage) {
  nl::Result<Qp> qp = Parse(Message());
  ASSERT_FALSE(qp.ok());
  EXPECT_EQ(qp.error().message, "missing attribute \"dev-qp\" (14)");
}

TEST(ParseQpTest, MissingDeviceIsBadMessage) {
  nl::MessageBuilder m =
      nl::testing::MakeGenl(kFamily, RUE_CMD_QP_GET, 1, NLM_F_MULTI);
  m.PutString(RUE_A_DEV_NAME, "rue0");
  PutRcQp(m);
  nl::Result<Qp> qp = Parse(m);
  ASSERT_FALSE(qp.ok());
  EXPECT_EQ(qp.error().message, "missing attribute \"dev-index\" (1)");
}

TEST(ParseQpTest, WrongCounterWidthIsBadMessage) {
  nl::MessageBuilder m = Message();
  nl::MessageBuilder::Nest nest = m.BeginNest(RUE_A_DEV_QP);
  m.PutU32(RUE_A_QP_NUM, 1);
  m.PutU32(RUE_A_QP_TX_BYTES, 1);
  m.EndNest(nest);
  nl::Result<Qp> qp = Parse(m);
  ASSERT_FALSE(qp.ok());
  EXPECT_EQ(qp.error().message,
            "attribute \"qp-tx-bytes\" (14): length 4, expected 8");
}

}  // namespace
}  // namespace rue::cli
