// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Options to bytes.  The wire library does the building (headers, lengths,
// IPv4 checksum, ICRC); this file chooses the fields and breaks the result
// when asked.  The ICRC is computed over the packet as sent, ID 0
// included: the kernel leaves the ID of a DF packet alone (raw(7) fills in
// a zero ID otherwise, which would break the ICRC, which covers it).
#include "tools/roce_inject_packet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "rue/wire/icrc.h"
#include "rue/wire/ip.h"
#include "rue/wire/roce.h"
#include "rue/wire/roce_builder.h"
#include "rue/wire/roce_opcode.h"
#include "rue/wire/writer.h"

namespace rue::inject {
namespace {

using wire::Error;
using wire::ErrorCode;
using wire::ExtHeader;
using wire::Result;

constexpr std::size_t kMaxIpPacket = 0xFFFF;

Error BadArgument(std::string message) {
  return Error{ErrorCode::kInvalidArgument, std::move(message)};
}

// 00 01 02 ... ff 00 01 ...: a receiver can tell a byte's offset by its
// value.
std::vector<std::byte> Pattern(std::size_t size) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<std::byte>(i);
  return out;
}

// Why a flag cannot go into this opcode's headers, if it cannot.
std::optional<std::string> UnusedFlag(const Options& o,
                                      const wire::OpcodeInfo& info) {
  const bool reth = info.Has(ExtHeader::kReth);
  const bool atomic = info.Has(ExtHeader::kAtomicEth);
  const std::string name(info.name);
  if (o.va && !reth && !atomic) {
    return "--va: " + name + " has no RETH or AtomicETH";
  }
  if (o.rkey && !reth && !atomic && !info.Has(ExtHeader::kIeth)) {
    return "--rkey: " + name + " has no RETH, AtomicETH or IETH";
  }
  if (o.len && !reth) return "--len: " + name + " has no RETH";
  if (o.payload != 0 && !info.has_payload) {
    return "--payload: " + name + " carries no payload";
  }
  return std::nullopt;
}

wire::Bth MakeBth(const Options& o, uint8_t opcode) {
  wire::Bth bth;
  bth.opcode = opcode;
  bth.pkey = o.pkey;
  bth.becn = o.becn || opcode == wire::ToU8(wire::Opcode::kCnp);
  bth.dest_qp = o.dest_qp;
  bth.psn = o.psn;
  return bth;
}

void AddExtHeader(const Options& o, ExtHeader h, wire::RoceHeaders* headers) {
  const uint64_t va = o.va.value_or(0);
  const uint32_t rkey = o.rkey.value_or(0);
  switch (h) {
    case ExtHeader::kReth:
      headers->reth = wire::Reth{
          .va = va,
          .rkey = rkey,
          .dma_length = o.len.value_or(static_cast<uint32_t>(o.payload))};
      break;
    case ExtHeader::kAeth: headers->aeth = wire::Aeth(); break;
    case ExtHeader::kDeth: headers->deth = wire::Deth(); break;
    case ExtHeader::kImmDt: headers->imm_dt = wire::ImmDt(); break;
    case ExtHeader::kIeth: headers->ieth = wire::Ieth{.rkey = rkey}; break;
    case ExtHeader::kAtomicEth:
      headers->atomic_eth = wire::AtomicEth{.va = va, .rkey = rkey};
      break;
    case ExtHeader::kAtomicAckEth:
      headers->atomic_ack_eth = wire::AtomicAckEth();
      break;
    case ExtHeader::kCnpReserved:
      headers->cnp_reserved = wire::CnpReserved();
      break;
  }
}

Result<std::vector<std::byte>> BuildRoce(const Options& o) {
  Result<wire::RoceHeaders> headers = HeadersFor(o);
  if (!headers.ok()) return Error{headers.code(), headers.message()};
  const std::vector<std::byte> payload = Pattern(o.payload);
  wire::RocePacketSpec spec;
  spec.frame = FrameSpec(o);
  spec.headers = *headers;
  spec.payload = payload;
  Result<std::size_t> size = wire::RocePacketSize(spec);
  if (size.ok() && *size > kMaxIpPacket) {
    return BadArgument("--payload " + std::to_string(o.payload) +
                       ": the IPv4 packet would be " + std::to_string(*size) +
                       " bytes, more than " + std::to_string(kMaxIpPacket));
  }
  return wire::BuildRocePacket(spec);
}

// --raw-hex: the bytes as given, and with --icrc 4 more for the ICRC.
Result<std::vector<std::byte>> BuildRaw(const Options& o) {
  std::vector<std::byte> udp_payload = *o.raw_hex;
  if (o.icrc) udp_payload.resize(udp_payload.size() + wire::kIcrcSize);
  Result<std::vector<std::byte>> packet = Frame(FrameSpec(o), udp_payload);
  if (!packet.ok() || !o.icrc) return packet;
  std::vector<std::byte> bytes = std::move(packet.value());
  const std::optional<uint32_t> icrc = wire::ComputeIcrc(bytes);
  if (!icrc) {
    return BadArgument("--icrc: the ICRC covers a BTH, and --raw-hex has " +
                       std::to_string(o.raw_hex->size()) +
                       " bytes, fewer than " +
                       std::to_string(wire::Bth::kSize));
  }
  wire::Writer w(std::span<std::byte>(bytes).last(wire::kIcrcSize));
  w.WriteU32Le(*icrc);
  return bytes;
}

}  // namespace

