// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/roce_inject_packet.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/icrc.h"
#include "rue/wire/roce_packet.h"
#include "rue/wire/udp_frame.h"
#include "test_util.h"
#include "tools/command_line_test_util.h"

namespace rue::inject {
namespace {

using Parsed = cli11::testing::Parsed<Options>;
using wire::testing::ToBytes;
using wire::testing::ToU8;

constexpr std::size_t kIpUdpSize = 20 + 8;

// The packet roce_inject would send for `args` after --src 192.0.2.1
// --dst 192.0.2.2; empty (and a test failure) if it would refuse.
std::vector<std::byte> Build(std::vector<std::string> args) {
  args.insert(args.begin(), {"--src", "192.0.2.1", "--dst", "192.0.2.2"});
  Parsed p = cli11::testing::ParseWords(ParseOptions, args);
  EXPECT_TRUE(p.options) << p.error;
  if (!p.options) return {};
  wire::Result<std::vector<std::byte>> packet = BuildPacket(*p.options);
  EXPECT_TRUE(packet.ok()) << packet.message();
  if (!packet.ok()) return {};
  return *packet;
}

// The message BuildPacket() refuses `args` with.
std::string BuildError(std::vector<std::string> args) {
  args.insert(args.begin(), {"--src", "192.0.2.1", "--dst", "192.0.2.2"});
  Parsed p = cli11::testing::ParseWords(ParseOptions, args);
  if (!p.options) return "parse: " + p.error;
  wire::Result<std::vector<std::byte>> packet = BuildPacket(*p.options);
  return packet.ok() ? "built" : packet.message();
}

// scapy 2.5.0, as in tools/gen_roce_goldens.py:
// raw(IP(src='192.0.2.1', dst='192.0.2.2', id=0, flags='DF', ttl=64, tos=0)/
//     UDP(sport=49152, dport=4791, chksum=0)/cnp(0x0000D2))
const std::vector<uint8_t> kScapyCnp = {
    0x45, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,  // IPv4
    0xb6, 0xad, 0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02,  //
    0xc0, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00,  // UDP 49152 -> 4791
    0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x00, 0xd2,  // BTH: CNP, BECN, QP
    0x00, 0x00, 0x00, 0x00,                          //      PSN 0
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 16 reserved bytes
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x48, 0x19, 0x11, 0x08,                          // ICRC
};

// raw(IP(src='192.0.2.1', dst='192.0.2.2', id=0, flags='DF', ttl=64, tos=0)/
//     UDP(sport=49152, dport=4791, chksum=0)/
//     BTH(opcode=0x04, dqpn=0x11, psn=5)/bytes(range(8)))
const std::vector<uint8_t> kScapySendOnly = {
    0x45, 0x00, 0x00, 0x34, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,  // IPv4
    0xb6, 0xb5, 0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02,  //
    0xc0, 0x00, 0x12, 0xb7, 0x00, 0x20, 0x00, 0x00,  // UDP 49152 -> 4791
    0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11,  // BTH: SEND_ONLY, QP
    0x00, 0x00, 0x00, 0x05,                          //      PSN 5
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,  // payload
    0xb7, 0xfe, 0x9b, 0xbe,                          // ICRC
};

TEST(RoceInjectPacketTest, CnpMatchesScapy) {
  EXPECT_EQ(ToU8(Build({"--opcode", "cnp", "--dest-qp", "0xd2"})), kScapyCnp);
  EXPECT_EQ(ToU8(Build({"--opcode", "0x81", "--dest-qp", "210"})), kScapyCnp);
}

// The public CNP example: UDP payload 81 00 ff ff 40 00 00 d2, 20 zero
// bytes (the rest of the BTH and the 16 reserved ones), the ICRC.
TEST(RoceInjectPacketTest, CnpIsTheKnownExampleWithAValidIcrc) {
  const std::vector<std::byte> packet =
      Build({"--opcode", "CNP", "--dest-qp", "0xd2"});
  ASSERT_EQ(packet.size(), kIpUdpSize + 32);
  std::vector<uint8_t> want = {0x81, 0x00, 0xff, 0xff, 0x40, 0x00, 0x00, 0xd2};
  want.resize(28, 0);
  const std::span<const std::byte> udp_payload =
      std::span(packet).subspan(kIpUdpSize);
  EXPECT_EQ(ToU8(udp_payload.first(28)), want);

  wire::Result<wire::RoceFrame> frame =
      wire::ParseRoceFrame(packet, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_TRUE(frame->icrc_ok);
  EXPECT_TRUE(wire::VerifyIcrc(packet));
  EXPECT_EQ(frame->roce.opcode_info->transport, wire::Transport::kCnp);
  EXPECT_TRUE(frame->roce.headers.bth.becn);
  EXPECT_EQ(frame->roce.headers.bth.dest_qp, 0xd2u);
  EXPECT_EQ(frame->roce.headers.bth.psn, 0u);
  EXPECT_EQ(frame->roce.headers.bth.pkey, 0xffff);
}

TEST(RoceInjectPacketTest, SendOnlyMatchesScapy) {
  EXPECT_EQ(ToU8(Build({"--opcode", "RC_SEND_ONLY", "--dest-qp", "0x11",
                        "--psn", "5", "--payload", "8"})),
            kScapySendOnly);
}

TEST(RoceInjectPacketTest, IpAndUdpHeaders) {
  const std::vector<std::byte> packet =
      Build({"--opcode", "4", "--tos", "0xc2", "--sport", "1234", "--dport",
             "4792"});
  wire::Result<wire::UdpFrame> frame =
      wire::ParseUdpFrame(packet, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  const wire::Ipv4Header& ip = *frame->ipv4;
  EXPECT_EQ(ip.tos, 0xc2);
  EXPECT_EQ(ip.identification, 0);
  EXPECT_EQ(ip.flags, wire::Ipv4Header::kFlagDontFragment);
  EXPECT_EQ(ip.ttl, 64);
  EXPECT_EQ(ip.src, (wire::Ipv4Address{192, 0, 2, 1}));
  EXPECT_EQ(ip.dst, (wire::Ipv4Address{192, 0, 2, 2}));
  EXPECT_EQ(frame->udp.src_port, 1234);
  EXPECT_EQ(frame->udp.dst_port, 4792);
  EXPECT_EQ(frame->udp.checksum, 0);
  EXPECT_TRUE(wire::VerifyIcrc(packet));
}

// Every opcode of the table builds into a packet that parses, with a
// valid ICRC, and with a pad where the payload needs one.
TEST(RoceInjectPacketTest, EveryOpcodeBuildsAndVerifies) {
  for (int op = 0; op < 256; ++op) {
    const wire::OpcodeInfo& info = wire::LookupOpcode(static_cast<uint8_t>(op));
    if (!info.known) continue;
    SCOPED_TRACE(info.name);
    const std::string payload = info.has_payload ? "7" : "0";
    const std::vector<std::byte> packet =
        Build({"--opcode", std::string(info.name), "--dest-qp", "0xabcdef",
               "--psn", "0x123456", "--pkey", "0x8001", "--payload", payload});
    wire::Result<wire::RoceFrame> frame =
        wire::ParseRoceFrame(packet, wire::LinkType::kIp);
    ASSERT_TRUE(frame.ok()) << frame.message();
    EXPECT_TRUE(frame->icrc_ok);
    const wire::Bth& bth = frame->roce.headers.bth;
    EXPECT_EQ(bth.opcode, op);
    EXPECT_EQ(bth.dest_qp, 0xabcdefu);
    EXPECT_EQ(bth.psn, 0x123456u);
    EXPECT_EQ(bth.pkey, 0x8001);
    EXPECT_EQ(bth.becn, info.transport == wire::Transport::kCnp);
    EXPECT_EQ(frame->roce.payload.size(), info.has_payload ? 7u : 0u);
    EXPECT_EQ(frame->roce.pad_count, info.has_payload ? 1 : 0);
  }
}

TEST(RoceInjectPacketTest, BecnFlag) {
  const std::vector<std::byte> packet = Build({"--opcode", "4", "--becn"});
  wire::Result<wire::RoceFrame> frame =
      wire::ParseRoceFrame(packet, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_TRUE(frame->roce.headers.bth.becn);
  EXPECT_TRUE(frame->icrc_ok);  // BECN is masked, but still
}

TEST(RoceInjectPacketTest, PayloadPattern) {
  const std::vector<std::byte> packet =
      Build({"--opcode", "RC_SEND_ONLY", "--payload", "300"});
  wire::Result<wire::RoceFrame> frame =
      wire::ParseRoceFrame(packet, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  ASSERT_EQ(frame->roce.payload.size(), 300u);
  for (std::size_t i = 0; i < 300; ++i) {
    ASSERT_EQ(static_cast<uint8_t>(frame->roce.payload[i]), i % 256) << i;
  }
}

TEST(RoceInjectPacketTest, RethFields) {
  const std::vector<std::byte> packet =
      Build({"--opcode", "RC_RDMA_WRITE_ONLY", "--payload", "12", "--va",
             "0x1122334455667788", "--rkey", "0xabcd"});
  wire::Result<wire::RoceFrame> frame =
      wire::ParseRoceFrame(packet, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  ASSERT_TRUE(frame->roce.headers.reth);
  EXPECT_EQ(frame->roce.headers.reth->va, 0x1122334455667788u);
  EXPECT_EQ(frame->roce.headers.reth->rkey, 0xabcdu);
  EXPECT_EQ(frame->roce.headers.reth->dma_length, 12u);  // the payload

  const std::vector<std::byte> read =
      Build({"--opcode", "RC_RDMA_READ_REQUEST", "--len", "65536"});
  frame = wire::ParseRoceFrame(read, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_EQ(frame->roce.headers.reth->dma_length, 65536u);
}

TEST(RoceInjectPacketTest, AtomicAndInvalidateFields) {
  wire::Result<wire::RoceFrame> frame = wire::ParseRoceFrame(
      Build({"--opcode", "RC_FETCH_ADD", "--va", "8", "--rkey", "9"}),
      wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_EQ(frame->roce.headers.atomic_eth->va, 8u);
  EXPECT_EQ(frame->roce.headers.atomic_eth->rkey, 9u);
  EXPECT_EQ(frame->roce.headers.atomic_eth->swap_add, 0u);

  frame = wire::ParseRoceFrame(
      Build({"--opcode", "RC_SEND_ONLY_WITH_INVALIDATE", "--rkey", "10"}),
      wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_EQ(frame->roce.headers.ieth->rkey, 10u);
}

TEST(RoceInjectPacketTest, FlagsTheOpcodeHasNoRoomFor) {
  EXPECT_EQ(BuildError({"--opcode", "RC_SEND_ONLY", "--va", "1"}),
            "--va: RC_SEND_ONLY has no RETH or AtomicETH");
  EXPECT_EQ(BuildError({"--opcode", "RC_ACKNOWLEDGE", "--rkey", "1"}),
            "--rkey: RC_ACKNOWLEDGE has no RETH, AtomicETH or IETH");
  EXPECT_EQ(BuildError({"--opcode", "RC_COMPARE_SWAP", "--len", "1"}),
            "--len: RC_COMPARE_SWAP has no RETH");
  EXPECT_EQ(BuildError({"--opcode", "cnp", "--payload", "4"}),
            "--payload: CNP carries no payload");
  EXPECT_EQ(BuildError({"--opcode", "0x15"}),
            "--opcode 21: not in the wire library's opcode table (send it "
            "with --raw-hex)");
  EXPECT_NE(BuildError({"--opcode", "4", "--payload", "65535"})
                .find("more than 65535"),
            std::string::npos);
}

TEST(RoceInjectPacketTest, BadIcrcFlipsTheIcrcOnly) {
  const std::vector<std::byte> good = Build({"--opcode", "cnp"});
  const std::vector<std::byte> bad = Build({"--opcode", "cnp", "--bad-icrc"});
  ASSERT_EQ(bad.size(), good.size());
  const std::size_t icrc = good.size() - 4;
  EXPECT_EQ(ToU8(std::span(bad).first(icrc)),
            ToU8(std::span(good).first(icrc)));
  for (std::size_t i = icrc; i < good.size(); ++i) {
    EXPECT_EQ(bad[i], ~good[i]) << i;
  }
  wire::Result<wire::RoceFrame> frame =
      wire::ParseRoceFrame(bad, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_FALSE(frame->icrc_ok);
}

// The truncated packet is a well-formed IPv4/UDP datagram whose lengths
// and IP checksum fit, carrying the first bytes of the full UDP payload.
TEST(RoceInjectPacketTest, TruncateFixesLengths) {
  const std::vector<std::byte> full =
      Build({"--opcode", "RC_SEND_ONLY", "--payload", "16"});
  const std::size_t full_udp_payload = full.size() - kIpUdpSize;
  for (std::size_t drop : {1u, 4u, 5u, 20u, 31u, 32u}) {
    SCOPED_TRACE(drop);
    const std::vector<std::byte> cut =
        Build({"--opcode", "RC_SEND_ONLY", "--payload", "16", "--truncate",
               std::to_string(drop)});
    ASSERT_EQ(cut.size(), full.size() - drop);
    wire::Result<wire::UdpFrame> frame =
        wire::ParseUdpFrame(cut, wire::LinkType::kIp);  // checks the lengths
    ASSERT_TRUE(frame.ok()) << frame.message();        // and IP checksum
    EXPECT_EQ(frame->ipv4->total_length, cut.size());
    EXPECT_EQ(frame->udp.length, 8 + full_udp_payload - drop);
    EXPECT_EQ(ToU8(frame->udp_payload),
              ToU8(std::span(full).subspan(kIpUdpSize,
                                           full_udp_payload - drop)));
    EXPECT_FALSE(wire::VerifyIcrc(cut));
  }
  // Into the BTH: RoCE parsing fails, IP/UDP parsing does not.
  const std::vector<std::byte> short_bth =
      Build({"--opcode", "RC_SEND_ONLY", "--truncate", "6"});
  EXPECT_TRUE(wire::ParseUdpFrame(short_bth, wire::LinkType::kIp).ok());
  EXPECT_EQ(wire::ParseRoceFrame(short_bth, wire::LinkType::kIp).code(),
            wire::ErrorCode::kTruncated);
}

TEST(RoceInjectPacketTest, TruncateEverythingOrTooMuch) {
  const std::vector<std::byte> empty =
      Build({"--opcode", "cnp", "--truncate", "32"});
  ASSERT_EQ(empty.size(), kIpUdpSize);
  EXPECT_TRUE(wire::ParseUdpFrame(empty, wire::LinkType::kIp).ok());
  EXPECT_EQ(BuildError({"--opcode", "cnp", "--truncate", "33"}),
            "--truncate 33: the UDP payload has only 32 bytes");
}

TEST(RoceInjectPacketTest, TruncateAfterTheIcrcFlip) {
  const std::vector<std::byte> good = Build({"--opcode", "cnp"});
  const std::vector<std::byte> bad =
      Build({"--opcode", "cnp", "--bad-icrc", "--truncate", "2"});
  ASSERT_EQ(bad.size(), good.size() - 2);
  EXPECT_EQ(bad[bad.size() - 1], ~good[good.size() - 3]);
  EXPECT_EQ(bad[bad.size() - 2], ~good[good.size() - 4]);
}

TEST(RoceInjectPacketTest, RawHexIsSentAsGiven) {
  const std::vector<std::byte> packet =
      Build({"--raw-hex", "de ad be ef 01", "--dport", "4791"});
  wire::Result<wire::UdpFrame> frame =
      wire::ParseUdpFrame(packet, wire::LinkType::kIp);
  ASSERT_TRUE(frame.ok()) << frame.message();
  EXPECT_EQ(ToU8(frame->udp_payload),
            (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef, 0x01}));
  EXPECT_EQ(frame->udp.dst_port, 4791);

  const std::vector<std::byte> empty = Build({"--raw-hex", ""});
  EXPECT_EQ(empty.size(), kIpUdpSize);
}

// The scapy SEND_ONLY without its ICRC, given as hex with --icrc, comes
// out as scapy made it.
TEST(RoceInjectPacketTest, RawHexWithIcrcMatchesScapy) {
  std::string hex;
  for (std::size_t i = kIpUdpSize; i < kScapySendOnly.size() - 4; ++i) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[kScapySendOnly[i] >> 4];
    hex += kDigits[kScapySendOnly[i] & 0xF];
  }
  EXPECT_EQ(ToU8(Build({"--raw-hex", hex, "--icrc"})), kScapySendOnly);

  const std::vector<std::byte> bad =
      Build({"--raw-hex", hex, "--icrc", "--bad-icrc"});
  EXPECT_FALSE(wire::VerifyIcrc(bad));
  EXPECT_EQ(BuildError({"--raw-hex", "0400ffff", "--icrc"}),
            "--icrc: the ICRC covers a BTH, and --raw-hex has 4 bytes, "
            "fewer than 12");
}

TEST(RoceInjectPacketTest, FrameAndFlipDirectly) {
  Options options;
  options.src = {10, 0, 0, 1};
  options.dst = {10, 0, 0, 2};
  const std::vector<std::byte> payload = ToBytes({1, 2, 3});
  wire::Result<std::vector<std::byte>> packet =
      Frame(FrameSpec(options), payload);
  ASSERT_TRUE(packet.ok()) << packet.message();
  EXPECT_EQ(packet->size(), kIpUdpSize + 3);
  EXPECT_TRUE(wire::ParseUdpFrame(*packet, wire::LinkType::kIp).ok());

  std::vector<std::byte> tiny = ToBytes({1, 2});
  FlipIcrc(tiny);  // shorter than an ICRC: left alone
  EXPECT_EQ(tiny, ToBytes({1, 2}));

  EXPECT_FALSE(Truncate(tiny, 0).ok());  // not an IP packet
}

}  // namespace
}  // namespace rue::inject
