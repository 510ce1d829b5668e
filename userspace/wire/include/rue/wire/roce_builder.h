// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCEv2 packet builder: typed headers + payload in, a complete
// [Ethernet +] IPv4/IPv6 + UDP + BTH... + payload + pad + ICRC out.
#ifndef RUE_WIRE_ROCE_BUILDER_H_
#define RUE_WIRE_ROCE_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/icrc.h"
#include "rue/wire/result.h"
#include "rue/wire/roce_opcode.h"
#include "rue/wire/roce_packet.h"
#include "rue/wire/udp_frame.h"
#include "rue/wire/writer.h"

namespace rue::wire {

struct RocePacketSpec {
  // Link/IP/UDP.  The builder fills in lengths and checksums; the UDP ports
  // are written as given (the destination should be kRoceV2UdpPort).
  UdpFrameSpec frame;
  // bth.pad_count is ignored: the builder derives it from the payload size.
  RoceHeaders headers;
  std::span<const std::byte> payload;
};

// Pad bytes needed to bring a payload to a multiple of 4 bytes.
constexpr uint8_t PadCountFor(std::size_t payload_size) {
  return static_cast<uint8_t>((4 - payload_size % 4) % 4);
}

// The size BuildRocePacket() will produce, or an error if the spec is
// unusable (unknown opcode, headers not matching it, payload on an opcode
// without one).
inline Result<std::size_t> RocePacketSize(const RocePacketSpec& spec) {
  const OpcodeInfo& info = LookupOpcode(spec.headers.bth.opcode);
  if (!info.known) {
    return Error{ErrorCode::kUnknownOpcode,
                 "opcode " + std::to_string(spec.headers.bth.opcode)};
  }
  for (ExtHeader h : kAllExtHeaders) {
    if (spec.headers.Has(h) != info.Has(h)) {
      return Error{ErrorCode::kInvalidArgument,
                   std::string(info.name) +
                       (info.Has(h) ? " needs " : " does not take ") +
                       std::string(ExtHeaderName(h))};
    }
  }
  if (!info.has_payload && !spec.payload.empty()) {
    return Error{ErrorCode::kInvalidArgument,
                 std::string(info.name) + " carries no payload"};
  }
  return UdpFrameHeadersSize(spec.frame) + info.HeaderSize() +
         spec.payload.size() + PadCountFor(spec.payload.size()) + kIcrcSize;
}

// Builds the packet into out; returns the number of bytes written.
inline Result<std::size_t> BuildRocePacket(const RocePacketSpec& spec,
                                           std::span<std::byte> out) {
  Result<std::size_t> size = RocePacketSize(spec);
  if (!size.ok()) return size;
  if (out.size() < *size) {
    return Error{ErrorCode::kBufferTooSmall,
                 "need " + std::to_string(*size) + " bytes, have " +
                     std::to_string(out.size())};
  }
  const uint8_t pad = PadCountFor(spec.payload.size());
  RoceHeaders headers = spec.headers;
  headers.bth.pad_count = pad;
  const std::size_t udp_payload_size =
      LookupOpcode(headers.bth.opcode).HeaderSize() + spec.payload.size() +
      pad + kIcrcSize;

  Writer w(out.first(*size));
  std::optional<UdpFrameOffsets> offsets =
      WriteUdpFrameHeaders(w, spec.frame, udp_payload_size);
  if (!offsets) {
    return Error{ErrorCode::kInvalidArgument,
                 "link/IP/UDP headers do not fit their fields"};
  }
  if (!WriteRoceHeaders(w, headers)) {
    return Error{ErrorCode::kInvalidArgument,
                 "a transport header field does not fit its width"};
  }
  w.WriteBytes(spec.payload);
  w.WriteRepeated(pad, std::byte{0});
  w.WriteU32Le(0);  // ICRC placeholder
  if (!w.ok() || w.length() != *size) {
    return Error{ErrorCode::kInvalidArgument, "internal size mismatch"};
  }

  // The ICRC masks the UDP checksum, so it can be computed first; the UDP
  // checksum covers the ICRC, so it comes last.
  const std::span<std::byte> frame = w.Written();
  const std::span<std::byte> ip_packet = frame.subspan(offsets->ip);
  std::optional<uint32_t> icrc = ComputeIcrc(ip_packet);
  if (!icrc) {
    return Error{ErrorCode::kInvalidArgument, "cannot compute the ICRC"};
  }
  Writer icrc_writer(ip_packet.last(kIcrcSize));
  icrc_writer.WriteU32Le(*icrc);
  if (!FinishUdpFrame(frame, *offsets, spec.frame)) {
    return Error{ErrorCode::kInvalidArgument, "cannot compute UDP checksum"};
  }
  return *size;
}

inline Result<std::vector<std::byte>> BuildRocePacket(
    const RocePacketSpec& spec) {
  Result<std::size_t> size = RocePacketSize(spec);
  if (!size.ok()) return Error{size.code(), size.message()};
  std::vector<std::byte> out(*size);
  Result<std::size_t> written = BuildRocePacket(spec, out);
  if (!written.ok()) return Error{written.code(), written.message()};
  return out;
}

}  // namespace rue::wire

#endif  // RUE_WIRE_ROCE_BUILDER_H_
