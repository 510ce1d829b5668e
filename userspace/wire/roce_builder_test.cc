// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/roce_builder.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "rue/wire/icrc.h"
#include "rue/wire/roce_packet.h"
#include "rue/wire/udp.h"
#include "test_util.h"

namespace rue::wire {
namespace {

RocePacketSpec BaseSpec(bool ethernet, bool ipv6, UdpChecksumMode mode) {
  RocePacketSpec spec;
  if (ethernet) {
    spec.frame.eth.emplace();
    spec.frame.eth->dst = {2, 0, 0, 0, 0, 2};
    spec.frame.eth->src = {2, 0, 0, 0, 0, 1};
  }
  if (ipv6) {
    Ipv6Header h;
    h.traffic_class = 0x68;
    h.flow_label = 0xbeef;
    h.src[0] = 0x20;
    h.src[15] = 1;
    h.dst[0] = 0x20;
    h.dst[15] = 2;
    spec.frame.ip = h;
  } else {
    Ipv4Header h;
    h.tos = 0x02;
    h.flags = Ipv4Header::kFlagDontFragment;
    h.src = {192, 0, 2, 1};
    h.dst = {192, 0, 2, 2};
    spec.frame.ip = h;
  }
  spec.frame.udp.src_port = 0xc123;
  spec.frame.udp.dst_port = kRoceV2UdpPort;
  spec.frame.udp_checksum = mode;
  return spec;
}

RoceHeaders HeadersFor(uint8_t opcode) {
  RoceHeaders h;
  h.bth.opcode = opcode;
  h.bth.dest_qp = 0x00abcd;
  h.bth.psn = 0xfffffe;
  h.bth.ack_req = true;
  const OpcodeInfo& info = LookupOpcode(opcode);
  if (info.Has(ExtHeader::kReth)) h.reth = Reth{.va = 1, .rkey = 2, .dma_length = 3};
  if (info.Has(ExtHeader::kAeth)) h.aeth = Aeth{.syndrome = 0x60, .msn = 4};
  if (info.Has(ExtHeader::kDeth)) h.deth = Deth{.qkey = 5, .rsvd = 0, .src_qp = 6};
  if (info.Has(ExtHeader::kImmDt)) h.imm_dt = ImmDt{.imm = 7};
  if (info.Has(ExtHeader::kIeth)) h.ieth = Ieth{.rkey = 8};
  if (info.Has(ExtHeader::kAtomicEth)) {
    h.atomic_eth = AtomicEth{.va = 9, .rkey = 10, .swap_add = 11, .compare = 12};
  }
  if (info.Has(ExtHeader::kAtomicAckEth)) {
    h.atomic_ack_eth = AtomicAckEth{.original_data = 13};
  }
  if (info.Has(ExtHeader::kCnpReserved)) h.cnp_reserved = CnpReserved();
  return h;
}

TEST(RoceBuilderTest, EveryOpcodeRoundTripsThroughTheParser) {
  int built = 0;
  for (int op = 0; op < 256; ++op) {
    const OpcodeInfo& info = LookupOpcode(static_cast<uint8_t>(op));
    if (!info.known) continue;
    SCOPED_TRACE(info.name);
    for (int variant = 0; variant < 8; ++variant) {
      const bool ethernet = (variant & 1) != 0;
      const bool ipv6 = (variant & 2) != 0;
      const UdpChecksumMode mode = (variant & 4) != 0
                                       ? UdpChecksumMode::kCompute
                                       : UdpChecksumMode::kZero;
      const std::size_t max_payload = info.has_payload ? 9 : 0;
      for (std::size_t size = 0; size <= max_payload; ++size) {
        RocePacketSpec spec = BaseSpec(ethernet, ipv6, mode);
        spec.headers = HeadersFor(static_cast<uint8_t>(op));
        std::vector<std::byte> payload(size);
        for (std::size_t i = 0; i < size; ++i) {
          payload[i] = static_cast<std::byte>(i * 31 + 1);
        }
        spec.payload = payload;
        Result<std::vector<std::byte>> packet = BuildRocePacket(spec);
        ASSERT_TRUE(packet.ok()) << packet.message();
        ++built;

        Result<RoceFrame> frame = ParseRoceFrame(
            *packet, ethernet ? LinkType::kEthernet : LinkType::kIp);
        ASSERT_TRUE(frame.ok()) << frame.message();
        EXPECT_TRUE(frame->icrc_ok);
        RoceHeaders want = spec.headers;
        want.bth.pad_count = PadCountFor(size);
        EXPECT_EQ(frame->roce.headers, want);
        EXPECT_EQ(frame->roce.pad_count, PadCountFor(size));
        EXPECT_TRUE(std::equal(payload.begin(), payload.end(),
                               frame->roce.payload.begin(),
                               frame->roce.payload.end()));
        for (std::byte b : frame->roce.pad) EXPECT_EQ(b, std::byte{0});
        if (mode == UdpChecksumMode::kZero) {
          EXPECT_EQ(frame->frame.udp.checksum, 0);
        } else {
          EXPECT_EQ(ComputeUdpChecksum(frame->frame.ip_packet),
                    frame->frame.udp.checksum);
        }
        EXPECT_EQ(frame->frame.ipv6.has_value(), ipv6);
      }
    }
  }
  EXPECT_GT(built, 1000);
}

TEST(RoceBuilderTest, PadCountIsDerivedFromThePayload) {
  RocePacketSpec spec = BaseSpec(false, false, UdpChecksumMode::kZero);
  spec.headers = HeadersFor(ToU8(Opcode::kRcSendOnly));
  spec.headers.bth.pad_count = 3;  // ignored
  const std::vector<std::byte> payload(4, std::byte{1});
  spec.payload = payload;
  Result<std::vector<std::byte>> p = BuildRocePacket(spec);
  ASSERT_TRUE(p.ok());
  Result<RoceFrame> f = ParseRoceFrame(*p, LinkType::kIp);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->roce.headers.bth.pad_count, 0);
  EXPECT_EQ(PadCountFor(0), 0);
  EXPECT_EQ(PadCountFor(1), 3);
  EXPECT_EQ(PadCountFor(2), 2);
  EXPECT_EQ(PadCountFor(3), 1);
  EXPECT_EQ(PadCountFor(4), 0);
}

TEST(RoceBuilderTest, Rejections) {
  RocePacketSpec spec = BaseSpec(false, false, UdpChecksumMode::kZero);

  spec.headers = HeadersFor(0x15);
  EXPECT_EQ(BuildRocePacket(spec).code(), ErrorCode::kUnknownOpcode);

  spec.headers = HeadersFor(ToU8(Opcode::kRcRdmaWriteOnly));
  spec.headers.reth.reset();
  EXPECT_EQ(BuildRocePacket(spec).code(), ErrorCode::kInvalidArgument);

  spec.headers = HeadersFor(ToU8(Opcode::kRcSendOnly));
  spec.headers.imm_dt = ImmDt{.imm = 1};
  Result<std::vector<std::byte>> r = BuildRocePacket(spec);
  EXPECT_EQ(r.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(r.message().find("ImmDt"), std::string::npos) << r.message();

  spec.headers = HeadersFor(ToU8(Opcode::kRcAcknowledge));
  const std::vector<std::byte> payload(4);
  spec.payload = payload;
  EXPECT_EQ(BuildRocePacket(spec).code(), ErrorCode::kInvalidArgument);
  spec.payload = {};

  spec.headers.bth.dest_qp = 0x1000000;
  EXPECT_EQ(BuildRocePacket(spec).code(), ErrorCode::kInvalidArgument);

  spec.headers = HeadersFor(ToU8(Opcode::kRcAcknowledge));
  spec.frame.udp.dst_port = kRoceV2UdpPort;
  Ipv6Header wide_flow_label;
  wide_flow_label.flow_label = 0x100000;
  spec.frame.ip = wide_flow_label;
  EXPECT_EQ(BuildRocePacket(spec).code(), ErrorCode::kInvalidArgument);
}

// The builder writes no IPv4 options: IHL is always 5, whatever the
// template says (a header parsed from a packet with options can be reused).
TEST(RoceBuilderTest, Ipv4IhlIsAlwaysFive) {
  RocePacketSpec spec = BaseSpec(false, false, UdpChecksumMode::kZero);
  spec.headers = HeadersFor(ToU8(Opcode::kRcAcknowledge));
  Ipv4Header with_options;
  with_options.ihl = 6;
  with_options.version = 7;
  spec.frame.ip = with_options;
  Result<std::vector<std::byte>> p = BuildRocePacket(spec);
  ASSERT_TRUE(p.ok()) << p.message();
  EXPECT_EQ((*p)[0], std::byte{0x45});
  Result<RoceFrame> f = ParseRoceFrame(*p, LinkType::kIp);
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_TRUE(f->icrc_ok);
}

TEST(RoceBuilderTest, BufferTooSmall) {
  RocePacketSpec spec = BaseSpec(true, true, UdpChecksumMode::kCompute);
  spec.headers = HeadersFor(ToU8(Opcode::kRcAcknowledge));
  Result<std::size_t> size = RocePacketSize(spec);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 14u + 40 + 8 + 12 + 4 + 4);
  std::vector<std::byte> buf(*size);
  for (std::size_t n = 0; n < *size; ++n) {
    Result<std::size_t> r =
        BuildRocePacket(spec, std::span<std::byte>(buf).first(n));
    EXPECT_EQ(r.code(), ErrorCode::kBufferTooSmall) << n;
  }
  Result<std::size_t> r = BuildRocePacket(spec, buf);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(*r, *size);
  EXPECT_TRUE(VerifyIcrc(std::span<const std::byte>(buf).subspan(14)));
}

}  // namespace
}  // namespace rue::wire
