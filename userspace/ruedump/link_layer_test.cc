// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/link_layer.h"

#include <gtest/gtest.h>
#include <pcap/dlt.h>

#include "ruedump/test_pcap.h"
#include "ruedump/test_roce.h"

namespace rue::dump {
namespace {

using testing::Bytes;

const Bytes& Ip() {
  static const Bytes ip = testing::BuildUdpIp(4791, 4);
  return ip;
}

bool IsIp(const Link& link) {
  return link.network.size() == Ip().size() &&
         std::equal(link.network.begin(), link.network.end(), Ip().begin());
}

TEST(LinkLayerTest, Dlts) {
  EXPECT_EQ(LinkTypeFromDlt(DLT_EN10MB), LinkType::kEthernet);
  EXPECT_EQ(LinkTypeFromDlt(DLT_RAW), LinkType::kRawIp);
  EXPECT_EQ(LinkTypeFromDlt(DLT_IPV4), LinkType::kIpv4);
  EXPECT_EQ(LinkTypeFromDlt(DLT_IPV6), LinkType::kIpv6);
  EXPECT_EQ(LinkTypeFromDlt(DLT_LINUX_SLL), LinkType::kLinuxSll);
  EXPECT_EQ(LinkTypeFromDlt(DLT_LINUX_SLL2), LinkType::kLinuxSll2);
  EXPECT_FALSE(LinkTypeFromDlt(DLT_NULL));
  EXPECT_FALSE(LinkTypeFromDlt(DLT_IEEE802_11));
  EXPECT_EQ(LinkTypeName(LinkType::kLinuxSll2), "LINUX_SLL2");
}

TEST(LinkLayerTest, Ethernet) {
  const Bytes frame = testing::WrapEthernet(Ip());
  std::optional<Link> link = ParseLink(LinkType::kEthernet, frame);
  ASSERT_TRUE(link);
  ASSERT_TRUE(link->eth);
  EXPECT_FALSE(link->cooked);
  EXPECT_EQ(link->vlan_count, 0);
  EXPECT_EQ(link->ethertype, wire::kEtherTypeIpv4);
  EXPECT_TRUE(link->CarriesIp());
  EXPECT_TRUE(IsIp(*link));
}

TEST(LinkLayerTest, EthernetTwoTags) {
  const Bytes frame = testing::WrapEthernet(
      Ip(), {wire::VlanTag{wire::kEtherTypeQinQ, 5, true, 100},
             wire::VlanTag{wire::kEtherTypeVlan, 3, false, 200}});
  std::optional<Link> link = ParseLink(LinkType::kEthernet, frame);
  ASSERT_TRUE(link);
  ASSERT_EQ(link->vlan_count, 2);
  EXPECT_EQ(link->vlan_tags[0],
            (wire::VlanTag{wire::kEtherTypeQinQ, 5, true, 100}));
  EXPECT_EQ(link->vlan_tags[1],
            (wire::VlanTag{wire::kEtherTypeVlan, 3, false, 200}));
  EXPECT_TRUE(link->CarriesIp());
  EXPECT_TRUE(IsIp(*link));
}

TEST(LinkLayerTest, EthernetThreeTagsIsNotIp) {
  const wire::VlanTag tag{wire::kEtherTypeVlan, 0, false, 1};
  const Bytes frame = testing::WrapEthernet(Ip(), {tag, tag, tag});
  std::optional<Link> link = ParseLink(LinkType::kEthernet, frame);
  ASSERT_TRUE(link);
  EXPECT_FALSE(link->CarriesIp());
}

TEST(LinkLayerTest, Cooked) {
  for (int version : {1, 2}) {
    const Bytes frame = testing::WrapCooked(version, Ip());
    std::optional<Link> link = ParseLink(
        version == 1 ? LinkType::kLinuxSll : LinkType::kLinuxSll2, frame);
    ASSERT_TRUE(link) << version;
    ASSERT_TRUE(link->cooked);
    EXPECT_EQ(link->cooked->version, version);
    EXPECT_EQ(link->cooked->packet_type, 4);
    EXPECT_EQ(link->cooked->arphrd_type, 1);
    EXPECT_EQ(link->cooked->ifindex, version == 2 ? 7u : 0u);
    EXPECT_EQ(link->cooked->address_length, 6);
    EXPECT_EQ(link->cooked->address[5], 0x01);
    EXPECT_EQ(link->ethertype, wire::kEtherTypeIpv4);
    EXPECT_TRUE(IsIp(*link));
  }
}

TEST(LinkLayerTest, CookedWithVlanTag) {
  const Bytes frame = testing::WrapCooked(
      2, Ip(), {wire::VlanTag{wire::kEtherTypeVlan, 3, false, 100}});
  std::optional<Link> link = ParseLink(LinkType::kLinuxSll2, frame);
  ASSERT_TRUE(link);
  ASSERT_EQ(link->vlan_count, 1);
  EXPECT_EQ(link->vlan_tags[0].vid, 100);
  EXPECT_EQ(link->vlan_tags[0].pcp, 3);
  EXPECT_EQ(link->ethertype, wire::kEtherTypeIpv4);
  EXPECT_TRUE(IsIp(*link));
}

TEST(LinkLayerTest, RawIp) {
  for (LinkType type : {LinkType::kRawIp, LinkType::kIpv4, LinkType::kIpv6}) {
    std::optional<Link> link = ParseLink(type, Ip());
    ASSERT_TRUE(link);
    EXPECT_TRUE(link->CarriesIp());
    EXPECT_TRUE(IsIp(*link));
  }
  EXPECT_FALSE(ParseLink(LinkType::kRawIp, Ip())->ethertype);
  EXPECT_EQ(ParseLink(LinkType::kIpv4, Ip())->ethertype, wire::kEtherTypeIpv4);
  EXPECT_EQ(ParseLink(LinkType::kIpv6, Ip())->ethertype, wire::kEtherTypeIpv6);
}

TEST(LinkLayerTest, EveryTruncatedHeaderIsRefused) {
  for (LinkType type :
       {LinkType::kEthernet, LinkType::kLinuxSll, LinkType::kLinuxSll2}) {
    const Bytes frame = testing::Wrap(type, Ip());
    const std::size_t header = frame.size() - Ip().size();
    for (std::size_t n = 0; n < header; ++n) {
      EXPECT_FALSE(ParseLink(type, std::span(frame).first(n)))
          << LinkTypeName(type) << " " << n;
    }
    EXPECT_TRUE(ParseLink(type, std::span(frame).first(header)));
  }
}

}  // namespace
}  // namespace rue::dump
