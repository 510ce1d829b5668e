// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Ultra Ethernet Transport headers (UE 1.0.1 chapter 3: PDS 3.5, SES 3.4),
// as plain structs decoded and encoded field by field with Reader/Writer.
// The layouts are those of Documentation/uet.md ("Wire format"), which
// says where the public sources differ and which one this library follows.
//
// Like roce.h: Parse() decodes bytes without judging them (reserved bits
// are kept so a packet re-encodes unchanged; uet_packet.h applies the
// rules); Write() fails and poisons the writer if a field does not fit its
// width.  Every multi-byte field is big-endian.  Bit numbers below count
// from the most significant bit of the field they are in (bit 15 of the
// prologue is the first bit on the wire).
#ifndef RUE_WIRE_UET_H_
#define RUE_WIRE_UET_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"

namespace rue::wire {

// IANA-assigned UDP destination port for UET (UE 1.0.1 3.5.10.1).
inline constexpr uint16_t kUetUdpPort = 4793;

// PDS packet types, prologue bits 15-11 (UE 1.0.1 3.5.10).
enum class PdsType : uint8_t {
  kTss = 1,  // encryption header (TSS); not decoded by this library
  kRudReq = 2,
  kRodReq = 3,
  kRudiReq = 4,
  kRudiResp = 5,
  kUudReq = 6,
  kAck = 7,
  kAckCc = 8,
  kAckCcx = 9,
  kNack = 10,
  kCtrl = 11,
  kNackCcx = 12,
  kRudCcReq = 13,
  kRodCcReq = 14,
};

// Prologue bits 10-7 of every type but CTRL: the SES header that follows.
enum class NextHeader : uint8_t {
  kNone = 0,
  kReqSmall = 1,
  kReqMedium = 2,
  kReqStd = 3,
  kRsp = 4,
  kRspData = 5,
  kRspDataSmall = 6,
};

// Prologue bits 10-7 of a CTRL packet.
enum class CtlType : uint8_t {
  kNoop = 0,
  kAckReq = 1,
  kClear = 2,
  kClearReq = 3,
  kClose = 4,
  kCloseReq = 5,
  kProbe = 6,
  kCredit = 7,
  kCreditReq = 8,
  kNegotiation = 9,  // [RP] and [X2] only
};

// The 7 prologue flag bits, per packet type.
namespace pds_flags {
// RUD/ROD requests (and *_CC_REQ).
inline constexpr uint8_t kRetx = 0x10;
inline constexpr uint8_t kAr = 0x08;
inline constexpr uint8_t kSyn = 0x04;
// ACK, ACK_CC, ACK_CCX.
inline constexpr uint8_t kM = 0x20;  // ECN marked packet seen
inline constexpr uint8_t kP = 0x08;  // probe response
inline constexpr uint8_t kReqMask = 0x06;
inline constexpr int kReqShift = 1;
// NACK, NACK_CCX: M and RETX as above, and NT (1: a RUDI NACK).
inline constexpr uint8_t kNt = 0x08;
// CTRL: RETX, AR and SYN as for requests, and ISROD.
inline constexpr uint8_t kIsRod = 0x20;
}  // namespace pds_flags

// ACK prologue REQ field (bits 2-1).
enum class AckRequest : uint8_t { kNone = 0, kClear = 1, kClose = 2 };

// ACK_CC cc_type.
enum class CcType : uint8_t { kNscc = 0, kCredit = 1 };

// Entropy header: only when UET runs directly over IP (protocol 253 in
// [RP]); over UDP the entropy rides in the UDP source port.  4 bytes.
struct UetEntropy {
  static constexpr std::size_t kSize = 4;

  uint16_t entropy = 0;
  uint16_t rsvd = 0;

  static std::optional<UetEntropy> Parse(Reader& r) {
    UetEntropy h;
    r.ReadU16(&h.entropy);
    r.ReadU16(&h.rsvd);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    w.WriteU16(entropy);
    w.WriteU16(rsvd);
    return w.ok();
  }

  bool operator==(const UetEntropy&) const = default;
};
static_assert(UetEntropy::kSize == 2 + 2);

// The 16-bit PDS prologue: type[15:11] | next_hdr or ctl_type[10:7] |
// flags[6:0].
struct PdsPrologue {
  static constexpr std::size_t kSize = 2;
  static constexpr int kTypeShift = 11;
  static constexpr int kNextShift = 7;
  static constexpr uint8_t kTypeMax = 0x1F;
  static constexpr uint8_t kNextMax = 0x0F;
  static constexpr uint8_t kFlagsMask = 0x7F;

