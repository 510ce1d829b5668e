// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Ethernet, IP and UDP plumbing: headers, checksums, ParseUdpFrame and the
// frame-writing helpers.
#include "rue/wire/udp_frame.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "rue/wire/ethernet.h"
#include "rue/wire/ip.h"
#include "rue/wire/reader.h"
#include "rue/wire/udp.h"
#include "rue/wire/writer.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::Bytes;

TEST(InternetChecksumTest, Rfc1071Example) {
  // RFC 1071 section 3: the sum of these words is 0xddf2.
  InternetChecksum sum;
  sum.Add(Bytes({0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}));
  EXPECT_EQ(sum.Value(), static_cast<uint16_t>(~0xddf2));
}

TEST(InternetChecksumTest, OddPiecesCarryOver) {
  const std::vector<std::byte> data =
      Bytes({0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7, 0x12});
  InternetChecksum whole;
  whole.Add(data);
  for (std::size_t split = 0; split <= data.size(); ++split) {
    InternetChecksum pieces;
    pieces.Add(std::span<const std::byte>(data).first(split));
    pieces.Add(std::span<const std::byte>(data).subspan(split));
    EXPECT_EQ(pieces.Value(), whole.Value()) << split;
  }
}

TEST(Ipv4HeaderTest, RoundTripAndChecksum) {
  // From the rc_send_only_v4 golden (scapy): checksum 0xa477.
  const std::vector<std::byte> bytes =
      Bytes({0x45, 0x02, 0x00, 0x3c, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11,
             0xa4, 0x77, 0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02});
  Reader r(bytes);
  std::optional<Ipv4Header> h = Ipv4Header::Parse(r);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->version, 4);
  EXPECT_EQ(h->ihl, 5);
  EXPECT_EQ(h->tos, 0x02);
  EXPECT_EQ(h->total_length, 60);
  EXPECT_EQ(h->identification, 0x1234);
  EXPECT_EQ(h->flags, Ipv4Header::kFlagDontFragment);
  EXPECT_EQ(h->fragment_offset, 0);
  EXPECT_EQ(h->ttl, 64);
  EXPECT_EQ(h->protocol, kIpProtocolUdp);
  EXPECT_EQ(h->header_checksum, 0xa477);
  EXPECT_EQ(h->src, (Ipv4Address{192, 0, 2, 1}));
  EXPECT_EQ(h->ComputeChecksum(), 0xa477);

  std::array<std::byte, Ipv4Header::kSize> out{};
  Writer w(out);
  ASSERT_TRUE(h->Write(w));
  EXPECT_TRUE(std::equal(out.begin(), out.end(), bytes.begin()));

  for (std::size_t n = 0; n < Ipv4Header::kSize; ++n) {
    Reader short_reader(std::span<const std::byte>(bytes).first(n));
    EXPECT_FALSE(Ipv4Header::Parse(short_reader)) << n;
  }
}

TEST(Ipv4HeaderTest, WriteRefusesOptionsAndWideFields) {
  std::array<std::byte, 64> buf{};
  Ipv4Header h;
  h.ihl = 6;
  Writer w1(buf);
  EXPECT_FALSE(h.Write(w1));
  h = Ipv4Header();
  h.fragment_offset = 0x2000;
  Writer w2(buf);
  EXPECT_FALSE(h.Write(w2));
  h = Ipv4Header();
  h.flags = 8;
  Writer w3(buf);
  EXPECT_FALSE(h.Write(w3));
}

TEST(Ipv6HeaderTest, RoundTrip) {
  Ipv6Header h;
  h.traffic_class = 0x68;
  h.flow_label = 0x12345;
  h.payload_length = 0x0102;
  h.hop_limit = 7;
  h.src[15] = 1;
  h.dst[15] = 2;
  std::array<std::byte, Ipv6Header::kSize> buf{};
  Writer w(buf);
  ASSERT_TRUE(h.Write(w));
  EXPECT_EQ(buf[0], std::byte{0x66});
  EXPECT_EQ(buf[1], std::byte{0x81});
  EXPECT_EQ(buf[2], std::byte{0x23});
  EXPECT_EQ(buf[3], std::byte{0x45});
  EXPECT_EQ(buf[6], std::byte{17});
  EXPECT_EQ(buf[7], std::byte{7});
  Reader r(buf);
  EXPECT_EQ(Ipv6Header::Parse(r), h);

  h.flow_label = 0x100000;
  Writer w2(buf);
  EXPECT_FALSE(h.Write(w2));
}

