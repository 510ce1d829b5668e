// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UET packet parser and header writer.
//
//   ParseUet(udp_payload)       the bytes after the UDP header: PDS header,
//                               the SES header its next_hdr names, the
//                               atomic extension header its opcode calls
//                               for, payload.
//   ParseUetFrame(bytes, link)  an Ethernet frame or an IP packet; checks
//                               Ethernet/IP/UDP, wants UDP port 4793, then
//                               ParseUet().
//   WriteUetHeaders(w, h)       the same headers in wire order.
//
// The parser checks lengths and code points that decide the layout (PDS
// type, next_hdr, ctl_type) and nothing else: PSNs, PDC IDs, SYN rules and
// return codes are the receiver's business.  It never reads outside the
// input and returns spans into it.  TSS (PDS type 1, encrypted) is
// reported as not decoded.  The rendezvous extension header is not
// decoded either: its bytes are payload (see Documentation/uet.md).
#ifndef RUE_WIRE_UET_PACKET_H_
#define RUE_WIRE_UET_PACKET_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "rue/wire/reader.h"
#include "rue/wire/result.h"
#include "rue/wire/udp_frame.h"
#include "rue/wire/uet.h"
#include "rue/wire/uet_names.h"
#include "rue/wire/uet_ses.h"
#include "rue/wire/writer.h"

namespace rue::wire {

using PdsHeader =
    std::variant<PdsRequest, PdsAck, PdsNack, PdsCtrl, PdsRudi, PdsUud>;

struct UetHeaders {
  PdsHeader pds;
  // At most one of these, as the PDS next_hdr says (CTRL has none).
  std::optional<SesRequest> ses_request;
  std::optional<SesResponse> ses_response;
  // After a request whose opcode carries one.
  std::optional<SesAtomicExt> atomic;

  const PdsPrologue& prologue() const {
    return std::visit([](const auto& h) -> const PdsPrologue& {
      return h.prologue;
    }, pds);
  }