  uint8_t type = 0;      // PdsType
  uint8_t next_hdr = 0;  // NextHeader, or CtlType for CTRL
  uint8_t flags = 0;     // pds_flags

  static constexpr PdsPrologue Decode(uint16_t v) {
    return PdsPrologue{static_cast<uint8_t>(v >> kTypeShift),
                       static_cast<uint8_t>((v >> kNextShift) & kNextMax),
                       static_cast<uint8_t>(v & kFlagsMask)};
  }
  constexpr uint16_t Encode() const {
    return static_cast<uint16_t>((type << kTypeShift) |
                                 (next_hdr << kNextShift) | flags);
  }
  constexpr bool Fits() const {
    return type <= kTypeMax && next_hdr <= kNextMax && flags <= kFlagsMask;
  }
  constexpr bool Has(uint8_t flag) const { return (flags & flag) != 0; }

  static std::optional<PdsPrologue> Parse(Reader& r) {
    uint16_t v = 0;
    if (!r.ReadU16(&v)) return std::nullopt;
    return Decode(v);
  }

  bool Write(Writer& w) const {
    if (!Fits()) {
      w.Fail();
      return false;
    }
    return w.WriteU16(Encode());
  }

  bool operator==(const PdsPrologue&) const = default;
};
static_assert(PdsPrologue{2, 3, 0x10}.Encode() == 0x1190);
static_assert(PdsPrologue::Decode(0x5c30) == PdsPrologue{11, 8, 0x30});

// The 16 bits that hold the DPDCID, or, while SYN is set (UE 1.0.1
// 3.5.8.2: the target has no PDC yet), pdc_info[15:12] | psn_offset[11:0].
// pdc_info's first bit (0x8 of the nibble) is "use a reserved PDC".  Kept
// raw; the accessors read the SYN view.
struct PdcIdOrSyn {
  static constexpr uint16_t kPsnOffsetMask = 0x0FFF;
  static constexpr int kPdcInfoShift = 12;
  static constexpr uint8_t kUseReservedPdc = 0x8;

  static constexpr uint8_t PdcInfo(uint16_t v) {
    return static_cast<uint8_t>(v >> kPdcInfoShift);
  }
  static constexpr uint16_t PsnOffset(uint16_t v) {
    return v & kPsnOffsetMask;
  }
  // Fails (nullopt) if a value does not fit.
  static constexpr std::optional<uint16_t> Make(uint8_t pdc_info,
                                                uint16_t psn_offset) {
    if (pdc_info > 0xF || psn_offset > kPsnOffsetMask) return std::nullopt;
    return static_cast<uint16_t>((pdc_info << kPdcInfoShift) | psn_offset);
  }
};
static_assert(PdcIdOrSyn::Make(0x8, 0x876) == 0x8876);

// *_CC_REQ request CC state: ccc_id:8 | credit_target:24.  4 bytes.
struct PdsReqCcState {
  static constexpr std::size_t kSize = 4;
  static constexpr uint32_t kCreditTargetMax = 0xFFFFFF;

  uint8_t ccc_id = 0;
  uint32_t credit_target = 0;  // 24 bits

  bool operator==(const PdsReqCcState&) const = default;
};

// RUD_REQ, ROD_REQ (12 bytes) and RUD_CC_REQ, ROD_CC_REQ (16 bytes).
struct PdsRequest {
  static constexpr std::size_t kSize = 12;
  static constexpr std::size_t kCcSize = kSize + PdsReqCcState::kSize;

  PdsPrologue prologue;
  int16_t clear_psn_offset = 0;  // PSN - clear_psn_offset is cleared
  uint32_t psn = 0;
  uint16_t spdcid = 0;
  uint16_t dpdcid = 0;  // or pdc_info | psn_offset when SYN (PdcIdOrSyn)
  std::optional<PdsReqCcState> cc;  // exactly for the *_CC_REQ types

  bool syn() const { return prologue.Has(pds_flags::kSyn); }
  std::size_t size() const { return cc ? kCcSize : kSize; }

