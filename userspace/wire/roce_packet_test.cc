// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/roce_packet.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "rue/wire/roce_builder.h"
#include "rue/wire/roce_opcode.h"
#include "rue/wire/writer.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::Bytes;

// Fills in default values for every extension header the opcode wants.
RoceHeaders HeadersFor(uint8_t opcode) {
  RoceHeaders h;
  h.bth.opcode = opcode;
  h.bth.dest_qp = 0x000abc;
  h.bth.psn = 0x000123;
  for (ExtHeader e : LookupOpcode(opcode).headers()) {
    switch (e) {
      case ExtHeader::kReth: h.reth = Reth{.va = 0x1000, .rkey = 0x55, .dma_length = 64}; break;
      case ExtHeader::kAeth: h.aeth = Aeth{.syndrome = 0x1f, .msn = 9}; break;
      case ExtHeader::kDeth: h.deth = Deth{.qkey = 0x11, .rsvd = 0, .src_qp = 7}; break;
      case ExtHeader::kImmDt: h.imm_dt = ImmDt{.imm = 0xfeedface}; break;
      case ExtHeader::kIeth: h.ieth = Ieth{.rkey = 0x66}; break;
      case ExtHeader::kAtomicEth: h.atomic_eth = AtomicEth{.va = 0x2000, .rkey = 0x77, .swap_add = 1, .compare = 2}; break;
      case ExtHeader::kAtomicAckEth: h.atomic_ack_eth = AtomicAckEth{.original_data = 42}; break;
      case ExtHeader::kCnpReserved: h.cnp_reserved = CnpReserved(); break;
    }
  }
  return h;
}

// A UDP payload: headers, `data` bytes (payload + pad, as given), ICRC.
std::vector<std::byte> Transport(const RoceHeaders& h, std::size_t data,
                                 uint32_t icrc = 0x11223344) {
  std::vector<std::byte> out(LookupOpcode(h.bth.opcode).HeaderSize() + data +
                             kIcrcSize);
  Writer w(out);
  EXPECT_TRUE(WriteRoceHeaders(w, h));
  for (std::size_t i = 0; i < data; ++i) {
    w.WriteU8(static_cast<uint8_t>(0xa0 + i));
  }
  w.WriteU32Le(icrc);
  EXPECT_TRUE(w.ok());
  EXPECT_EQ(w.length(), out.size());
  return out;
}

std::vector<uint8_t> KnownOpcodes() {
  std::vector<uint8_t> ops;
  for (int op = 0; op < 256; ++op) {
    if (LookupOpcode(static_cast<uint8_t>(op)).known) {
      ops.push_back(static_cast<uint8_t>(op));
    }
  }
  return ops;
}

// The CNP from the public "RoCEv2 CNP Packet Format Example": the UDP
// payload 81 00 ff ff 40 00 00 d2, 20 zero bytes (the rest of the BTH and
// the 16 reserved bytes), and the ICRC e4 2d ad 81.
TEST(ParseRoceTest, PublicCnpExample) {
  std::vector<std::byte> p = Bytes({0x81, 0x00, 0xff, 0xff, 0x40, 0x00,
                                    0x00, 0xd2});
  p.resize(p.size() + 20, std::byte{0});
  const std::vector<std::byte> icrc = Bytes({0xe4, 0x2d, 0xad, 0x81});
  p.insert(p.end(), icrc.begin(), icrc.end());
  ASSERT_EQ(p.size(), 32u);

  Result<RocePacket> r = ParseRoce(p);
  ASSERT_TRUE(r.ok()) << r.message();
  const Bth& bth = r->headers.bth;
  EXPECT_EQ(bth.opcode, ToU8(Opcode::kCnp));
  EXPECT_EQ(r->opcode_info->name, "CNP");
  EXPECT_EQ(bth.dest_qp, 0xd2u);
  EXPECT_TRUE(bth.becn);
  EXPECT_FALSE(bth.fecn);
  EXPECT_EQ(bth.pkey, 0xffff);
  EXPECT_EQ(bth.psn, 0u);
  EXPECT_EQ(bth.pad_count, 0);
  ASSERT_TRUE(r->headers.cnp_reserved);
  EXPECT_EQ(*r->headers.cnp_reserved, CnpReserved());
  EXPECT_TRUE(r->payload.empty());
  EXPECT_EQ(r->icrc, 0x81ad2de4u);  // LSB first on the wire
}