TEST(EthernetHeaderTest, UntaggedRoundTrip) {
  const std::vector<std::byte> bytes =
      Bytes({0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x86, 0xdd});
  Reader r(bytes);
  std::optional<EthernetHeader> h = EthernetHeader::Parse(r);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->dst, (MacAddress{2, 0, 0, 0, 0, 2}));
  EXPECT_EQ(h->src, (MacAddress{2, 0, 0, 0, 0, 1}));
  EXPECT_EQ(h->vlan_count, 0);
  EXPECT_EQ(h->ethertype, kEtherTypeIpv6);
  EXPECT_EQ(h->WireSize(), 14u);
  std::array<std::byte, 14> out{};
  Writer w(out);
  ASSERT_TRUE(h->Write(w));
  EXPECT_TRUE(std::equal(out.begin(), out.end(), bytes.begin()));
}

TEST(EthernetHeaderTest, TwoTagsRoundTrip) {
  const std::vector<std::byte> bytes =
      Bytes({0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x88, 0xa8, 0xb0,
             0x0a, 0x81, 0x00, 0x60, 0x64, 0x08, 0x00});
  Reader r(bytes);
  std::optional<EthernetHeader> h = EthernetHeader::Parse(r);
  ASSERT_TRUE(h);
  ASSERT_EQ(h->vlan_count, 2);
  EXPECT_EQ(h->vlan_tags[0].tpid, kEtherTypeQinQ);
  EXPECT_EQ(h->vlan_tags[0].pcp, 5);
  EXPECT_TRUE(h->vlan_tags[0].dei);
  EXPECT_EQ(h->vlan_tags[0].vid, 10);
  EXPECT_EQ(h->vlan_tags[1].tpid, kEtherTypeVlan);
  EXPECT_EQ(h->vlan_tags[1].pcp, 3);
  EXPECT_FALSE(h->vlan_tags[1].dei);
  EXPECT_EQ(h->vlan_tags[1].vid, 100);
  EXPECT_EQ(h->ethertype, kEtherTypeIpv4);
  EXPECT_EQ(h->WireSize(), bytes.size());
  std::vector<std::byte> out(bytes.size());
  Writer w(out);
  ASSERT_TRUE(h->Write(w));
  EXPECT_EQ(out, bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    Reader short_reader(std::span<const std::byte>(bytes).first(n));
    EXPECT_FALSE(EthernetHeader::Parse(short_reader)) << n;
  }
}

// A UDP frame with a 10-byte payload, built with the frame helpers.
std::vector<std::byte> MakeFrame(bool ethernet, bool ipv6,
                                 UdpChecksumMode mode) {
  UdpFrameSpec spec;
  if (ethernet) {
    spec.eth.emplace();
    spec.eth->dst = {2, 0, 0, 0, 0, 2};
    spec.eth->src = {2, 0, 0, 0, 0, 1};
  }
  if (ipv6) {
    Ipv6Header h;
    h.src[0] = 0x20;
    h.src[15] = 1;
    h.dst[0] = 0x20;
    h.dst[15] = 2;
    spec.ip = h;
  } else {
    Ipv4Header h;
    h.src = {192, 0, 2, 1};
    h.dst = {192, 0, 2, 2};
    spec.ip = h;
  }
  spec.udp.src_port = 1234;
  spec.udp.dst_port = 4791;
  spec.udp_checksum = mode;
  const std::vector<std::byte> payload =
      Bytes({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  std::vector<std::byte> out(UdpFrameHeadersSize(spec) + payload.size());
  Writer w(out);
  std::optional<UdpFrameOffsets> offsets =
      WriteUdpFrameHeaders(w, spec, payload.size());
  EXPECT_TRUE(offsets);
  w.WriteBytes(payload);
  EXPECT_TRUE(w.ok());
  EXPECT_EQ(w.length(), out.size());
  EXPECT_TRUE(FinishUdpFrame(out, *offsets, spec));
  return out;
}

// Recomputes the IPv4 header checksum after a test edits the header.
void FixIpv4Checksum(std::span<std::byte> ip) {
  ip[10] = ip[11] = std::byte{0};
  const std::size_t ihl = (static_cast<std::size_t>(ip[0]) & 0xF) * 4;
  InternetChecksum sum;
  sum.Add(ip.first(std::min(ihl, ip.size())));
  ip[10] = static_cast<std::byte>(sum.Value() >> 8);
  ip[11] = static_cast<std::byte>(sum.Value());
}

TEST(ParseUdpFrameTest, Ipv4OverEthernet) {
  const std::vector<std::byte> f =
      MakeFrame(true, false, UdpChecksumMode::kCompute);
  Result<UdpFrame> r = ParseUdpFrame(f, LinkType::kEthernet);
  ASSERT_TRUE(r.ok()) << r.message();
  ASSERT_TRUE(r->eth);
  EXPECT_EQ(r->eth->ethertype, kEtherTypeIpv4);
  ASSERT_TRUE(r->ipv4);
  EXPECT_FALSE(r->ipv6);
  EXPECT_EQ(r->ipv4->total_length, 20 + 8 + 10);
  EXPECT_EQ(r->udp.src_port, 1234);
  EXPECT_EQ(r->udp.dst_port, 4791);
  EXPECT_EQ(r->udp.length, 18);
  EXPECT_EQ(r->ip_packet.data(), f.data() + 14);
  EXPECT_EQ(r->ip_packet.size(), 38u);
  EXPECT_EQ(r->udp_payload.size(), 10u);
  EXPECT_EQ(r->udp_payload[0], std::byte{1});
  EXPECT_NE(r->udp.checksum, 0);
  EXPECT_EQ(ComputeUdpChecksum(r->ip_packet), r->udp.checksum);
}

TEST(ParseUdpFrameTest, Ipv6Bare) {
  const std::vector<std::byte> f =
      MakeFrame(false, true, UdpChecksumMode::kCompute);
  Result<UdpFrame> r = ParseUdpFrame(f, LinkType::kIp);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_FALSE(r->eth);
  ASSERT_TRUE(r->ipv6);
  EXPECT_EQ(r->ipv6->payload_length, 18);
  EXPECT_EQ(r->ipv6->next_header, kIpProtocolUdp);
  EXPECT_EQ(r->udp_payload.size(), 10u);
  EXPECT_EQ(ComputeUdpChecksum(r->ip_packet), r->udp.checksum);
}

TEST(ParseUdpFrameTest, ZeroUdpChecksumIsAccepted) {
  const std::vector<std::byte> f =
      MakeFrame(false, false, UdpChecksumMode::kZero);
  Result<UdpFrame> r = ParseUdpFrame(f, LinkType::kIp);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->udp.checksum, 0);
}

TEST(ParseUdpFrameTest, EthernetPaddingIsIgnored) {
  std::vector<std::byte> f = MakeFrame(true, false, UdpChecksumMode::kZero);
  const std::size_t unpadded = f.size();
  f.resize(64, std::byte{0});
  Result<UdpFrame> r = ParseUdpFrame(f, LinkType::kEthernet);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->ip_packet.size(), unpadded - 14);
  EXPECT_EQ(r->udp_payload.size(), 10u);
}

