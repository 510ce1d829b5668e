// SPDX-License-Identifier: GPL-2.0
//
// The "pdc" object: its messages, what "pdc show" prints, and its command
// lines.
#include "ruectl/pdc.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>

#include <array>
#include <cerrno>
#include <sstream>
#include <sys/socket.h>
#include <vector>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// The messages.

constexpr uint16_t kFamily = 0x1d;

nl::MessageBuilder Reply(uint32_t index = 0, std::string_view name = "rue0") {
  nl::MessageBuilder m =
      nl::testing::MakeGenl(kFamily, RUE_CMD_PDC_GET, 1, NLM_F_MULTI);
  m.PutU32(RUE_A_DEV_INDEX, index).PutString(RUE_A_DEV_NAME, name);
  return m;
}

nl::Bytes AsBytes(std::span<const uint8_t> bytes) {
  return std::as_bytes(bytes);
}

nl::Result<Pdc> Parse(const nl::MessageBuilder& m) {
  EXPECT_TRUE(m.ok());
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  EXPECT_TRUE(genl.ok());
  return ParsePdc(genl->attrs);
}

// A PDC nest with the given peer; `fill` adds the rest.
template <typename Fill>
nl::MessageBuilder WithPeer(uint8_t family, std::span<const uint8_t> address,
                            Fill fill) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest pdc = m.BeginNest(RUE_A_DEV_PDC);
  m.PutU16(RUE_A_PDC_LOCAL_ID, 2);
  m.PutU8(RUE_A_PDC_FAMILY, family).PutBytes(RUE_A_PDC_PEER, AsBytes(address));
  fill(m);
  m.EndNest(pdc);
  return m;
}

constexpr std::array<uint8_t, 4> kV4 = {10, 4, 0, 2};
constexpr std::array<uint8_t, 16> kV6 = {0xfd, 0, 0, 0, 0, 0, 0, 0,
                                         0,    0, 0, 0, 0, 0, 0, 2};

TEST(ParsePdcTest, ReadsAnInitiatorAsTheKernelSendsIt) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest pdc = m.BeginNest(RUE_A_DEV_PDC);
  m.PutU16(RUE_A_PDC_LOCAL_ID, 1).PutU16(RUE_A_PDC_REMOTE_ID, 5);
  m.PutU8(RUE_A_PDC_ROLE, RUE_PDC_ROLE_INITIATOR);
  m.PutU8(RUE_A_PDC_MODE, RUE_UET_MODE_RUD).PutU32(RUE_A_PDC_JOB, 42);
  m.PutU8(RUE_A_PDC_FAMILY, AF_INET).PutBytes(RUE_A_PDC_PEER, AsBytes(kV4));
  m.PutU8(RUE_A_PDC_SYN, 0).PutU8(RUE_A_PDC_CLOSING, 0);
  m.PutU32(RUE_A_PDC_QPN, 17).PutU32(RUE_A_PDC_NEXT_PSN, 105);
  m.PutU32(RUE_A_PDC_UNA_PSN, 100).PutU32(RUE_A_PDC_SRTT, 120);
  m.PutU32(RUE_A_PDC_RTO, 1000).PutU32(RUE_A_PDC_RETRIES, 0);
  m.PutU32(RUE_A_PDC_CWND, 0);
  m.EndNest(pdc);
  nl::Result<Pdc> parsed = Parse(m);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, testing::SamplePdcs()[0]);
}

TEST(ParsePdcTest, ReadsATargetWithAnIpv6Peer) {
  nl::MessageBuilder m = WithPeer(AF_INET6, kV6, [](nl::MessageBuilder& m) {
    m.PutU16(RUE_A_PDC_REMOTE_ID, 9).PutU8(RUE_A_PDC_ROLE, RUE_PDC_ROLE_TARGET);
    m.PutU8(RUE_A_PDC_MODE, RUE_UET_MODE_ROD).PutU32(RUE_A_PDC_JOB, 42);
    m.PutU32(RUE_A_PDC_RX_NEXT_PSN, 7);
  });
  nl::Result<Pdc> parsed = Parse(m);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, testing::SamplePdcs()[1]);
}

TEST(ParsePdcTest, V4MappedIpv6PeerPrintsAsGidsDo) {
  constexpr std::array<uint8_t, 16> mapped = {0, 0, 0,    0,    0,  0, 0, 0,
                                              0, 0, 0xff, 0xff, 10, 4, 0, 2};
  nl::Result<Pdc> parsed = Parse(WithPeer(AF_INET6, mapped, [](auto&) {}));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->peer, "::ffff:10.4.0.2");
}