  // Reads the fields after the prologue; with_cc for the *_CC_REQ types.
  static std::optional<PdsRequest> Parse(Reader& r, PdsPrologue p,
                                         bool with_cc) {
    PdsRequest h;
    h.prologue = p;
    uint16_t clear = 0;
    r.ReadU16(&clear);
    r.ReadU32(&h.psn);
    r.ReadU16(&h.spdcid);
    r.ReadU16(&h.dpdcid);
    h.clear_psn_offset = static_cast<int16_t>(clear);
    if (with_cc) {
      PdsReqCcState cc;
      r.ReadU8(&cc.ccc_id);
      r.ReadU24(&cc.credit_target);
      h.cc = cc;
    }
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    if (cc && cc->credit_target > PdsReqCcState::kCreditTargetMax) {
      w.Fail();
      return false;
    }
    prologue.Write(w);
    w.WriteU16(static_cast<uint16_t>(clear_psn_offset));
    w.WriteU32(psn);
    w.WriteU16(spdcid);
    w.WriteU16(dpdcid);
    if (cc) {
      w.WriteU8(cc->ccc_id);
      w.WriteU24(cc->credit_target);
    }
    return w.ok();
  }

  bool operator==(const PdsRequest&) const = default;
};
static_assert(PdsRequest::kSize == 2 + 2 + 4 + 2 + 2);
static_assert(PdsRequest::kCcSize == 16);

// The 20 bytes ACK_CC and ACK_CCX add to an ACK:
//   byte 0     cc_type (ACK_CC) or ccx_type (ACK_CCX) [7:4] | cc_flags [3:0]
//   byte 1     mpr (maximum PSN range the receiver accepts)
//   bytes 2-3  sack_psn_offset (signed; SACK base = cack_psn + offset)
//   bytes 4-11 sack_bitmap
//   bytes 12-19 ack_cc_state (ACK_CC) or ack_ccx_state (ACK_CCX)
// ACK_CCX: this library reads 8 bytes of state, as [X2] and [WS] do and as
// the xdp2 sample frame carries; [RP] reads 16 (a 40-byte header).
struct PdsAckCc {
  static constexpr std::size_t kSize = 20;

  uint8_t cc_type = 0;   // 4 bits: CcType, or the CCX type
  uint8_t cc_flags = 0;  // 4 bits
  uint8_t mpr = 0;
  int16_t sack_psn_offset = 0;
  uint64_t sack_bitmap = 0;
  uint64_t cc_state = 0;

  // NSCC cc_state: service_time:16 | restore_cwnd:1 | rcv_cwnd_pend:7 |
  // rcvd_bytes:24 | ooo_count:16.
  uint16_t service_time() const { return static_cast<uint16_t>(cc_state >> 48); }
  bool restore_cwnd() const { return ((cc_state >> 47) & 1) != 0; }
  uint8_t rcv_cwnd_pend() const {
    return static_cast<uint8_t>((cc_state >> 40) & 0x7F);
  }
  uint32_t rcvd_bytes() const {
    return static_cast<uint32_t>((cc_state >> 16) & 0xFFFFFF);
  }
  // Both NSCC and credit.
  uint16_t ooo_count() const { return static_cast<uint16_t>(cc_state); }
  // Credit cc_state: credit:24 | rsvd:24 | ooo_count:16.
  uint32_t credit() const { return static_cast<uint32_t>(cc_state >> 40); }
  uint32_t credit_rsvd() const {
    return static_cast<uint32_t>((cc_state >> 16) & 0xFFFFFF);
  }

  static constexpr uint64_t MakeNscc(uint16_t service_time, bool restore_cwnd,
                                     uint8_t rcv_cwnd_pend,
                                     uint32_t rcvd_bytes, uint16_t ooo_count) {
    return (uint64_t{service_time} << 48) |
           (uint64_t{restore_cwnd} << 47) |
           (uint64_t{rcv_cwnd_pend & 0x7Fu} << 40) |
           (uint64_t{rcvd_bytes & 0xFFFFFFu} << 16) | ooo_count;
  }
  static constexpr uint64_t MakeCredit(uint32_t credit, uint16_t ooo_count) {
    return (uint64_t{credit & 0xFFFFFFu} << 40) | ooo_count;
  }

  bool operator==(const PdsAckCc&) const = default;
};
static_assert(PdsAckCc::kSize == 1 + 1 + 2 + 8 + 8);
static_assert(PdsAckCc::MakeNscc(0x99aa, true, 0x7f, 0x887766, 0x8765) ==
              0x99aaff8877668765);

// ACK (12 bytes), ACK_CC and ACK_CCX (32 bytes).
struct PdsAck {
  static constexpr std::size_t kSize = 12;
  static constexpr std::size_t kCcSize = kSize + PdsAckCc::kSize;