TEST(ParseUdpFrameTest, VlanTagged) {
  std::vector<std::byte> f = MakeFrame(true, true, UdpChecksumMode::kZero);
  const std::vector<std::byte> tag = Bytes({0x81, 0x00, 0x60, 0x64});
  f.insert(f.begin() + 12, tag.begin(), tag.end());
  Result<UdpFrame> r = ParseUdpFrame(f, LinkType::kEthernet);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->eth->vlan_count, 1);
  EXPECT_EQ(r->eth->vlan_tags[0].vid, 100);
  EXPECT_TRUE(r->ipv6);
}

struct Mutation {
  const char* name;
  bool ethernet;
  bool ipv6;
  void (*mutate)(std::vector<std::byte>&);
  ErrorCode want;
};

TEST(ParseUdpFrameTest, Rejections) {
  // Offsets are into the Ethernet frame when `ethernet` is set, else into
  // the bare IP packet.
  const Mutation mutations[] = {
      {"arp ethertype", true, false,
       [](std::vector<std::byte>& f) { f[12] = std::byte{0x08}; f[13] = std::byte{0x06}; },
       ErrorCode::kNotIp},
      {"three vlan tags", true, false,
       [](std::vector<std::byte>& f) {
         const std::vector<std::byte> tag = Bytes({0x81, 0x00, 0x00, 0x01});
         for (int i = 0; i < 3; ++i) f.insert(f.begin() + 12, tag.begin(), tag.end());
       },
       ErrorCode::kNotIp},
      {"ethertype v4, packet v6", true, true,
       [](std::vector<std::byte>& f) { f[12] = std::byte{0x08}; f[13] = std::byte{0x00}; },
       ErrorCode::kBadIpVersion},
      {"version 5", false, false,
       [](std::vector<std::byte>& f) { f[0] = std::byte{0x55}; },
       ErrorCode::kBadIpVersion},
      {"ihl 4", false, false,
       [](std::vector<std::byte>& f) { f[0] = std::byte{0x44}; FixIpv4Checksum(f); },
       ErrorCode::kBadIpHeaderLength},
      {"ihl past the end", false, false,
       [](std::vector<std::byte>& f) { f[0] = std::byte{0x4f}; },
       ErrorCode::kTruncated},
      {"total length < header", false, false,
       [](std::vector<std::byte>& f) { f[2] = std::byte{0}; f[3] = std::byte{19}; FixIpv4Checksum(f); },
       ErrorCode::kBadIpLength},
      {"total length > bytes", false, false,
       [](std::vector<std::byte>& f) { f[3] = static_cast<std::byte>(static_cast<int>(f[3]) + 1); FixIpv4Checksum(f); },
       ErrorCode::kTruncated},
      {"bad checksum", false, false,
       [](std::vector<std::byte>& f) { f[11] ^= std::byte{1}; },
       ErrorCode::kBadIpChecksum},
      {"more fragments", false, false,
       [](std::vector<std::byte>& f) { f[6] = std::byte{0x20}; FixIpv4Checksum(f); },
       ErrorCode::kIpFragment},
      {"fragment offset", false, false,
       [](std::vector<std::byte>& f) { f[7] = std::byte{0x01}; FixIpv4Checksum(f); },
       ErrorCode::kIpFragment},
      {"tcp", false, false,
       [](std::vector<std::byte>& f) { f[9] = std::byte{6}; FixIpv4Checksum(f); },
       ErrorCode::kNotUdp},
      {"udp length short", false, false,
       [](std::vector<std::byte>& f) { f[20 + 5] = std::byte{17}; },
       ErrorCode::kBadUdpLength},
      {"udp length long", false, false,
       [](std::vector<std::byte>& f) { f[20 + 5] = std::byte{19}; },
       ErrorCode::kBadUdpLength},
      {"udp length below 8", false, true,
       [](std::vector<std::byte>& f) { f[40 + 5] = std::byte{7}; },
       ErrorCode::kBadUdpLength},
      {"ipv6 hop-by-hop", false, true,
       [](std::vector<std::byte>& f) { f[6] = std::byte{0}; },
       ErrorCode::kNotUdp},
      {"ipv6 jumbogram", false, true,
       [](std::vector<std::byte>& f) { f[4] = f[5] = std::byte{0}; },
       ErrorCode::kBadIpLength},
      {"ipv6 payload length > bytes", false, true,
       [](std::vector<std::byte>& f) { f[5] = std::byte{19}; },
       ErrorCode::kTruncated},
      {"ipv6 payload too short for udp", false, true,
       [](std::vector<std::byte>& f) { f[5] = std::byte{7}; },
       ErrorCode::kTruncated},
  };
  for (const Mutation& m : mutations) {
    SCOPED_TRACE(m.name);
    std::vector<std::byte> f = MakeFrame(m.ethernet, m.ipv6,
                                         UdpChecksumMode::kZero);
    m.mutate(f);
    Result<UdpFrame> r = ParseUdpFrame(
        f, m.ethernet ? LinkType::kEthernet : LinkType::kIp);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.code(), m.want) << ErrorCodeName(r.code()) << ": "
                                << r.message();
    EXPECT_FALSE(r.message().empty());
  }
}