// The same BTH bytes followed by only 16 zero bytes (24 bytes in all) are
// short of a CNP: BTH 12 + reserved 16 + ICRC 4 = 32.
TEST(ParseRoceTest, CnpWithoutRoomForIcrcIsTruncated) {
  std::vector<std::byte> p = Bytes({0x81, 0x00, 0xff, 0xff, 0x40, 0x00,
                                    0x00, 0xd2});
  p.resize(p.size() + 16, std::byte{0});
  Result<RocePacket> r = ParseRoce(p);
  EXPECT_EQ(r.code(), ErrorCode::kTruncated) << r.message();
}

TEST(ParseRoceTest, TooShortForBthAndIcrc) {
  const std::vector<std::byte> p = Transport(HeadersFor(0x04), 0);
  ASSERT_EQ(p.size(), 16u);
  for (std::size_t n = 0; n < 16; ++n) {
    Result<RocePacket> r = ParseRoce(std::span<const std::byte>(p).first(n));
    EXPECT_EQ(r.code(), ErrorCode::kTruncated) << n;
  }
  EXPECT_TRUE(ParseRoce(p).ok());
}

TEST(ParseRoceTest, UnknownOpcodes) {
  for (int op = 0; op < 256; ++op) {
    if (LookupOpcode(static_cast<uint8_t>(op)).known) continue;
    std::vector<std::byte> p(64, std::byte{0});
    p[0] = static_cast<std::byte>(op);
    Result<RocePacket> r = ParseRoce(p);
    EXPECT_EQ(r.code(), ErrorCode::kUnknownOpcode) << op;
  }
}

TEST(ParseRoceTest, UnsupportedTver) {
  std::vector<std::byte> p = Transport(HeadersFor(0x04), 4);
  p[1] = std::byte{0x01};
  EXPECT_EQ(ParseRoce(p).code(), ErrorCode::kUnsupportedVersion);
}

TEST(ParseRoceTest, EveryKnownOpcodeParses) {
  for (uint8_t op : KnownOpcodes()) {
    const OpcodeInfo& info = LookupOpcode(op);
    SCOPED_TRACE(info.name);
    const RoceHeaders h = HeadersFor(op);
    const std::vector<std::size_t> sizes =
        info.has_payload ? std::vector<std::size_t>{0, 4, 8, 256}
                         : std::vector<std::size_t>{0};
    for (std::size_t size : sizes) {
      const std::vector<std::byte> p = Transport(h, size);
      Result<RocePacket> r = ParseRoce(p);
      ASSERT_TRUE(r.ok()) << size << ": " << r.message();
      EXPECT_EQ(r->headers, h);
      EXPECT_EQ(r->opcode_info, &info);
      EXPECT_EQ(r->payload.size(), size);
      EXPECT_EQ(r->payload.data(), p.data() + info.HeaderSize());
      EXPECT_TRUE(r->pad.empty());
      EXPECT_EQ(r->icrc, 0x11223344u);
    }
  }
}

TEST(ParseRoceTest, PadCounts) {
  RoceHeaders h = HeadersFor(ToU8(Opcode::kRcSendOnly));
  for (uint8_t pad = 0; pad <= 3; ++pad) {
    h.bth.pad_count = pad;
    const std::vector<std::byte> p = Transport(h, 8);
    Result<RocePacket> r = ParseRoce(p);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->pad_count, pad);
    EXPECT_EQ(r->payload.size(), 8u - pad);
    EXPECT_EQ(r->pad.size(), pad);
    EXPECT_EQ(r->pad.data(), r->payload.data() + r->payload.size());
  }
}

TEST(ParseRoceTest, PadLargerThanPayload) {
  RoceHeaders h = HeadersFor(ToU8(Opcode::kRcRdmaWriteOnly));
  for (uint8_t pad = 1; pad <= 3; ++pad) {
    h.bth.pad_count = pad;
    Result<RocePacket> r = ParseRoce(Transport(h, 0));
    EXPECT_EQ(r.code(), ErrorCode::kBadPadCount) << r.message();
  }
}

TEST(ParseRoceTest, Misaligned) {
  RoceHeaders h = HeadersFor(ToU8(Opcode::kRcSendOnly));
  for (std::size_t size : {1, 2, 3, 5, 7}) {
    Result<RocePacket> r = ParseRoce(Transport(h, size));
    EXPECT_EQ(r.code(), ErrorCode::kMisaligned) << size << r.message();
  }
  h.bth.pad_count = 3;
  EXPECT_EQ(ParseRoce(Transport(h, 5)).code(), ErrorCode::kMisaligned);
}

