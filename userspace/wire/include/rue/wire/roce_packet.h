// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RoCEv2 packet parser.
//
//   ParseRoce(udp_payload)       the bytes after the UDP header: BTH,
//                                extension headers, payload, pad, ICRC.
//   ParseRoceFrame(bytes, link)  an Ethernet frame or an IP packet; checks
//                                Ethernet/IP/UDP, wants UDP port 4791, then
//                                ParseRoce() and verifies the ICRC.
//
// The parsers check that the lengths add up and nothing else about the
// transport (PSNs, QPs, keys and syndromes are the receiver's business).
// They never read outside the input and return spans into it.
#ifndef RUE_WIRE_ROCE_PACKET_H_
#define RUE_WIRE_ROCE_PACKET_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "rue/wire/icrc.h"
#include "rue/wire/reader.h"
#include "rue/wire/result.h"
#include "rue/wire/roce.h"
#include "rue/wire/roce_opcode.h"
#include "rue/wire/udp_frame.h"
#include "rue/wire/writer.h"

namespace rue::wire {

// The BTH and whichever extension headers its opcode calls for.  The parser
// sets exactly the optionals that the opcode table lists; the builder
// requires the same.
struct RoceHeaders {
  Bth bth;
  std::optional<Reth> reth;
  std::optional<Aeth> aeth;
  std::optional<Deth> deth;
  std::optional<ImmDt> imm_dt;
  std::optional<Ieth> ieth;
  std::optional<AtomicEth> atomic_eth;
  std::optional<AtomicAckEth> atomic_ack_eth;
  std::optional<CnpReserved> cnp_reserved;

  bool Has(ExtHeader h) const {
    switch (h) {
      case ExtHeader::kReth: return reth.has_value();
      case ExtHeader::kAeth: return aeth.has_value();
      case ExtHeader::kDeth: return deth.has_value();
      case ExtHeader::kImmDt: return imm_dt.has_value();
      case ExtHeader::kIeth: return ieth.has_value();
      case ExtHeader::kAtomicEth: return atomic_eth.has_value();
      case ExtHeader::kAtomicAckEth: return atomic_ack_eth.has_value();
      case ExtHeader::kCnpReserved: return cnp_reserved.has_value();
    }
    return false;
  }