  PdsPrologue prologue;
  // ack_psn_offset (signed: the PSN acknowledged is cack_psn + offset), or
  // probe_opaque when P is set.  Kept raw.
  uint16_t ack_psn_offset = 0;
  uint32_t cack_psn = 0;  // cumulative ACK PSN
  uint16_t spdcid = 0;
  uint16_t dpdcid = 0;
  std::optional<PdsAckCc> cc;  // exactly for ACK_CC and ACK_CCX

  AckRequest request() const {
    return static_cast<AckRequest>(
        (prologue.flags & pds_flags::kReqMask) >> pds_flags::kReqShift);
  }
  std::size_t size() const { return cc ? kCcSize : kSize; }

  static std::optional<PdsAck> Parse(Reader& r, PdsPrologue p, bool with_cc) {
    PdsAck h;
    h.prologue = p;
    r.ReadU16(&h.ack_psn_offset);
    r.ReadU32(&h.cack_psn);
    r.ReadU16(&h.spdcid);
    r.ReadU16(&h.dpdcid);
    if (with_cc) {
      PdsAckCc cc;
      uint8_t b0 = 0;
      uint16_t sack = 0;
      r.ReadU8(&b0);
      r.ReadU8(&cc.mpr);
      r.ReadU16(&sack);
      r.ReadU64(&cc.sack_bitmap);
      r.ReadU64(&cc.cc_state);
      cc.cc_type = b0 >> 4;
      cc.cc_flags = b0 & 0x0F;
      cc.sack_psn_offset = static_cast<int16_t>(sack);
      h.cc = cc;
    }
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    if (cc && (cc->cc_type > 0xF || cc->cc_flags > 0xF)) {
      w.Fail();
      return false;
    }
    prologue.Write(w);
    w.WriteU16(ack_psn_offset);
    w.WriteU32(cack_psn);
    w.WriteU16(spdcid);
    w.WriteU16(dpdcid);
    if (cc) {
      w.WriteU8(static_cast<uint8_t>((cc->cc_type << 4) | cc->cc_flags));
      w.WriteU8(cc->mpr);
      w.WriteU16(static_cast<uint16_t>(cc->sack_psn_offset));
      w.WriteU64(cc->sack_bitmap);
      w.WriteU64(cc->cc_state);
    }
    return w.ok();
  }

  bool operator==(const PdsAck&) const = default;
};
static_assert(PdsAck::kSize == 2 + 2 + 4 + 2 + 2);
static_assert(PdsAck::kCcSize == 32);

// NACK codes (UE 1.0.1 3.5.12.7), the table [RP], [X2] and [WS] share.
enum class NackCode : uint8_t {
  kTrimmed = 0x01,
  kTrimmedLastHop = 0x02,
  kTrimmedAck = 0x03,
  kNoPdcAvail = 0x04,
  kNoCccAvail = 0x05,
  kNoBitmap = 0x06,
  kNoPktBuffer = 0x07,
  kNoGtdDelAvail = 0x08,
  kNoSesMsgAvail = 0x09,
  kNoResource = 0x0A,
  kPsnOorWindow = 0x0B,
  // 0x0C is not assigned.
  kRodOoo = 0x0D,
  kInvDpdcid = 0x0E,
  kPdcHdrMismatch = 0x0F,
  kClosing = 0x10,
  kClosingInErr = 0x11,
  kPktNotRcvd = 0x12,
  kGtdRespUnavail = 0x13,
  kAckWithData = 0x14,
  kInvalidSyn = 0x15,
  kPdcModeMismatch = 0x16,
  kNewStartPsn = 0x17,
  kRcvdSesProcg = 0x18,
  kUnexpEvent = 0x19,
  kRcvrInferLoss = 0x1A,
  kExpNackNormal = 0xFD,
  kExpNackErr = 0xFE,
  kExpNackFatal = 0xFF,
};

// NACK (16 bytes) and NACK_CCX (24 bytes: [X2] adds nccx_type:4 |
// nccx_state:60; the length is not public elsewhere).
struct PdsNack {
  static constexpr std::size_t kSize = 16;
  static constexpr std::size_t kCcxSize = kSize + 8;