TEST(ParsePdcTest, AbsentStaysAbsentAndUnknownAttributesAreSkipped) {
  nl::MessageBuilder m = Reply(3, "rue3");
  nl::MessageBuilder::Nest pdc = m.BeginNest(RUE_A_DEV_PDC);
  m.PutU16(RUE_A_PDC_LOCAL_ID, 65535).PutU32(RUE_A_PDC_MAX + 1, 99);
  m.EndNest(pdc);
  m.PutU32(RUE_A_DEV_MAX + 1, 1);
  nl::Result<Pdc> parsed = Parse(m);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  Pdc want;
  want.dev_index = 3;
  want.dev = "rue3";
  want.local_id = 65535;
  EXPECT_EQ(*parsed, want);
}

// Runs `m`, which must be refused as malformed; returns the message.
std::string Refused(const nl::MessageBuilder& m) {
  nl::Result<Pdc> parsed = Parse(m);
  EXPECT_FALSE(parsed.ok());
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.error().code, EBADMSG);
  return parsed.error().message;
}

TEST(ParsePdcTest, MissingOrMalformed) {
  EXPECT_NE(Refused(Reply()).find("dev-pdc"), std::string::npos);

  nl::MessageBuilder no_id = Reply();
  nl::MessageBuilder::Nest pdc = no_id.BeginNest(RUE_A_DEV_PDC);
  no_id.PutU32(RUE_A_PDC_JOB, 1);
  no_id.EndNest(pdc);
  EXPECT_NE(Refused(no_id).find("pdc-local-id"), std::string::npos);

  // a u32 where the kernel sends a u16
  nl::MessageBuilder wide_id = Reply();
  pdc = wide_id.BeginNest(RUE_A_DEV_PDC);
  wide_id.PutU32(RUE_A_PDC_LOCAL_ID, 1);
  wide_id.EndNest(pdc);
  EXPECT_NE(Refused(wide_id).find("pdc-local-id"), std::string::npos);
}

TEST(ParsePdcTest, PeerMustMatchItsFamily) {
  EXPECT_EQ(Refused(WithPeer(AF_INET, kV6, [](auto&) {})),
            "attribute \"pdc-peer\" (7): 16 bytes for family 2");
  EXPECT_EQ(Refused(WithPeer(AF_INET6, kV4, [](auto&) {})),
            "attribute \"pdc-peer\" (7): 4 bytes for family 10");
  EXPECT_EQ(Refused(WithPeer(AF_PACKET, kV4, [](auto&) {})),
            "attribute \"pdc-peer\" (7): 4 bytes for family 17");

  nl::MessageBuilder no_family = Reply();
  nl::MessageBuilder::Nest pdc = no_family.BeginNest(RUE_A_DEV_PDC);
  no_family.PutU16(RUE_A_PDC_LOCAL_ID, 1);
  no_family.PutBytes(RUE_A_PDC_PEER, AsBytes(kV4));
  no_family.EndNest(pdc);
  EXPECT_NE(Refused(no_family).find("go together"), std::string::npos);
}

TEST(PdcRequestTest, DumpNamesTheDeviceOrNone) {
  const nl::AttrPolicy policy[] = {
      {RUE_A_DEV_NAME, nl::AttrKind::kString, "name"},
  };
  nl::MessageBuilder one = PdcDumpRequest(kFamily, "rue1");
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(one.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_EQ(genl->cmd, RUE_CMD_PDC_GET);
  nl::Result<nl::AttrTable> attrs = nl::AttrTable::Parse(genl->attrs, policy);
  ASSERT_TRUE(attrs.ok());
  EXPECT_EQ(attrs->Str(RUE_A_DEV_NAME), "rue1");

  nl::MessageBuilder all = PdcDumpRequest(kFamily, std::nullopt);
  genl = nl::ParseGenl(all.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_TRUE(genl->attrs.empty());
}

// The names.

TEST(NamesTest, PdcRolesAndUetModes) {
  EXPECT_EQ(PdcRoleName(RUE_PDC_ROLE_INITIATOR), "initiator");
  EXPECT_EQ(PdcRoleName(RUE_PDC_ROLE_TARGET), "target");
  EXPECT_EQ(PdcRoleName(2), "UNKNOWN");
  EXPECT_EQ(UetModeName(RUE_UET_MODE_RUD), "RUD");
  EXPECT_EQ(UetModeName(RUE_UET_MODE_ROD), "ROD");
  EXPECT_EQ(UetModeName(255), "UNKNOWN");
}

// The fields.

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Pdc& pdc : testing::SamplePdcs())
    records.push_back(PdcRecord(pdc));
  return records;
}

// The initiator's send state and the target's receive state each go on a
// second line; neither shows the other's fields.
TEST(PdcFieldsTest, Text) {
  EXPECT_EQ(
      RenderText(Records(), false),
      "dev rue0 pdc 1 role initiator mode RUD peer 10.4.0.2 peer-pdc 5 "
      "job 42 qpn 17 syn no closing no\n"
      "    next-psn 105 una-psn 100 srtt-us 120 rto-us 1000 retries 0 "
      "cwnd 0\n"
      "dev rue0 pdc 2 role target mode ROD peer fd00::2 peer-pdc 9 "
      "job 42\n"
      "    rx-next-psn 7\n"
      "dev rue1 pdc 3 role initiator mode RUD peer 10.4.0.1 peer-pdc 0 "
      "job 42 qpn 20 syn yes closing no\n"
      "    next-psn 1 una-psn 0 srtt-us 0 rto-us 1000 retries 0 cwnd 0\n");
}

