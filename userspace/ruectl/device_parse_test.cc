// SPDX-License-Identifier: GPL-2.0
//
// From netlink messages built here, the way kernel/netlink.c fills them
// (rue_nl_fill_dev), to Device records.
#include "ruectl/device_parse.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <vector>

#include "nl/genl.h"
#include "nl/test_messages.h"

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
