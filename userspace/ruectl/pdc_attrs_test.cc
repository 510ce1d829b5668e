// SPDX-License-Identifier: GPL-2.0
//
// PDCs on the wire: PDC_GET dump messages built here as the kernel sends
// them, and the dump request ruectl sends, read back.
#include "ruectl/pdc_attrs.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
