// SPDX-License-Identifier: GPL-2.0
//
// The "qp" object: its message, its names, what "qp show" prints, and its
// command lines.
#include "ruectl/qp.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <sstream>
#include <vector>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// The message.

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
  m.PutU32(RUE_A_QP_CWND, 128);
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

// The names.

TEST(NamesTest, QpTypes) {
  EXPECT_EQ(QpTypeName(0), "SMI");
  EXPECT_EQ(QpTypeName(1), "GSI");
  EXPECT_EQ(QpTypeName(2), "RC");
  EXPECT_EQ(QpTypeName(3), "UC");
  EXPECT_EQ(QpTypeName(4), "UD");
  EXPECT_EQ(QpTypeName(8), "RAW_PACKET");
  EXPECT_EQ(QpTypeName(10), "XRC_TGT");
  EXPECT_EQ(QpTypeName(7), "UNKNOWN");
  EXPECT_EQ(QpTypeName(11), "UNKNOWN");
  EXPECT_EQ(QpTypeName(255), "UNKNOWN");
}

TEST(NamesTest, QpStates) {
  EXPECT_EQ(QpStateName(0), "RESET");
  EXPECT_EQ(QpStateName(1), "INIT");
  EXPECT_EQ(QpStateName(2), "RTR");
  EXPECT_EQ(QpStateName(3), "RTS");
  EXPECT_EQ(QpStateName(4), "SQD");
  EXPECT_EQ(QpStateName(5), "SQE");
  EXPECT_EQ(QpStateName(6), "ERR");
  EXPECT_EQ(QpStateName(7), "UNKNOWN");
}

// The fields.

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Qp& qp : testing::SampleQps()) records.push_back(QpRecord(qp));
  return records;
}

TEST(QpFieldsTest, Text) {
  EXPECT_EQ(RenderText(Records(), false),
            "dev rue0 qpn 1 type GSI state RTS prio 0 dscp 0\n"
            "dev rue0 qpn 17 type RC state RTS dest-qpn 18 prio 3 dscp 26 "
            "limited yes rate 12500 target 18750 alpha 512 cnp-sent 0 "
            "cnp-handled 4 ecn-marked 0 tx-bytes 1234567 cwnd 128\n");
}

TEST(QpFieldsTest, TextDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).first(1), true),
            "dev rue0 dev-index 0 qpn 1 type GSI state RTS prio 0 dscp 0\n");
}

TEST(QpFieldsTest, Json) {
  EXPECT_EQ(RenderJson(Records(), false, false),
            "[{\"dev\":\"rue0\",\"qpn\":1,\"type\":\"GSI\",\"state\":\"RTS\","
            "\"prio\":0,\"dscp\":0},"
            "{\"dev\":\"rue0\",\"qpn\":17,\"type\":\"RC\",\"state\":\"RTS\","
            "\"dest-qpn\":18,\"prio\":3,\"dscp\":26,\"limited\":true,"
            "\"rate\":12500,\"target\":18750,\"alpha\":512,\"cnp-sent\":0,"
            "\"cnp-handled\":4,\"ecn-marked\":0,\"tx-bytes\":1234567,"
            "\"cwnd\":128}]\n");
}

TEST(QpFieldsTest, JsonPrettyDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).first(1), true, true),
            "[\n"
            "    {\n"
            "        \"dev\": \"rue0\",\n"
            "        \"dev-index\": 0,\n"
            "        \"qpn\": 1,\n"
            "        \"type\": \"GSI\",\n"
            "        \"state\": \"RTS\",\n"
            "        \"prio\": 0,\n"
            "        \"dscp\": 0\n"
            "    }\n"
            "]\n");
}

TEST(QpFieldsTest, NotLimitedAndUnknownEnums) {
  Qp qp;
  qp.dev = "rue1";
  qp.dev_index = 1;
  qp.qpn = 9;
  qp.type = 7;
  qp.state = 7;
  qp.limited = false;
  Record record = QpRecord(qp);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "dev rue1 qpn 9 type UNKNOWN state UNKNOWN limited no\n");
  EXPECT_EQ(RenderJson(std::span(&record, 1), false, false),
            "[{\"dev\":\"rue1\",\"qpn\":9,\"type\":\"UNKNOWN\","
            "\"state\":\"UNKNOWN\",\"limited\":false}]\n");
}

// The command.

class QpTest : public testing::ObjectTest {
 protected:
  QpTest() : ObjectTest("qp") {}
};

constexpr char kRue0Qps[] =
    "dev rue0 qpn 1 type GSI state RTS prio 0 dscp 0\n"
    "dev rue0 qpn 17 type RC state RTS dest-qpn 18 prio 3 dscp 26 "
    "limited yes rate 12500 target 18750 alpha 512 cnp-sent 0 "
    "cnp-handled 4 ecn-marked 0 tx-bytes 1234567 cwnd 128\n";

TEST_F(QpTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue0"}).ok());
  EXPECT_EQ(out_.str(), kRue0Qps);
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(QpTest, DeviceWithoutQps) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "");
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "[]\n");
}

TEST_F(QpTest, ShowIsTheDefaultAndCoversEveryDevice) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_EQ(out_.str(), kRue0Qps);
  EXPECT_EQ(backend_.requests(), 3);  // the devices, then each one's QPs
}

TEST_F(QpTest, EveryDeviceAsOneJsonArray) {
  Qp other = testing::SampleQps()[0];
  other.dev = "rue1";
  other.dev_index = 1;
  std::vector<Qp> qps = testing::SampleQps();
  qps.push_back(other);
  testing::FakeBackend backend(testing::SampleDevices(), testing::SampleCc(),
                               qps);
  options_.json = true;
  ASSERT_TRUE(Run({"show"}, backend).ok());
  EXPECT_TRUE(out_.str().starts_with("[{\"dev\":\"rue0\",\"qpn\":1,"));
  EXPECT_NE(out_.str().find("},{\"dev\":\"rue1\",\"qpn\":1,"),
            std::string::npos)
      << out_.str();
  EXPECT_TRUE(out_.str().ends_with("}]\n"));
}

// A backend whose second device disappears after the device list.
class VanishingBackend : public testing::FakeBackend {
 public:
  nl::Result<std::vector<Qp>> ListQps(std::string_view name) override {
    if (name == "rue1") return nl::Error{ENODEV, "no such rue device"};
    return FakeBackend::ListQps(name);
  }
};

TEST_F(QpTest, DeviceGoneMeanwhileIsSkipped) {
  VanishingBackend backend;
  ASSERT_TRUE(Run({}, backend).ok());
  EXPECT_EQ(out_.str(), kRue0Qps);
}

TEST_F(QpTest, DeviceNotFound) {
  nl::Status s = Run({"show", "rue9"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(QpTest, BackendErrorsPassThrough) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  nl::Status s = Run({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rue kernel module not loaded (modprobe rue)");
}

TEST_F(QpTest, OldModule) {
  backend_.FailWith({EOPNOTSUPP, ""});
  nl::Status s = Run({"show", "rue0"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EOPNOTSUPP);
  EXPECT_EQ(s.error().message,
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(QpTest, ExtraArgument) {
  nl::Status s = Run({"show", "rue0", "17"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unexpected argument \"17\"");
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(QpTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl qp [ ")) << out_.str();
  EXPECT_NE(out_.str().find("\nExamples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(QpTest, UnknownCommand) {
  nl::Status s = Run({"frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl qp help\"");
}

}  // namespace
}  // namespace rue::cli
