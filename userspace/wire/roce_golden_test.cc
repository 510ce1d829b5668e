// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Golden RoCEv2 packets encoded by scapy (see roce_goldens.h and
// tools/gen_roce_goldens.py): the parser must find the fields scapy was
// told to encode, the ICRC must verify, the builder must reproduce the
// bytes, and corrupting or truncating them must be caught cleanly.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "roce_goldens.h"
#include "rue/wire/icrc.h"
#include "rue/wire/ip.h"
#include "rue/wire/reader.h"
#include "rue/wire/roce_builder.h"
#include "rue/wire/roce_packet.h"
#include "rue/wire/udp.h"
#include "rue/wire/udp_frame.h"
#include "test_util.h"

namespace rue::wire::testing {

void PrintTo(const RoceGolden& g, std::ostream* os) { *os << g.name; }

namespace {

class RoceGoldenTest : public ::testing::TestWithParam<RoceGolden> {
 protected:
  const RoceGolden& golden() const { return GetParam(); }
  std::vector<std::byte> bytes() const { return ToBytes(golden().bytes); }
  std::size_t ip_offset() const {
    return golden().eth ? golden().eth->WireSize() : 0;
  }
  // The IP packet part of the golden.
  std::vector<std::byte> ip_packet() const {
    std::vector<std::byte> b = bytes();
    b.erase(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(ip_offset()));
    return b;
  }
  std::size_t ip_header_length() const {
    return golden().ipv4 ? golden().ipv4->HeaderLength() : Ipv6Header::kSize;
  }
  uint8_t ip_version() const { return golden().ipv4 ? 4 : 6; }
};

TEST_P(RoceGoldenTest, ParsesToExpectedFields) {
  const RoceGolden& g = golden();
  SCOPED_TRACE(g.scapy);
  const std::vector<std::byte> in = bytes();
  Result<RoceFrame> r = ParseRoceFrame(in, g.link);
  ASSERT_TRUE(r.ok()) << ErrorCodeName(r.code()) << ": " << r.message();

  EXPECT_EQ(r->frame.eth, g.eth);
  EXPECT_EQ(r->frame.ipv4, g.ipv4);
  EXPECT_EQ(r->frame.ipv6, g.ipv6);
  EXPECT_EQ(r->frame.udp, g.udp);
  EXPECT_EQ(r->frame.ip_packet.size(), in.size() - ip_offset());

  const RocePacket& p = r->roce;
  EXPECT_EQ(p.headers.bth, g.roce.bth);
  EXPECT_EQ(p.headers.reth, g.roce.reth);
  EXPECT_EQ(p.headers.aeth, g.roce.aeth);
  EXPECT_EQ(p.headers.deth, g.roce.deth);
  EXPECT_EQ(p.headers.imm_dt, g.roce.imm_dt);
  EXPECT_EQ(p.headers.ieth, g.roce.ieth);
  EXPECT_EQ(p.headers.atomic_eth, g.roce.atomic_eth);
  EXPECT_EQ(p.headers.atomic_ack_eth, g.roce.atomic_ack_eth);
  EXPECT_EQ(p.headers.cnp_reserved, g.roce.cnp_reserved);
  EXPECT_EQ(p.headers, g.roce);
  EXPECT_EQ(ToU8(p.payload), g.payload);
  EXPECT_EQ(p.pad_count, g.pad_count);
  EXPECT_EQ(p.pad.size(), g.pad_count);
  EXPECT_EQ(p.icrc, g.icrc);
  EXPECT_EQ(r->icrc_ok, g.icrc_ok);
}

TEST_P(RoceGoldenTest, IcrcVerdict) {
  const RoceGolden& g = golden();
  const std::vector<std::byte> ip = ip_packet();
  EXPECT_EQ(VerifyIcrc(ip), g.icrc_ok);
  EXPECT_EQ(ReadIcrc(ip), g.icrc);
  if (g.icrc_ok) {
    EXPECT_EQ(ComputeIcrc(ip), g.icrc);
  }
}

TEST_P(RoceGoldenTest, UdpChecksumAgreesWithScapy) {
  const RoceGolden& g = golden();
  if (g.udp_checksum == UdpChecksumMode::kZero) {
    EXPECT_EQ(g.udp.checksum, 0);
    return;
  }
  EXPECT_EQ(ComputeUdpChecksum(ip_packet()), g.udp.checksum);
}

TEST_P(RoceGoldenTest, BuilderReproducesTheBytes) {
  const RoceGolden& g = golden();
  if (!g.buildable) GTEST_SKIP() << g.description;
  RocePacketSpec spec;
  spec.frame.eth = g.eth;
  if (g.ipv4) {
    spec.frame.ip = *g.ipv4;
  } else {
    spec.frame.ip = *g.ipv6;
  }
  spec.frame.udp = g.udp;
  spec.frame.udp_checksum = g.udp_checksum;
  spec.headers = g.roce;
  const std::vector<std::byte> payload = ToBytes(g.payload);
  spec.payload = payload;
  Result<std::vector<std::byte>> built = BuildRocePacket(spec);
  ASSERT_TRUE(built.ok()) << built.message();
  if (g.icrc_ok) {
    EXPECT_EQ(ToU8(*built), g.bytes) << g.scapy;
    return;
  }
  // The golden carries a wrong ICRC; the builder writes the right one.
  ASSERT_EQ(built->size(), g.bytes.size());
  const std::size_t icrc_at = g.bytes.size() - kIcrcSize;
  EXPECT_TRUE(std::equal(g.bytes.begin(),
                         g.bytes.begin() + static_cast<std::ptrdiff_t>(icrc_at),
                         ToU8(*built).begin()));
  Reader r(std::span<const std::byte>(*built).subspan(icrc_at));
  uint32_t icrc = 0;
  ASSERT_TRUE(r.ReadU32Le(&icrc));
  EXPECT_EQ(icrc, ComputeIcrc(ip_packet()));
  EXPECT_NE(icrc, g.icrc);
}

// Flipping any bit the ICRC covers must make verification fail.
TEST_P(RoceGoldenTest, FlippingAnyCoveredBitBreaksTheIcrc) {
  if (!golden().icrc_ok) GTEST_SKIP() << "the golden's ICRC is wrong anyway";
  const std::vector<std::byte> ip = ip_packet();
  ASSERT_TRUE(VerifyIcrc(ip));
  int flips = 0;
  for (std::size_t i = 0; i < ip.size(); ++i) {
    const bool is_icrc = i >= ip.size() - kIcrcSize;
    const uint8_t covered = is_icrc
        ? 0xFF
        : static_cast<uint8_t>(
              ~IcrcMaskedBits(ip_version(), ip_header_length(), i));
    for (int bit = 0; bit < 8; ++bit) {
      const uint8_t m = static_cast<uint8_t>(1u << bit);
      if ((covered & m) == 0) continue;
      std::vector<std::byte> bad = ip;
      bad[i] ^= static_cast<std::byte>(m);
      EXPECT_FALSE(VerifyIcrc(bad)) << "byte " << i << " bit " << bit;
      ++flips;
    }
    // And the whole byte.
    if (covered != 0) {
      std::vector<std::byte> bad = ip;
      bad[i] ^= static_cast<std::byte>(covered);
      EXPECT_FALSE(VerifyIcrc(bad)) << "byte " << i;
    }
  }
  EXPECT_GT(flips, static_cast<int>(8 * (ip.size() - 8)));
}

// Flipping the masked fields (TOS/TTL/checksum or traffic class/flow
// label/hop limit, UDP checksum, BTH FECN/BECN/Resv6) must not.
TEST_P(RoceGoldenTest, FlippingMaskedFieldsKeepsTheIcrc) {
  if (!golden().icrc_ok) GTEST_SKIP() << "the golden's ICRC is wrong anyway";
  const std::vector<std::byte> ip = ip_packet();
  int masked_bytes = 0;
  for (std::size_t i = 0; i + kIcrcSize < ip.size(); ++i) {
    const uint8_t mask = IcrcMaskedBits(ip_version(), ip_header_length(), i);
    if (mask == 0) continue;
    ++masked_bytes;
    std::vector<std::byte> changed = ip;
    changed[i] ^= static_cast<std::byte>(mask);
    EXPECT_TRUE(VerifyIcrc(changed)) << "byte " << i;

    // The frame parser agrees once the IPv4 header checksum is redone
    // (it is itself a masked field).
    if (ip_version() == 4) {
      changed[10] = changed[11] = std::byte{0};
      InternetChecksum sum;
      sum.Add(std::span<const std::byte>(changed).first(ip_header_length()));
      changed[10] = static_cast<std::byte>(sum.Value() >> 8);
      changed[11] = static_cast<std::byte>(sum.Value());
    }
    Result<RoceFrame> r = ParseRoceFrame(changed, LinkType::kIp);
    ASSERT_TRUE(r.ok()) << "byte " << i << ": " << r.message();
    EXPECT_TRUE(r->icrc_ok) << "byte " << i;
  }
  // IPv4: TOS, TTL, 2 checksum; IPv6: 4 + hop limit; then UDP 2 + BTH 1.
  EXPECT_EQ(masked_bytes, ip_version() == 4 ? 7 : 8);
}

TEST_P(RoceGoldenTest, EveryTruncationIsRejected) {
  const RoceGolden& g = golden();
  const std::vector<std::byte> in = bytes();
  for (std::size_t n = 0; n < in.size(); ++n) {
    // A copy of exactly n bytes, so that sanitizers catch any over-read.
    const std::vector<std::byte> cut(in.begin(),
                                     in.begin() + static_cast<std::ptrdiff_t>(n));
    Result<RoceFrame> r = ParseRoceFrame(cut, g.link);
    EXPECT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.code(), ErrorCode::kTruncated) << n << ": " << r.message();
  }
}

// The bare transport parser on truncated UDP payloads: a shorter payload
// can be a valid packet in its own right, but every answer must stay inside
// the input.
TEST_P(RoceGoldenTest, TruncatedUdpPayloadsAreSafe) {
  const std::vector<std::byte> in = bytes();
  Result<RoceFrame> full = ParseRoceFrame(in, golden().link);
  ASSERT_TRUE(full.ok());
  const std::span<const std::byte> udp_payload = full->frame.udp_payload;
  for (std::size_t n = 0; n <= udp_payload.size(); ++n) {
    const std::vector<std::byte> cut(udp_payload.begin(),
                                     udp_payload.begin() +
                                         static_cast<std::ptrdiff_t>(n));
    Result<RocePacket> r = ParseRoce(cut);
    if (!r.ok()) {
      EXPECT_NE(r.code(), ErrorCode::kOk);
      EXPECT_FALSE(r.message().empty());
      continue;
    }
    const std::byte* begin = cut.data();
    const std::byte* end = cut.data() + cut.size();
    EXPECT_GE(r->payload.data(), begin);
    EXPECT_LE(r->payload.data() + r->payload.size(), end - kIcrcSize);
    EXPECT_EQ(r->payload.size() + r->pad.size() +
                  r->opcode_info->HeaderSize() + kIcrcSize,
              n);
  }
}

// Random corruption: never a crash or an out-of-bounds answer.
TEST_P(RoceGoldenTest, RandomCorruptionIsHandled) {
  std::mt19937 rng(0x5eed);
  const std::vector<std::byte> in = bytes();
  for (int iter = 0; iter < 2000; ++iter) {
    std::vector<std::byte> mutated = in;
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      mutated[rng() % mutated.size()] = static_cast<std::byte>(rng());
    }
    if (rng() % 4 == 0) mutated.resize(rng() % (mutated.size() + 1));
    Result<RoceFrame> r = ParseRoceFrame(mutated, golden().link);
    if (r.ok()) {
      EXPECT_GE(r->frame.ip_packet.data(), mutated.data());
      EXPECT_LE(r->frame.ip_packet.data() + r->frame.ip_packet.size(),
                mutated.data() + mutated.size());
      EXPECT_LE(r->roce.payload.data() + r->roce.payload.size(),
                mutated.data() + mutated.size());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Scapy, RoceGoldenTest, ::testing::ValuesIn(RoceGoldens()),
    [](const ::testing::TestParamInfo<RoceGolden>& info) {
      return info.param.name;
    });

TEST(RoceGoldenSetTest, CoversWhatItShould) {
  int v4 = 0, v6 = 0, padded = 0, unpadded = 0, odd = 0;
  std::vector<int> opcodes;
  for (const RoceGolden& g : RoceGoldens()) {
    (g.ipv4 ? v4 : v6)++;
    if (g.pad_count != 0) ++padded;
    if (g.pad_count == 0 && !g.payload.empty()) ++unpadded;
    if (g.payload.size() % 2 == 1) ++odd;
    opcodes.push_back(g.roce.bth.opcode);
  }
  EXPECT_GE(v4, 5);
  EXPECT_GE(v6, 5);
  EXPECT_GE(padded, 5);
  EXPECT_GE(unpadded, 3);
  EXPECT_GE(odd, 4);
  for (int op : {0x04, 0x05, 0x00, 0x01, 0x02, 0x0a, 0x06, 0x0b, 0x0c, 0x10,
                 0x0d, 0x0f, 0x11, 0x12, 0x13, 0x14, 0x17, 0x64, 0x81}) {
    EXPECT_NE(std::find(opcodes.begin(), opcodes.end(), op), opcodes.end())
        << "no golden for opcode " << op;
  }
}

}  // namespace
}  // namespace rue::wire::testing
