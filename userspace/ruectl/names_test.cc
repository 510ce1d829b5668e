// SPDX-License-Identifier: GPL-2.0
#include "ruectl/names.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>

namespace rue::cli {
namespace {

std::array<uint8_t, 16> Gid(std::initializer_list<uint16_t> words) {
  std::array<uint8_t, 16> gid{};
  size_t i = 0;
  for (uint16_t w : words) {
    gid[i++] = w >> 8;
    gid[i++] = w & 0xff;
  }
  return gid;
}

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

TEST(NamesTest, PdcRolesAndUetModes) {
  EXPECT_EQ(PdcRoleName(RUE_PDC_ROLE_INITIATOR), "initiator");
  EXPECT_EQ(PdcRoleName(RUE_PDC_ROLE_TARGET), "target");
  EXPECT_EQ(PdcRoleName(2), "UNKNOWN");
  EXPECT_EQ(UetModeName(RUE_UET_MODE_RUD), "RUD");
  EXPECT_EQ(UetModeName(RUE_UET_MODE_ROD), "ROD");
  EXPECT_EQ(UetModeName(255), "UNKNOWN");
}

TEST(NamesTest, Guid) {
  EXPECT_EQ(FormatGuid(0x525400fffe123456ull), "5254:00ff:fe12:3456");
  EXPECT_EQ(FormatGuid(0), "0000:0000:0000:0000");
  EXPECT_EQ(FormatGuid(~0ull), "ffff:ffff:ffff:ffff");
}

TEST(NamesTest, GidCompressesLongestZeroRun) {
  EXPECT_EQ(FormatGid(Gid({0xfe80, 0, 0, 0, 0x5054, 0xff, 0xfe12, 0x3456})),
            "fe80::5054:ff:fe12:3456");
  EXPECT_EQ(FormatGid(Gid({})), "::");
  EXPECT_EQ(FormatGid(Gid({0, 0, 0, 0, 0, 0, 0, 1})), "::1");
  EXPECT_EQ(FormatGid(Gid({1, 0, 0, 0, 0, 0, 0, 0})), "1::");
  EXPECT_EQ(FormatGid(Gid({1, 0, 0, 2, 0, 0, 0, 3})), "1:0:0:2::3");
  EXPECT_EQ(FormatGid(Gid({1, 0, 0, 2, 0, 0, 3, 4})), "1::2:0:0:3:4");
}

TEST(NamesTest, GidDoesNotCompressOneZero) {
  EXPECT_EQ(FormatGid(Gid({0x2001, 0xdb8, 0, 1, 1, 1, 1, 1})),
            "2001:db8:0:1:1:1:1:1");
  EXPECT_EQ(FormatGid(Gid({0x2001, 0xdb8, 1, 2, 3, 4, 5, 6})),
            "2001:db8:1:2:3:4:5:6");
}

TEST(NamesTest, GidIpv4Mapped) {
  EXPECT_EQ(FormatGid(Gid({0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201})),
            "::ffff:192.0.2.1");
  // Only ::ffff:0:0/96 is written with a dotted quad.
  EXPECT_EQ(FormatGid(Gid({0, 0, 0, 0, 0, 0, 0xc000, 0x0201})), "::c000:201");
}

}  // namespace
}  // namespace rue::cli
