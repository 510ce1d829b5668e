// SPDX-License-Identifier: GPL-2.0
//
// The "dev" object: its message, built here the way kernel/netlink.c
// fills it (rue_nl_fill_dev); its names; what "dev show" prints, text and
// JSON, for the sample devices; its command lines.
#include "ruectl/dev.h"

#include <gtest/gtest.h>
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

const std::array<uint8_t, 16> kLinkLocal = {
    0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x50, 0x54, 0, 0xff, 0xfe, 0x12, 0x34, 0x56};

void PutGid(nl::MessageBuilder& m, uint32_t index, uint8_t type,
            std::span<const uint8_t> raw) {
  nl::MessageBuilder::Nest gid = m.BeginNest(RUE_A_DEV_GID);
  m.PutU32(RUE_A_GID_INDEX, index);
  m.PutBytes(RUE_A_GID_GID, std::as_bytes(raw));
  m.PutU8(RUE_A_GID_TYPE, type);
  m.EndNest(gid);
}

void PutScalars(nl::MessageBuilder& m) {
  m.PutU32(RUE_A_DEV_INDEX, 3).PutString(RUE_A_DEV_NAME, "rue0");
  m.PutU32(RUE_A_DEV_NETDEV_IFINDEX, 2)
      .PutString(RUE_A_DEV_NETDEV_NAME, "eth0");
  m.PutU8(RUE_A_DEV_PORT_STATE, 4).PutU8(RUE_A_DEV_PHYS_STATE, 5);
  m.PutU32(RUE_A_DEV_ACTIVE_MTU, 1024).PutU32(RUE_A_DEV_NETDEV_MTU, 1500);
  // nla_put_u64_64bit() pads with RUE_A_DEV_PAD where needed.
  m.PutBytes(RUE_A_DEV_PAD, {});
  m.PutU64(RUE_A_DEV_NODE_GUID, 0x525400fffe123456ull);
}

nl::MessageBuilder KernelMessage() {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  PutScalars(m);
  nl::MessageBuilder::Nest gids = m.BeginNest(RUE_A_DEV_GIDS);
  PutGid(m, 0, RUE_GID_TYPE_ROCE_V1, kLinkLocal);
  PutGid(m, 1, RUE_GID_TYPE_ROCE_V2, kLinkLocal);
  m.EndNest(gids);
  return m;
}

nl::Result<Device> Parse(const nl::MessageBuilder& m) {
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  EXPECT_TRUE(genl.ok());
  return ParseDevice(genl->attrs);
}

TEST(ParseDeviceTest, ReadsWhatTheKernelSends) {
  nl::MessageBuilder m = KernelMessage();
  ASSERT_TRUE(m.ok());
  nl::Result<Device> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->index, 3u);
  EXPECT_EQ(d->name, "rue0");
  EXPECT_EQ(d->netdev_index, 2u);
  EXPECT_EQ(d->netdev, "eth0");
  EXPECT_EQ(d->port_state, 4);
  EXPECT_EQ(d->phys_state, 5);
  EXPECT_EQ(d->active_mtu, 1024u);
  EXPECT_EQ(d->netdev_mtu, 1500u);
  EXPECT_EQ(d->node_guid, 0x525400fffe123456ull);
  ASSERT_EQ(d->gids.size(), 2u);
  EXPECT_EQ(d->gids[1].index, 1u);
  EXPECT_EQ(d->gids[1].raw, kLinkLocal);
  EXPECT_EQ(d->gids[1].type, RUE_GID_TYPE_ROCE_V2);
}

TEST(ParseDeviceTest, NoGidTableIsEmpty) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  PutScalars(m);
  nl::Result<Device> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_TRUE(d->gids.empty());
}

TEST(ParseDeviceTest, SkipsUnknownAttributes) {
  nl::MessageBuilder m = KernelMessage();
  m.PutU32(RUE_A_DEV_MAX + 5, 1);  // from a newer kernel
  nl::Result<Device> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->gids.size(), 2u);
}

TEST(ParseDeviceTest, MissingNameIsBadMessage) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  m.PutU32(RUE_A_DEV_INDEX, 3);
  nl::Result<Device> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, EBADMSG);
  EXPECT_EQ(d.error().message, "missing attribute \"dev-name\" (2)");
}

TEST(ParseDeviceTest, WrongMtuWidthIsBadMessage) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  m.PutU16(RUE_A_DEV_ACTIVE_MTU, 1024);
  PutScalars(m);  // the first, short MTU is still checked
  nl::Result<Device> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message,
            "attribute \"dev-active-mtu\" (7): length 2, expected 4");
}