  bool operator==(const UetHeaders&) const = default;
};

struct UetPacket {
  UetHeaders headers;
  std::size_t header_size = 0;  // PDS + SES + extension bytes
  std::span<const std::byte> payload;  // everything after the headers
};

namespace internal {

inline Error UetError(ErrorCode code, std::string what) {
  return Error{code, std::move(what)};
}

inline std::string PdsTypeText(uint8_t type) {
  const std::string_view name = PdsTypeName(type);
  return name.empty() ? "PDS type " + std::to_string(type)
                      : std::string(name);
}

// The PDS header after the prologue `p`; nullopt with *error set.
inline std::optional<PdsHeader> ParsePds(Reader& r, PdsPrologue p,
                                         std::size_t size, Error* error) {
  std::size_t need = 0;
  switch (static_cast<PdsType>(p.type)) {
    case PdsType::kRudReq:
    case PdsType::kRodReq: need = PdsRequest::kSize; break;
    case PdsType::kRudCcReq:
    case PdsType::kRodCcReq: need = PdsRequest::kCcSize; break;
    case PdsType::kAck: need = PdsAck::kSize; break;
    case PdsType::kAckCc:
    case PdsType::kAckCcx: need = PdsAck::kCcSize; break;
    case PdsType::kNack: need = PdsNack::kSize; break;
    case PdsType::kNackCcx: need = PdsNack::kCcxSize; break;
    case PdsType::kCtrl: need = PdsCtrl::kSize; break;
    case PdsType::kRudiReq:
    case PdsType::kRudiResp: need = PdsRudi::kSize; break;
    case PdsType::kUudReq: need = PdsUud::kSize; break;
    case PdsType::kTss:
      *error = UetError(ErrorCode::kUnknownOpcode,
                        "PDS type 1 (TSS): encrypted packets are not decoded");
      return std::nullopt;
    default:
      *error = UetError(ErrorCode::kUnknownOpcode,
                        "PDS type " + std::to_string(p.type) + " is reserved");
      return std::nullopt;
  }
  if (size < need) {
    *error = UetError(ErrorCode::kTruncated,
                      Need(PdsTypeText(p.type) + " header", need, size));
    return std::nullopt;
  }
  // The lengths were checked: the parses below cannot run short.
  switch (static_cast<PdsType>(p.type)) {
    case PdsType::kRudReq:
    case PdsType::kRodReq: return PdsRequest::Parse(r, p, false);
    case PdsType::kRudCcReq:
    case PdsType::kRodCcReq: return PdsRequest::Parse(r, p, true);
    case PdsType::kAck: return PdsAck::Parse(r, p, false);
    case PdsType::kAckCc:
    case PdsType::kAckCcx: return PdsAck::Parse(r, p, true);
    case PdsType::kNack: return PdsNack::Parse(r, p, false);
    case PdsType::kNackCcx: return PdsNack::Parse(r, p, true);
    case PdsType::kCtrl: return PdsCtrl::Parse(r, p);
    case PdsType::kRudiReq:
    case PdsType::kRudiResp: return PdsRudi::Parse(r, p);
    default: return PdsUud::Parse(r, p);
  }
}

// The SES header(s) next_hdr names; false with *error set.
inline bool ParseSes(Reader& r, uint8_t next_hdr, UetHeaders* h,
                     Error* error) {
  const auto need = [&](std::string_view what, std::size_t n) {
    if (r.remaining() >= n) return true;
    *error = UetError(ErrorCode::kTruncated, Need(what, n, r.remaining()));
    return false;
  };
  switch (static_cast<NextHeader>(next_hdr)) {
    case NextHeader::kNone:
      return true;
    case NextHeader::kReqSmall:
    case NextHeader::kReqMedium:
    case NextHeader::kReqStd: {
      const SesRequestKind kind =
          next_hdr == 1   ? SesRequestKind::kSmall
          : next_hdr == 2 ? SesRequestKind::kMedium
                          : SesRequestKind::kStd;
      if (!need("SES " + std::string(NextHeaderName(next_hdr)) + " header",
                SesRequest::SizeOf(kind)))
        return false;
      h->ses_request = SesRequest::Parse(r, kind);
      if (!SesAtomicExt::CarriedBy(h->ses_request->opcode)) return true;
      if (!need("SES atomic extension header", SesAtomicExt::kSize))
        return false;
      const std::span<const std::byte> rest = r.Rest();
      if (SesAtomicExt::IsCas(static_cast<uint8_t>(rest[0])) &&
          !need("SES compare-and-swap extension header",
                SesAtomicExt::kCasSize))
        return false;
      h->atomic = SesAtomicExt::Parse(r);
      return true;
    }
    case NextHeader::kRsp:
    case NextHeader::kRspData:
    case NextHeader::kRspDataSmall: {
      const SesResponseKind kind =
          next_hdr == 4   ? SesResponseKind::kRsp
          : next_hdr == 5 ? SesResponseKind::kRspData
                          : SesResponseKind::kRspDataSmall;
      if (!need("SES " + std::string(NextHeaderName(next_hdr)) + " header",
                SesResponse::SizeOf(kind)))
        return false;
      h->ses_response = SesResponse::Parse(r, kind);
      return true;
    }
  }
  *error = UetError(ErrorCode::kUnknownOpcode,
                    "PDS next header " + std::to_string(next_hdr) +
                        " is reserved");
  return false;
}

}  // namespace internal

// Parses the UDP payload of a UET packet: PDS header first.
inline Result<UetPacket> ParseUet(std::span<const std::byte> udp_payload) {
  Reader r(udp_payload);
  std::optional<PdsPrologue> p = PdsPrologue::Parse(r);
  if (!p) {
    return internal::UetError(
        ErrorCode::kTruncated,
        internal::Need("PDS prologue", PdsPrologue::kSize, udp_payload.size()));
  }
  Error error;
  std::optional<PdsHeader> pds =
      internal::ParsePds(r, *p, udp_payload.size(), &error);
  if (!pds) return error;
  UetPacket packet;
  packet.headers.pds = *pds;
  if (p->type == static_cast<uint8_t>(PdsType::kCtrl)) {
    if (CtlTypeName(p->next_hdr).empty()) {
      return internal::UetError(
          ErrorCode::kUnknownOpcode,
          "CTRL type " + std::to_string(p->next_hdr) + " is reserved");
    }
  } else if (!internal::ParseSes(r, p->next_hdr, &packet.headers, &error)) {
    return error;
  }
  packet.header_size = r.offset();
  packet.payload = r.Rest();
  return packet;
}

// Writes the PDS header, then the SES header and extension header present.
// Fails (poisoning the writer) if a field does not fit or the headers
// disagree: the SES header present must be the one next_hdr names (none
// for CTRL), the atomic extension present exactly when the opcode carries
// one.  The payload is the caller's to append.
inline bool WriteUetHeaders(Writer& w, const UetHeaders& h) {
  const PdsPrologue& p = h.prologue();
  const bool is_ctrl = p.type == static_cast<uint8_t>(PdsType::kCtrl);
  const uint8_t next = is_ctrl ? 0 : p.next_hdr;
  const bool want_req = next >= 1 && next <= 3;
  const bool want_rsp = next >= 4 && next <= 6;
  bool ok = h.ses_request.has_value() == want_req &&
            h.ses_response.has_value() == want_rsp && next <= 6;
  if (ok && h.ses_request) {
    ok = h.ses_request->kind == static_cast<SesRequestKind>(next - 1) &&
         h.atomic.has_value() ==
             SesAtomicExt::CarriedBy(h.ses_request->opcode);
  } else if (h.atomic) {
    ok = false;
  }
  if (ok && h.ses_response)
    ok = h.ses_response->kind == static_cast<SesResponseKind>(next - 4);
  if (!ok) {
    w.Fail();
    return false;
  }
  std::visit([&w](const auto& pds) { pds.Write(w); }, h.pds);
  if (h.ses_request) h.ses_request->Write(w);
  if (h.ses_response) h.ses_response->Write(w);
  if (h.atomic) h.atomic->Write(w);
  return w.ok();
}

struct UetFrame {
  UdpFrame frame;  // Ethernet (if any), IP and UDP headers
  UetPacket uet;
};

// Parses an Ethernet frame or IP packet carrying UET over UDP.
inline Result<UetFrame> ParseUetFrame(std::span<const std::byte> bytes,
                                      LinkType link) {
  Result<UdpFrame> frame = ParseUdpFrame(bytes, link);
  if (!frame.ok()) return Error{frame.code(), frame.message()};
  if (frame->udp.dst_port != kUetUdpPort) {
    return Error{ErrorCode::kWrongUdpPort,
                 "UDP destination port " +
                     std::to_string(frame->udp.dst_port) + " is not 4793"};
  }
  Result<UetPacket> uet = ParseUet(frame->udp_payload);
  if (!uet.ok()) return Error{uet.code(), uet.message()};
  return UetFrame{*frame, *uet};
}

}  // namespace rue::wire

#endif  // RUE_WIRE_UET_PACKET_H_