TEST(ParseUdpFrameTest, EveryTruncationIsRejected) {
  for (bool ethernet : {false, true}) {
    for (bool ipv6 : {false, true}) {
      const std::vector<std::byte> f =
          MakeFrame(ethernet, ipv6, UdpChecksumMode::kCompute);
      for (std::size_t n = 0; n < f.size(); ++n) {
        Result<UdpFrame> r =
            ParseUdpFrame(std::span<const std::byte>(f).first(n),
                          ethernet ? LinkType::kEthernet : LinkType::kIp);
        EXPECT_FALSE(r.ok()) << ethernet << ipv6 << " " << n;
        EXPECT_EQ(r.code(), ErrorCode::kTruncated)
            << ethernet << ipv6 << " " << n << " " << r.message();
      }
    }
  }
}

TEST(UdpFrameBuilderTest, RejectsOversizedPayload) {
  UdpFrameSpec spec;
  spec.ip = Ipv4Header();
  std::array<std::byte, 64> buf{};
  Writer w(buf);
  EXPECT_FALSE(WriteUdpFrameHeaders(w, spec, 0xFFFF - 8 - 20 + 1));
  Writer w6(buf);
  spec.ip = Ipv6Header();
  EXPECT_FALSE(WriteUdpFrameHeaders(w6, spec, 0xFFFF - 8 + 1));
}

TEST(UdpChecksumTest, ZeroBecomesAllOnes) {
  // Find a payload word that makes the checksum compute to zero, and check
  // that it is sent as 0xffff.
  std::vector<std::byte> f = MakeFrame(false, false, UdpChecksumMode::kZero);
  std::optional<uint16_t> base = ComputeUdpChecksum(f);
  ASSERT_TRUE(base);
  // Adding X to the sum subtracts X from the checksum (one's complement):
  // put the current checksum into the first two payload bytes (which are
  // 0x01 0x02), adjusted so that the sum becomes 0xffff.
  const uint16_t old_word = 0x0102;
  uint32_t word = static_cast<uint32_t>(*base) + old_word;
  word = (word & 0xFFFF) + (word >> 16);
  f[28] = static_cast<std::byte>(word >> 8);
  f[29] = static_cast<std::byte>(word);
  EXPECT_EQ(ComputeUdpChecksum(f), 0xFFFF);
}

}  // namespace
}  // namespace rue::wire
