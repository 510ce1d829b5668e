// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/icrc.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "rue/wire/crc32.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::Bytes;

// IPv4 (20) + UDP (8) + BTH (12) + 4 payload + ICRC (4) = 48 bytes; the
// ICRC field is left zero.
std::vector<std::byte> Ipv4Packet() {
  return Bytes({
      0x45, 0x00, 0x00, 0x30, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
      0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02,  // IPv4
      0xc0, 0x00, 0x12, 0xb7, 0x00, 0x1c, 0x00, 0x00,  // UDP
      0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,
      0x80, 0x00, 0x00, 0x01,  // BTH
      0x61, 0x62, 0x63, 0x64,  // payload
      0x00, 0x00, 0x00, 0x00,  // ICRC
  });
}

// IPv6 (40) + UDP (8) + BTH (12) + ICRC... as an ACK: + AETH (4).
std::vector<std::byte> Ipv6Packet() {
  std::vector<std::byte> p = Bytes({
      0x66, 0x81, 0x23, 0x45, 0x00, 0x1c, 0x11, 0x40,
  });
  for (int i = 0; i < 32; ++i) p.push_back(static_cast<std::byte>(i));
  const std::vector<std::byte> rest = Bytes({
      0xc0, 0x00, 0x12, 0xb7, 0x00, 0x1c, 0xab, 0xcd,  // UDP
      0x11, 0x00, 0xff, 0xff, 0xc0, 0x00, 0x00, 0x26,
      0x00, 0x00, 0x00, 0x60,  // BTH, FECN+BECN set
      0x1f, 0x00, 0x01, 0x02,  // AETH
      0x00, 0x00, 0x00, 0x00,  // ICRC
  });
  p.insert(p.end(), rest.begin(), rest.end());
  return p;
}

// The ICRC computed the slow, obvious way: copy, mask, CRC.
uint32_t SlowIcrc(std::vector<std::byte> p, const std::vector<int>& masked) {
  for (int i : masked) p[static_cast<std::size_t>(i)] = std::byte{0xff};
  Crc32 crc;
  crc.UpdateRepeated(8, 0xff);
  crc.Update(std::span<const std::byte>(p).first(p.size() - 4));
  return crc.Value();
}

TEST(IcrcTest, Ipv4MatchesMaskedPseudoPacket) {
  const std::vector<std::byte> p = Ipv4Packet();
  // TOS, TTL, checksum; UDP checksum; BTH byte 4.
  EXPECT_EQ(ComputeIcrc(p), SlowIcrc(p, {1, 8, 10, 11, 26, 27, 32}));
}

TEST(IcrcTest, Ipv6MatchesMaskedPseudoPacket) {
  std::vector<std::byte> p = Ipv6Packet();
  std::vector<std::byte> masked = p;
  masked[0] = std::byte{0x6f};
  EXPECT_EQ(ComputeIcrc(p),
            SlowIcrc(masked, {1, 2, 3, 7, 46, 47, 52}));
}

TEST(IcrcTest, Ipv4OptionsAreCoveredUnmasked) {
  std::vector<std::byte> p = Ipv4Packet();
  // Insert a 4-byte option (router alert) and fix IHL and lengths.
  const std::vector<std::byte> option = Bytes({0x94, 0x04, 0x00, 0x00});
  p.insert(p.begin() + 20, option.begin(), option.end());
  p[0] = std::byte{0x46};
  p[3] = std::byte{0x34};
  const std::optional<uint32_t> with_option = ComputeIcrc(p);
  EXPECT_EQ(with_option, SlowIcrc(p, {1, 8, 10, 11, 30, 31, 36}));
  p[22] = std::byte{0x01};  // change the option: the ICRC changes
  EXPECT_NE(ComputeIcrc(p), with_option);
}