wire::UdpFrameSpec FrameSpec(const Options& options) {
  wire::Ipv4Header ip;
  ip.tos = options.tos;
  ip.identification = 0;
  ip.flags = wire::Ipv4Header::kFlagDontFragment;
  ip.ttl = 64;
  ip.src = options.src;
  ip.dst = options.dst;
  wire::UdpFrameSpec spec;
  spec.ip = ip;
  spec.udp.src_port = options.sport;
  spec.udp.dst_port = options.dport;
  spec.udp_checksum = wire::UdpChecksumMode::kZero;
  return spec;
}

Result<wire::RoceHeaders> HeadersFor(const Options& options) {
  const uint8_t opcode = options.opcode.value_or(0);
  const wire::OpcodeInfo& info = wire::LookupOpcode(opcode);
  if (!info.known) {
    return Error{ErrorCode::kUnknownOpcode,
                 "--opcode " + std::to_string(opcode) +
                     ": not in the wire library's opcode table (send it "
                     "with --raw-hex)"};
  }
  if (std::optional<std::string> why = UnusedFlag(options, info)) {
    return BadArgument(*why);
  }
  wire::RoceHeaders headers;
  headers.bth = MakeBth(options, opcode);
  for (ExtHeader h : info.headers()) AddExtHeader(options, h, &headers);
  return headers;
}

Result<std::vector<std::byte>> BuildPacket(const Options& options) {
  Result<std::vector<std::byte>> packet =
      options.raw_hex ? BuildRaw(options) : BuildRoce(options);
  if (!packet.ok()) return packet;
  std::vector<std::byte> bytes = std::move(packet.value());
  if (options.bad_icrc) FlipIcrc(bytes);
  if (options.truncate == 0) return bytes;
  return Truncate(bytes, options.truncate);
}

Result<std::vector<std::byte>> Frame(const wire::UdpFrameSpec& spec,
                                     std::span<const std::byte> udp_payload) {
  std::vector<std::byte> out(wire::UdpFrameHeadersSize(spec) +
                             udp_payload.size());
  wire::Writer w(out);
  const std::optional<wire::UdpFrameOffsets> offsets =
      wire::WriteUdpFrameHeaders(w, spec, udp_payload.size());
  if (!offsets || !w.WriteBytes(udp_payload) ||
      !wire::FinishUdpFrame(out, *offsets, spec)) {
    return BadArgument("a UDP payload of " +
                       std::to_string(udp_payload.size()) +
                       " bytes does not fit an IP packet");
  }
  return out;
}

void FlipIcrc(std::span<std::byte> ip_packet) {
  if (ip_packet.size() < wire::kIcrcSize) return;
  for (std::byte& b : ip_packet.last(wire::kIcrcSize)) b = ~b;
}

Result<std::vector<std::byte>> Truncate(std::span<const std::byte> ip_packet,
                                        std::size_t drop) {
  Result<wire::UdpFrame> frame =
      wire::ParseUdpFrame(ip_packet, wire::LinkType::kIp);
  if (!frame.ok()) return Error{frame.code(), frame.message()};
  const std::span<const std::byte> payload = frame->udp_payload;
  if (drop > payload.size()) {
    return BadArgument("--truncate " + std::to_string(drop) +
                       ": the UDP payload has only " +
                       std::to_string(payload.size()) + " bytes");
  }
  wire::UdpFrameSpec spec;
  if (frame->ipv4) {
    spec.ip = *frame->ipv4;
  } else {
    spec.ip = *frame->ipv6;
  }
  spec.udp = frame->udp;
  spec.udp_checksum = frame->udp.checksum != 0
                          ? wire::UdpChecksumMode::kCompute
                          : wire::UdpChecksumMode::kZero;
  return Frame(spec, payload.first(payload.size() - drop));
}

}  // namespace rue::inject
