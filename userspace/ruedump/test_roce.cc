// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/test_roce.h"

#include <gtest/gtest.h>

#include "rue/wire/roce_builder.h"

namespace rue::dump::testing {
namespace {

Bytes Payload(std::size_t size) {
  Bytes payload(size);
  for (std::size_t i = 0; i < size; ++i)
    payload[i] = static_cast<std::byte>(i & 0xFF);
  return payload;
}

void AddSample(wire::RoceHeaders& h, wire::ExtHeader which) {
  using wire::ExtHeader;
  switch (which) {
    case ExtHeader::kReth:
      h.reth = wire::Reth{0x7f0012345000, 0x1234, 65536};
      break;
    case ExtHeader::kAeth:
      h.aeth =
          wire::Aeth{wire::Aeth::MakeSyndrome(wire::AethType::kAck, 0x1F), 0x5};
      break;
    case ExtHeader::kDeth:
      h.deth = wire::Deth{0x11111111, 0, 0x22};
      break;
    case ExtHeader::kImmDt:
      h.imm_dt = wire::ImmDt{0xdeadbeef};
      break;
    case ExtHeader::kIeth:
      h.ieth = wire::Ieth{0x4321};
      break;
    case ExtHeader::kAtomicEth:
      h.atomic_eth = wire::AtomicEth{0x7f0000001000, 0x99, 5, 7};
      break;
    case ExtHeader::kAtomicAckEth:
      h.atomic_ack_eth = wire::AtomicAckEth{0x0102030405060708};
      break;
    case ExtHeader::kCnpReserved:
      h.cnp_reserved = wire::CnpReserved{};
      break;
  }
}

}  // namespace

wire::UdpFrameSpec SampleFrame(bool ipv6) {
  wire::UdpFrameSpec spec;
  if (ipv6) {
    wire::Ipv6Header h;
    h.flow_label = 0x12345;
    h.src = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    h.dst = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
    spec.ip = h;
  } else {
    wire::Ipv4Header h;
    h.identification = 0x1234;
    h.flags = wire::Ipv4Header::kFlagDontFragment;
    h.src = {192, 0, 2, 1};
    h.dst = {192, 0, 2, 2};
    spec.ip = h;
  }
  spec.udp.src_port = 49153;
  spec.udp.dst_port = wire::kRoceV2UdpPort;
  return spec;
}

wire::RoceHeaders SampleHeaders(uint8_t opcode) {
  wire::RoceHeaders h;
  h.bth.opcode = opcode;
  h.bth.dest_qp = 0x10;
  h.bth.psn = 0x1a2b3c;
  h.bth.ack_req = true;
  for (wire::ExtHeader e : wire::LookupOpcode(opcode).headers())
    AddSample(h, e);
  return h;
}

Bytes BuildRoceIp(const wire::RoceHeaders& headers, std::size_t payload_size,
                  bool ipv6) {
  const Bytes payload = Payload(payload_size);
  wire::RocePacketSpec spec;
  spec.frame = SampleFrame(ipv6);
  spec.headers = headers;
  spec.payload = payload;
  wire::Result<std::vector<std::byte>> packet = wire::BuildRocePacket(spec);
  EXPECT_TRUE(packet.ok()) << packet.message();
  return packet.ok() ? packet.value() : Bytes();
}

Bytes BuildUdpIp(uint16_t dst_port, std::size_t payload_size) {
  wire::UdpFrameSpec spec = SampleFrame(false);
  spec.udp.dst_port = dst_port;
  Bytes packet(wire::UdpFrameHeadersSize(spec) + payload_size);
  wire::Writer w(packet);
  std::optional<wire::UdpFrameOffsets> offsets =
      wire::WriteUdpFrameHeaders(w, spec, payload_size);
  EXPECT_TRUE(offsets.has_value());
  w.WriteBytes(Payload(payload_size));
  EXPECT_TRUE(w.ok());
  return packet;
}

}  // namespace rue::dump::testing