  bool operator==(const RoceHeaders&) const = default;
};

inline constexpr ExtHeader kAllExtHeaders[] = {
    ExtHeader::kReth,      ExtHeader::kAeth,         ExtHeader::kDeth,
    ExtHeader::kImmDt,     ExtHeader::kIeth,         ExtHeader::kAtomicEth,
    ExtHeader::kAtomicAckEth, ExtHeader::kCnpReserved};

// Reads one extension header into its slot in `headers`.
inline bool ParseExtHeader(Reader& r, ExtHeader h, RoceHeaders* headers) {
  switch (h) {
    case ExtHeader::kReth: headers->reth = Reth::Parse(r); break;
    case ExtHeader::kAeth: headers->aeth = Aeth::Parse(r); break;
    case ExtHeader::kDeth: headers->deth = Deth::Parse(r); break;
    case ExtHeader::kImmDt: headers->imm_dt = ImmDt::Parse(r); break;
    case ExtHeader::kIeth: headers->ieth = Ieth::Parse(r); break;
    case ExtHeader::kAtomicEth: headers->atomic_eth = AtomicEth::Parse(r); break;
    case ExtHeader::kAtomicAckEth:
      headers->atomic_ack_eth = AtomicAckEth::Parse(r);
      break;
    case ExtHeader::kCnpReserved:
      headers->cnp_reserved = CnpReserved::Parse(r);
      break;
  }
  return r.ok() && headers->Has(h);
}

// Writes the BTH and the extension headers its opcode calls for, in wire
// order.  Fails (poisoning the writer) if the opcode is unknown or the set
// of headers present is not exactly the opcode's.
inline bool WriteRoceHeaders(Writer& w, const RoceHeaders& headers) {
  const OpcodeInfo& info = LookupOpcode(headers.bth.opcode);
  bool ok = info.known;
  for (ExtHeader h : kAllExtHeaders) {
    if (headers.Has(h) != info.Has(h)) ok = false;
  }
  if (!ok) {
    w.Fail();
    return false;
  }
  headers.bth.Write(w);
  for (ExtHeader h : info.headers()) {
    switch (h) {
      case ExtHeader::kReth: headers.reth->Write(w); break;
      case ExtHeader::kAeth: headers.aeth->Write(w); break;
      case ExtHeader::kDeth: headers.deth->Write(w); break;
      case ExtHeader::kImmDt: headers.imm_dt->Write(w); break;
      case ExtHeader::kIeth: headers.ieth->Write(w); break;
      case ExtHeader::kAtomicEth: headers.atomic_eth->Write(w); break;
      case ExtHeader::kAtomicAckEth: headers.atomic_ack_eth->Write(w); break;
      case ExtHeader::kCnpReserved: headers.cnp_reserved->Write(w); break;
    }
  }
  return w.ok();
}

struct RocePacket {
  RoceHeaders headers;
  // The table entry for headers.bth.opcode (never an unknown one).
  const OpcodeInfo* opcode_info = nullptr;
  // The payload without the pad bytes.
  std::span<const std::byte> payload;
  // The pad bytes (bth.pad_count of them) between payload and ICRC.
  std::span<const std::byte> pad;
  uint8_t pad_count = 0;
  // The ICRC trailer as sent (decoded little-endian).
  uint32_t icrc = 0;
};

namespace internal {

inline Error RoceError(ErrorCode code, std::string what) {
  return Error{code, std::move(what)};
}

}  // namespace internal

// Parses the UDP payload of a RoCEv2 packet: BTH first, ICRC last.
inline Result<RocePacket> ParseRoce(std::span<const std::byte> udp_payload) {
  using internal::Need;
  using internal::RoceError;
  const std::size_t size = udp_payload.size();
  if (size < Bth::kSize + kIcrcSize) {
    return RoceError(ErrorCode::kTruncated,
                     Need("BTH and ICRC", Bth::kSize + kIcrcSize, size));
  }
  Reader r(udp_payload.first(size - kIcrcSize));
  RocePacket packet;
  std::optional<Bth> parsed_bth = Bth::Parse(r);
  if (!parsed_bth) {  // cannot happen: the length was checked above
    return RoceError(ErrorCode::kTruncated, "BTH");
  }
  packet.headers.bth = *parsed_bth;
  const Bth& bth = packet.headers.bth;
  if (bth.tver != Bth::kTver) {
    return RoceError(ErrorCode::kUnsupportedVersion,
                     "BTH TVer " + std::to_string(bth.tver));
  }
  const OpcodeInfo& info = LookupOpcode(bth.opcode);
  if (!info.known) {
    return RoceError(ErrorCode::kUnknownOpcode,
                     "opcode " + std::to_string(bth.opcode));
  }
  packet.opcode_info = &info;
  const std::size_t header_size = info.HeaderSize();
  if (size < header_size + kIcrcSize) {
    return RoceError(ErrorCode::kTruncated,
                     Need(std::string(info.name) + " headers and ICRC",
                          header_size + kIcrcSize, size));
  }
  for (ExtHeader h : info.headers()) {
    if (!ParseExtHeader(r, h, &packet.headers)) {  // cannot fail either
      return RoceError(ErrorCode::kTruncated, std::string(ExtHeaderName(h)));
    }
  }

  // What is left before the ICRC is payload and pad.
  const std::span<const std::byte> data = r.Rest();
  packet.pad_count = bth.pad_count;
  if (!info.has_payload) {
    if (!data.empty()) {
      return RoceError(ErrorCode::kUnexpectedPayload,
                       std::string(info.name) + " has no payload but " +
                           std::to_string(data.size()) +
                           " bytes follow its headers");
    }
    if (bth.pad_count != 0) {
      return RoceError(ErrorCode::kBadPadCount,
                       std::string(info.name) + " has no payload but pad " +
                           std::to_string(bth.pad_count));
    }
  } else {
    if (bth.pad_count > data.size()) {
      return RoceError(ErrorCode::kBadPadCount,
                       "pad count " + std::to_string(bth.pad_count) +
                           " but only " + std::to_string(data.size()) +
                           " bytes after the headers");
    }
    // IBTA vol 1 9.2: the pad brings the payload to a multiple of 4 bytes,
    // and every header is a multiple of 4 bytes.
    if ((header_size + data.size()) % 4 != 0) {
      return RoceError(ErrorCode::kMisaligned,
                       "headers + payload + pad = " +
                           std::to_string(header_size + data.size()) +
                           " bytes, not a multiple of 4");
    }
  }
  packet.payload = data.first(data.size() - bth.pad_count);
  packet.pad = data.subspan(data.size() - bth.pad_count);

  Reader icrc_reader(udp_payload.subspan(size - kIcrcSize));
  icrc_reader.ReadU32Le(&packet.icrc);
  return packet;
}

struct RoceFrame {
  UdpFrame frame;  // Ethernet (if any), IP and UDP headers
  RocePacket roce;
  // Whether the ICRC trailer matches ComputeIcrc(frame.ip_packet).  A bad
  // ICRC is reported here, not as a parse error, so that tools can show the
  // packet anyway.
  bool icrc_ok = false;
};

// Parses an Ethernet frame or IP packet carrying RoCEv2.
inline Result<RoceFrame> ParseRoceFrame(std::span<const std::byte> bytes,
                                        LinkType link) {
  Result<UdpFrame> frame = ParseUdpFrame(bytes, link);
  if (!frame.ok()) return Error{frame.code(), frame.message()};
  if (frame->udp.dst_port != kRoceV2UdpPort) {
    return Error{ErrorCode::kWrongUdpPort,
                 "UDP destination port " +
                     std::to_string(frame->udp.dst_port) + " is not 4791"};
  }
  Result<RocePacket> roce = ParseRoce(frame->udp_payload);
  if (!roce.ok()) return Error{roce.code(), roce.message()};
  RoceFrame out;
  out.frame = *frame;
  out.roce = *roce;
  out.icrc_ok = VerifyIcrc(out.frame.ip_packet);
  return out;
}

}  // namespace rue::wire

#endif  // RUE_WIRE_ROCE_PACKET_H_
