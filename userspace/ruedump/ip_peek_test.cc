// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/ip_peek.h"

#include <gtest/gtest.h>

#include "ruedump/test_roce.h"

namespace rue::dump {
namespace {

using testing::Bytes;

TEST(IpPeekTest, Ipv4) {
  const Bytes ip = testing::BuildUdpIp(4793, 10);
  std::optional<IpUdpPeek> peek = PeekIpUdp(ip);
  ASSERT_TRUE(peek);
  ASSERT_TRUE(peek->ipv4);
  EXPECT_FALSE(peek->ipv6);
  EXPECT_EQ(peek->udp.src_port, 49153);
  EXPECT_EQ(peek->udp.dst_port, 4793);
}

TEST(IpPeekTest, Ipv6) {
  const Bytes ip =
      testing::BuildRoceIp(testing::SampleHeaders(0x04), 8, /*ipv6=*/true);
  std::optional<IpUdpPeek> peek = PeekIpUdp(ip);
  ASSERT_TRUE(peek);
  ASSERT_TRUE(peek->ipv6);
  EXPECT_EQ(peek->udp.dst_port, 4791);
}

TEST(IpPeekTest, ShowsWhatTheStrictParseRefuses) {
  Bytes ip = testing::BuildUdpIp(4791, 10);
  ip[10] = std::byte{0};    // IPv4 header checksum
  ip[2] = std::byte{0x7f};  // total length
  EXPECT_TRUE(PeekIpUdp(ip));
}

TEST(IpPeekTest, NotUdpOrNotIp) {
  Bytes tcp = testing::BuildUdpIp(4791, 10);
  tcp[9] = std::byte{6};
  EXPECT_FALSE(PeekIpUdp(tcp));
  Bytes v5 = testing::BuildUdpIp(4791, 10);
  v5[0] = std::byte{0x55};
  EXPECT_FALSE(PeekIpUdp(v5));
  Bytes ihl4 = testing::BuildUdpIp(4791, 10);
  ihl4[0] = std::byte{0x44};
  EXPECT_FALSE(PeekIpUdp(ihl4));
  EXPECT_FALSE(PeekIpUdp({}));
}

TEST(IpPeekTest, LaterFragmentsHaveNoUdpHeader) {
  Bytes first = testing::BuildUdpIp(4791, 10);
  first[6] = std::byte{0x20};  // MF, offset 0: still has the UDP header
  EXPECT_TRUE(PeekIpUdp(first));
  Bytes later = testing::BuildUdpIp(4791, 10);
  later[7] = std::byte{0x10};  // offset 16 * 8
  EXPECT_FALSE(PeekIpUdp(later));
}

TEST(IpPeekTest, NeedsTheWholeUdpHeader) {
  const Bytes ip = testing::BuildUdpIp(4791, 10);
  for (std::size_t n = 0; n < 28; ++n)
    EXPECT_FALSE(PeekIpUdp(std::span(ip).first(n))) << n;
  EXPECT_TRUE(PeekIpUdp(std::span(ip).first(28)));
}

}  // namespace
}  // namespace rue::dump