  PdsPrologue prologue;
  uint8_t nack_code = 0;  // NackCode
  uint8_t vendor_code = 0;
  uint32_t nack_psn = 0;  // or the pkt_id of a RUDI NACK (NT set)
  uint16_t spdcid = 0;
  uint16_t dpdcid = 0;
  uint32_t payload = 0;  // meaning depends on nack_code
  std::optional<uint64_t> ccx;  // NACK_CCX: nccx_type[63:60] | state

  std::size_t size() const { return ccx ? kCcxSize : kSize; }

  static std::optional<PdsNack> Parse(Reader& r, PdsPrologue p,
                                      bool with_ccx) {
    PdsNack h;
    h.prologue = p;
    r.ReadU8(&h.nack_code);
    r.ReadU8(&h.vendor_code);
    r.ReadU32(&h.nack_psn);
    r.ReadU16(&h.spdcid);
    r.ReadU16(&h.dpdcid);
    r.ReadU32(&h.payload);
    if (with_ccx) {
      uint64_t v = 0;
      r.ReadU64(&v);
      h.ccx = v;
    }
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    prologue.Write(w);
    w.WriteU8(nack_code);
    w.WriteU8(vendor_code);
    w.WriteU32(nack_psn);
    w.WriteU16(spdcid);
    w.WriteU16(dpdcid);
    w.WriteU32(payload);
    if (ccx) w.WriteU64(*ccx);
    return w.ok();
  }

  bool operator==(const PdsNack&) const = default;
};
static_assert(PdsNack::kSize == 2 + 1 + 1 + 4 + 2 + 2 + 4);

// CTRL, 16 bytes ([RP], [X2] pds.h; the xdp2 sample generator writes only
// the first 12).  ctl_type sits where other types have next_hdr.
struct PdsCtrl {
  static constexpr std::size_t kSize = 16;

  PdsPrologue prologue;
  uint16_t probe_opaque = 0;  // rsvd unless PROBE
  uint32_t psn = 0;
  uint16_t spdcid = 0;
  uint16_t dpdcid = 0;   // or pdc_info | psn_offset when SYN (PdcIdOrSyn)
  uint32_t payload = 0;  // SACK base PSN (PROBE), credit (CREDIT), ...

  CtlType ctl_type() const { return static_cast<CtlType>(prologue.next_hdr); }
  bool syn() const { return prologue.Has(pds_flags::kSyn); }

  static std::optional<PdsCtrl> Parse(Reader& r, PdsPrologue p) {
    PdsCtrl h;
    h.prologue = p;
    r.ReadU16(&h.probe_opaque);
    r.ReadU32(&h.psn);
    r.ReadU16(&h.spdcid);
    r.ReadU16(&h.dpdcid);
    r.ReadU32(&h.payload);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    prologue.Write(w);
    w.WriteU16(probe_opaque);
    w.WriteU32(psn);
    w.WriteU16(spdcid);
    w.WriteU16(dpdcid);
    w.WriteU32(payload);
    return w.ok();
  }

  bool operator==(const PdsCtrl&) const = default;
};
static_assert(PdsCtrl::kSize == 2 + 2 + 4 + 2 + 2 + 4);

// RUDI_REQ and RUDI_RESP: no PDC, a packet ID instead of a PSN.  8 bytes.
struct PdsRudi {
  static constexpr std::size_t kSize = 8;

  PdsPrologue prologue;
  uint16_t rsvd = 0;
  uint32_t pkt_id = 0;

  static std::optional<PdsRudi> Parse(Reader& r, PdsPrologue p) {
    PdsRudi h;
    h.prologue = p;
    r.ReadU16(&h.rsvd);
    r.ReadU32(&h.pkt_id);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    prologue.Write(w);
    w.WriteU16(rsvd);
    w.WriteU32(pkt_id);
    return w.ok();
  }

  bool operator==(const PdsRudi&) const = default;
};
static_assert(PdsRudi::kSize == 2 + 2 + 4);

// UUD_REQ: the prologue and 16 reserved bits.  4 bytes.
struct PdsUud {
  static constexpr std::size_t kSize = 4;

  PdsPrologue prologue;
  uint16_t rsvd = 0;

  static std::optional<PdsUud> Parse(Reader& r, PdsPrologue p) {
    PdsUud h;
    h.prologue = p;
    if (!r.ReadU16(&h.rsvd)) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    prologue.Write(w);
    w.WriteU16(rsvd);
    return w.ok();
  }

  bool operator==(const PdsUud&) const = default;
};
static_assert(PdsUud::kSize == 2 + 2);

}  // namespace rue::wire

#endif  // RUE_WIRE_UET_H_