TEST(IcrcTest, VerifyRoundTrip) {
  std::vector<std::byte> p = Ipv4Packet();
  EXPECT_FALSE(VerifyIcrc(p));
  const uint32_t icrc = *ComputeIcrc(p);
  // Little-endian on the wire.
  p[44] = static_cast<std::byte>(icrc);
  p[45] = static_cast<std::byte>(icrc >> 8);
  p[46] = static_cast<std::byte>(icrc >> 16);
  p[47] = static_cast<std::byte>(icrc >> 24);
  EXPECT_EQ(ReadIcrc(p), icrc);
  EXPECT_TRUE(VerifyIcrc(p));
  // The same value big-endian does not verify.
  std::swap(p[44], p[47]);
  std::swap(p[45], p[46]);
  EXPECT_FALSE(VerifyIcrc(p));
}

TEST(IcrcTest, TrailingBytesAfterIpLengthAreIgnored) {
  std::vector<std::byte> p = Ipv4Packet();
  const std::optional<uint32_t> icrc = ComputeIcrc(p);
  p.push_back(std::byte{0xaa});
  p.push_back(std::byte{0xbb});
  EXPECT_EQ(ComputeIcrc(p), icrc);
}

TEST(IcrcTest, MalformedInputGivesNullopt) {
  EXPECT_FALSE(ComputeIcrc({}));
  EXPECT_FALSE(ReadIcrc({}));
  EXPECT_FALSE(VerifyIcrc({}));

  std::vector<std::byte> p = Ipv4Packet();
  p[0] = std::byte{0x55};  // version 5
  EXPECT_FALSE(ComputeIcrc(p));
  p = Ipv4Packet();
  p[0] = std::byte{0x44};  // IHL 4
  EXPECT_FALSE(ComputeIcrc(p));
  p = Ipv4Packet();
  p[9] = std::byte{6};  // TCP
  EXPECT_FALSE(ComputeIcrc(p));
  p = Ipv4Packet();
  p[3] = std::byte{0x31};  // longer than the bytes
  EXPECT_FALSE(ComputeIcrc(p));
  p = Ipv4Packet();
  p[25] = std::byte{0x1b};  // UDP length disagrees with IP
  EXPECT_FALSE(ComputeIcrc(p));

  // UDP payload shorter than BTH + ICRC.
  p = Ipv4Packet();
  p.resize(20 + 8 + 15);
  p[3] = std::byte{43};
  p[25] = std::byte{23};
  EXPECT_FALSE(ComputeIcrc(p));
  p.push_back(std::byte{0});
  p[3] = std::byte{44};
  p[25] = std::byte{24};
  EXPECT_TRUE(ComputeIcrc(p));

  // Every truncation of a valid packet: no crash, no ICRC.
  p = Ipv6Packet();
  for (std::size_t n = 0; n < p.size(); ++n) {
    EXPECT_FALSE(ComputeIcrc(std::span<const std::byte>(p).first(n))) << n;
    EXPECT_FALSE(VerifyIcrc(std::span<const std::byte>(p).first(n))) << n;
  }
}

TEST(IcrcTest, MaskedBits) {
  // IPv4 with a 20-byte header.
  for (std::size_t i = 0; i < 60; ++i) {
    const bool masked =
        i == 1 || i == 8 || i == 10 || i == 11 || i == 26 || i == 27 ||
        i == 32;
    EXPECT_EQ(IcrcMaskedBits(4, 20, i), masked ? 0xFF : 0x00) << i;
  }
  // IPv6: the version nibble is covered, the traffic class nibble is not.
  EXPECT_EQ(IcrcMaskedBits(6, 40, 0), 0x0F);
  for (std::size_t i = 1; i < 80; ++i) {
    const bool masked = i == 1 || i == 2 || i == 3 || i == 7 || i == 46 ||
                        i == 47 || i == 52;
    EXPECT_EQ(IcrcMaskedBits(6, 40, i), masked ? 0xFF : 0x00) << i;
  }
}

}  // namespace
}  // namespace rue::wire