TEST(ParseDeviceTest, ShortGidIsBadMessage) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  PutScalars(m);
  nl::MessageBuilder::Nest gids = m.BeginNest(RUE_A_DEV_GIDS);
  PutGid(m, 0, RUE_GID_TYPE_ROCE_V2, std::span(kLinkLocal).first(15));
  m.EndNest(gids);
  nl::Result<Device> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message,
            "attribute \"gid-gid\" (2): length 15, expected 16");
}

TEST(ParseDeviceTest, GidWithoutTypeIsBadMessage) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  PutScalars(m);
  nl::MessageBuilder::Nest gids = m.BeginNest(RUE_A_DEV_GIDS);
  nl::MessageBuilder::Nest gid = m.BeginNest(RUE_A_DEV_GID);
  m.PutU32(RUE_A_GID_INDEX, 0);
  m.PutBytes(RUE_A_GID_GID, std::as_bytes(std::span(kLinkLocal)));
  m.EndNest(gid);
  m.EndNest(gids);
  nl::Result<Device> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, "missing attribute \"gid-type\" (3)");
}

TEST(ParseDeviceTest, TruncatedMessageIsBadMessage) {
  nl::MessageBuilder m = KernelMessage();
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  ASSERT_TRUE(genl.ok());
  // Cut the last GID's type attribute in half.
  nl::Result<Device> d = ParseDevice(genl->attrs.first(genl->attrs.size() - 6));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, EBADMSG);
}

TEST(ParseDeviceTest, IgnoresForeignEntriesInGidTable) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_DEV_GET, 1);
  PutScalars(m);
  nl::MessageBuilder::Nest gids = m.BeginNest(RUE_A_DEV_GIDS);
  m.PutU32(RUE_A_DEV_GID + 1, 7);
  PutGid(m, 4, RUE_GID_TYPE_IB, kLinkLocal);
  m.EndNest(gids);
  nl::Result<Device> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  ASSERT_EQ(d->gids.size(), 1u);
  EXPECT_EQ(d->gids[0].index, 4u);
}

// The names.

TEST(NamesTest, PortStates) {
  EXPECT_EQ(PortStateName(1), "DOWN");
  EXPECT_EQ(PortStateName(2), "INIT");
  EXPECT_EQ(PortStateName(3), "ARMED");
  EXPECT_EQ(PortStateName(4), "ACTIVE");
  EXPECT_EQ(PortStateName(5), "ACTIVE_DEFER");
  EXPECT_EQ(PortStateName(0), "UNKNOWN");
  EXPECT_EQ(PortStateName(6), "UNKNOWN");
  EXPECT_EQ(PortStateName(255), "UNKNOWN");
}

TEST(NamesTest, PhysStates) {
  EXPECT_EQ(PhysStateName(3), "DISABLED");
  EXPECT_EQ(PhysStateName(5), "LINK_UP");
  EXPECT_EQ(PhysStateName(7), "PHY_TEST");
  EXPECT_EQ(PhysStateName(0), "UNKNOWN");
  EXPECT_EQ(PhysStateName(8), "UNKNOWN");
}

TEST(NamesTest, GidTypes) {
  EXPECT_EQ(GidTypeName(0), "IB");
  EXPECT_EQ(GidTypeName(1), "RoCEv1");
  EXPECT_EQ(GidTypeName(2), "RoCEv2");
  EXPECT_EQ(GidTypeName(3), "UNKNOWN");
}

TEST(NamesTest, Guid) {
  EXPECT_EQ(FormatGuid(0x525400fffe123456ull), "5254:00ff:fe12:3456");
  EXPECT_EQ(FormatGuid(0), "0000:0000:0000:0000");
  EXPECT_EQ(FormatGuid(~0ull), "ffff:ffff:ffff:ffff");
}

// The fields.

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Device& d : testing::SampleDevices())
    records.push_back(DeviceRecord(d));
  return records;
}

TEST(DevFieldsTest, Text) {
  EXPECT_EQ(RenderText(Records(), false),
            "0: rue0: netdev eth0 port-state ACTIVE phys-state LINK_UP "
            "active-mtu 1024 netdev-mtu 1500 node-guid 5254:00ff:fe12:3456\n"
            "    0: gid fe80::5054:ff:fe12:3456 type RoCEv1\n"
            "    1: gid fe80::5054:ff:fe12:3456 type RoCEv2\n"
            "    2: gid ::ffff:192.0.2.1 type RoCEv2\n"
            "1: rue1: netdev eth1 port-state DOWN phys-state DISABLED "
            "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n");
}