TEST(ParseRoceTest, PayloadOnOpcodesWithout) {
  for (Opcode op : {Opcode::kRcAcknowledge, Opcode::kRcAtomicAcknowledge,
                    Opcode::kRcRdmaReadRequest, Opcode::kRcCompareSwap,
                    Opcode::kRcFetchAdd, Opcode::kCnp}) {
    RoceHeaders h = HeadersFor(ToU8(op));
    SCOPED_TRACE(LookupOpcode(op).name);
    for (std::size_t extra : {1, 4, 16}) {
      EXPECT_EQ(ParseRoce(Transport(h, extra)).code(),
                ErrorCode::kUnexpectedPayload);
    }
    h.bth.pad_count = 1;
    EXPECT_EQ(ParseRoce(Transport(h, 0)).code(), ErrorCode::kBadPadCount);
  }
}

TEST(ParseRoceTest, TruncatedExtensionHeaders) {
  for (uint8_t op : KnownOpcodes()) {
    const OpcodeInfo& info = LookupOpcode(op);
    if (info.headers().empty()) continue;
    SCOPED_TRACE(info.name);
    const std::vector<std::byte> p = Transport(HeadersFor(op), 0);
    for (std::size_t n = Bth::kSize + kIcrcSize; n < p.size(); ++n) {
      Result<RocePacket> r = ParseRoce(std::span<const std::byte>(p).first(n));
      EXPECT_EQ(r.code(), ErrorCode::kTruncated) << n;
    }
  }
}

// ParseRoceFrame: the pieces around ParseRoce.
std::vector<std::byte> Frame(uint16_t dst_port, std::size_t payload_size) {
  RocePacketSpec spec;
  spec.frame.ip = Ipv4Header();
  spec.frame.udp.src_port = 0xc000;
  spec.frame.udp.dst_port = dst_port;
  spec.headers = HeadersFor(ToU8(Opcode::kRcSendOnly));
  std::vector<std::byte> payload(payload_size, std::byte{0x5a});
  spec.payload = payload;
  Result<std::vector<std::byte>> built = BuildRocePacket(spec);
  EXPECT_TRUE(built.ok()) << built.message();
  return built.ok() ? *built : std::vector<std::byte>();
}

TEST(ParseRoceFrameTest, GoodFrame) {
  const std::vector<std::byte> f = Frame(kRoceV2UdpPort, 5);
  Result<RoceFrame> r = ParseRoceFrame(f, LinkType::kIp);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_TRUE(r->icrc_ok);
  EXPECT_EQ(r->roce.payload.size(), 5u);
  EXPECT_EQ(r->roce.pad_count, 3);
  EXPECT_EQ(r->frame.udp.dst_port, kRoceV2UdpPort);
}

TEST(ParseRoceFrameTest, WrongPort) {
  const std::vector<std::byte> f = Frame(4793, 4);
  EXPECT_EQ(ParseRoceFrame(f, LinkType::kIp).code(), ErrorCode::kWrongUdpPort);
}

TEST(ParseRoceFrameTest, BadIcrcIsReportedNotRejected) {
  std::vector<std::byte> f = Frame(kRoceV2UdpPort, 4);
  f.back() ^= std::byte{0x01};
  Result<RoceFrame> r = ParseRoceFrame(f, LinkType::kIp);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_FALSE(r->icrc_ok);
}

TEST(ParseRoceFrameTest, PropagatesErrors) {
  std::vector<std::byte> f = Frame(kRoceV2UdpPort, 4);
  f[9] = std::byte{6};  // protocol TCP; IPv4 checksum now wrong
  EXPECT_EQ(ParseRoceFrame(f, LinkType::kIp).code(),
            ErrorCode::kBadIpChecksum);
  f = Frame(kRoceV2UdpPort, 4);
  f[28] = std::byte{0x15};  // BTH opcode: unknown
  Result<RoceFrame> r = ParseRoceFrame(f, LinkType::kIp);
  EXPECT_EQ(r.code(), ErrorCode::kUnknownOpcode);
  EXPECT_FALSE(r.message().empty());
}

}  // namespace
}  // namespace rue::wire