TEST(PdcFieldsTest, TextDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).subspan(1, 1), true),
            "dev rue0 dev-index 0 pdc 2 role target mode ROD peer fd00::2 "
            "peer-pdc 9 job 42\n"
            "    rx-next-psn 7\n");
}

TEST(PdcFieldsTest, Json) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).first(2), false, false),
            "[{\"dev\":\"rue0\",\"pdc\":1,\"role\":\"initiator\","
            "\"mode\":\"RUD\",\"peer\":\"10.4.0.2\",\"peer-pdc\":5,"
            "\"job\":42,\"qpn\":17,\"syn\":false,\"closing\":false,"
            "\"next-psn\":105,\"una-psn\":100,\"srtt-us\":120,"
            "\"rto-us\":1000,\"retries\":0,\"cwnd\":0},"
            "{\"dev\":\"rue0\",\"pdc\":2,\"role\":\"target\",\"mode\":\"ROD\","
            "\"peer\":\"fd00::2\",\"peer-pdc\":9,\"job\":42,"
            "\"rx-next-psn\":7}]\n");
}

TEST(PdcFieldsTest, OnlyTheIdAndUnknownEnums) {
  Pdc pdc;
  pdc.dev = "rue1";
  pdc.dev_index = 1;
  pdc.local_id = 65535;
  Record bare = PdcRecord(pdc);
  EXPECT_EQ(RenderText(std::span(&bare, 1), false), "dev rue1 pdc 65535\n");
  pdc.role = 2;
  pdc.mode = 9;
  Record odd = PdcRecord(pdc);
  EXPECT_EQ(RenderJson(std::span(&odd, 1), false, false),
            "[{\"dev\":\"rue1\",\"pdc\":65535,\"role\":\"UNKNOWN\","
            "\"mode\":\"UNKNOWN\"}]\n");
}

// The command.

class PdcTest : public testing::ObjectTest {
 protected:
  PdcTest() : ObjectTest("pdc") {}
};

constexpr char kRue1Pdcs[] =
    "dev rue1 pdc 3 role initiator mode RUD peer 10.4.0.1 peer-pdc 0 job 42 "
    "qpn 20 syn yes closing no\n"
    "    next-psn 1 una-psn 0 srtt-us 0 rto-us 1000 retries 0 cwnd 0\n";

TEST_F(PdcTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), kRue1Pdcs);
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(PdcTest, ShowIsTheDefaultAndCoversEveryDeviceInOneRequest) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_TRUE(out_.str().starts_with("dev rue0 pdc 1 role initiator "))
      << out_.str();
  EXPECT_NE(out_.str().find("dev rue0 pdc 2 role target "), std::string::npos);
  EXPECT_TRUE(out_.str().ends_with(kRue1Pdcs)) << out_.str();
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(PdcTest, DeviceWithoutPdcs) {
  testing::FakeBackend backend(testing::SampleDevices(), testing::SampleCc(),
                               testing::SampleQps(), {testing::SampleCcPrio3()},
                               testing::SampleJobs(), {});
  ASSERT_TRUE(Run({"show", "rue0"}, backend).ok());
  EXPECT_EQ(out_.str(), "");
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue0"}, backend).ok());
  EXPECT_EQ(out_.str(), "[]\n");
}

TEST_F(PdcTest, Json) {
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(),
            "[{\"dev\":\"rue1\",\"pdc\":3,\"role\":\"initiator\","
            "\"mode\":\"RUD\",\"peer\":\"10.4.0.1\",\"peer-pdc\":0,"
            "\"job\":42,\"qpn\":20,\"syn\":true,\"closing\":false,"
            "\"next-psn\":1,\"una-psn\":0,\"srtt-us\":0,\"rto-us\":1000,"
            "\"retries\":0,\"cwnd\":0}]\n");
}

TEST_F(PdcTest, Errors) {
  EXPECT_EQ(Fails({"show", "rue9"}, ENODEV), "device \"rue9\" not found");
  EXPECT_EQ(Fails({"show", "rue0", "1"}, EINVAL), "unexpected argument \"1\"");
  EXPECT_EQ(Fails({"frob"}, EINVAL),
            "unknown command \"frob\"; try \"ruectl pdc help\"");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(PdcTest, ModuleNotLoadedOrTooOld) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  EXPECT_EQ(Fails({}, ENOENT), kModuleNotLoaded);
  backend_.FailWith({EOPNOTSUPP, ""});
  EXPECT_EQ(Fails({"show", "rue0"}, EOPNOTSUPP),
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(PdcTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl pdc [ ")) << out_.str();
  EXPECT_NE(out_.str().find("\nExamples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

}  // namespace
}  // namespace rue::cli