TEST(DevFieldsTest, TextDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).subspan(1), true),
            "1: rue1: netdev eth1 netdev-index 3 port-state DOWN phys-state "
            "DISABLED active-mtu 4096 netdev-mtu 9000 "
            "node-guid 5254:00ff:fe65:4321\n");
}

TEST(DevFieldsTest, Json) {
  EXPECT_EQ(
      RenderJson(Records(), false, false),
      "[{\"index\":0,\"name\":\"rue0\",\"netdev\":\"eth0\","
      "\"port-state\":\"ACTIVE\",\"phys-state\":\"LINK_UP\","
      "\"active-mtu\":1024,\"netdev-mtu\":1500,"
      "\"node-guid\":\"5254:00ff:fe12:3456\",\"gids\":["
      "{\"index\":0,\"gid\":\"fe80::5054:ff:fe12:3456\",\"type\":\"RoCEv1\"},"
      "{\"index\":1,\"gid\":\"fe80::5054:ff:fe12:3456\",\"type\":\"RoCEv2\"},"
      "{\"index\":2,\"gid\":\"::ffff:192.0.2.1\",\"type\":\"RoCEv2\"}]},"
      "{\"index\":1,\"name\":\"rue1\",\"netdev\":\"eth1\","
      "\"port-state\":\"DOWN\",\"phys-state\":\"DISABLED\","
      "\"active-mtu\":4096,\"netdev-mtu\":9000,"
      "\"node-guid\":\"5254:00ff:fe65:4321\",\"gids\":[]}]\n");
}

TEST(DevFieldsTest, JsonPrettyDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).subspan(1), true, true),
            "[\n"
            "    {\n"
            "        \"index\": 1,\n"
            "        \"name\": \"rue1\",\n"
            "        \"netdev\": \"eth1\",\n"
            "        \"netdev-index\": 3,\n"
            "        \"port-state\": \"DOWN\",\n"
            "        \"phys-state\": \"DISABLED\",\n"
            "        \"active-mtu\": 4096,\n"
            "        \"netdev-mtu\": 9000,\n"
            "        \"node-guid\": \"5254:00ff:fe65:4321\",\n"
            "        \"gids\": []\n"
            "    }\n"
            "]\n");
}

TEST(DevFieldsTest, UnknownEnumsPrintUnknown) {
  Device d = testing::SampleDevices()[1];
  d.port_state = 9;
  d.phys_state = 0;
  d.gids = {{0, {}, 7}};
  Record record = DeviceRecord(d);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "1: rue1: netdev eth1 port-state UNKNOWN phys-state UNKNOWN "
            "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n"
            "    0: gid :: type UNKNOWN\n");
}

// The command.

class DevTest : public testing::ObjectTest {
 protected:
  DevTest() : ObjectTest("dev") {}
};

TEST_F(DevTest, ShowIsTheDefault) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_TRUE(out_.str().starts_with("0: rue0: netd")) << out_.str();
  EXPECT_NE(out_.str().find("\n1: rue1: "), std::string::npos);
}

TEST_F(DevTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(),
            "1: rue1: netdev eth1 port-state DOWN phys-state DISABLED "
            "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n");
}

TEST_F(DevTest, ShowOneDeviceJson) {
  options_.json = true;
  ASSERT_TRUE(Run({"s", "rue1"}).ok());
  EXPECT_TRUE(out_.str().starts_with("[{\"index\":1,\"name\":\"rue1\",\"netd"))
      << out_.str();
}

TEST_F(DevTest, DeviceNotFound) {
  nl::Status s = Run({"show", "rue9"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(DevTest, BackendErrorsPassThrough) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  nl::Status s = Run({"show", "rue0"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rue kernel module not loaded (modprobe rue)");
}

TEST_F(DevTest, EmptyNameIsNotAll) {
  nl::Status s = Run({"show", ""});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "device \"\" not found");
}

TEST_F(DevTest, ExtraArgument) {
  nl::Status s = Run({"show", "rue0", "rue1"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unexpected argument \"rue1\"");
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(DevTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl dev [ ")) << out_.str();
  EXPECT_NE(out_.str().find("Examples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(DevTest, UnknownCommand) {
  nl::Status s = Run({"frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl dev help\"");
}

}  // namespace
}  // namespace rue::cli
