// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// InfiniBand transport headers as carried by RoCEv2 (IBTA vol 1, chapter 9;
// RoCEv2 is annex A17).  Each header is a plain struct named after the spec
// fields, decoded and encoded field by field with Reader/Writer.
//
// Parse() decodes bytes without judging them (reserved bits are kept so a
// packet can be re-encoded unchanged); the packet parser applies the rules.
// Write() fails (and poisons the writer) if a field does not fit its width.
#ifndef RUE_WIRE_ROCE_H_
#define RUE_WIRE_ROCE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"

namespace rue::wire {

// IANA-assigned UDP destination port for RoCEv2 (annex A17).
inline constexpr uint16_t kRoceV2UdpPort = 4791;

inline constexpr uint32_t kU24Mask = 0xFFFFFF;

// Base Transport Header, IBTA vol 1 9.2.  12 bytes:
//   byte 0     OpCode
//   byte 1     SE:1 M:1 PadCnt:2 TVer:4
//   bytes 2-3  P_Key
//   byte 4     F(ECN):1 B(ECN):1 Resv6:6   <- masked in the ICRC
//   bytes 5-7  DestQP
//   byte 8     A(ckReq):1 Resv7:7
//   bytes 9-11 PSN
struct Bth {
  static constexpr std::size_t kSize = 12;
  // Byte 1.
  static constexpr uint8_t kSeMask = 0x80;
  static constexpr uint8_t kMigReqMask = 0x40;
  static constexpr uint8_t kPadCountMask = 0x30;
  static constexpr int kPadCountShift = 4;
  static constexpr uint8_t kTverMask = 0x0F;
  // Byte 4.
  static constexpr std::size_t kFecnBecnOffset = 4;
  static constexpr uint8_t kFecnMask = 0x80;
  static constexpr uint8_t kBecnMask = 0x40;
  static constexpr uint8_t kResv6Mask = 0x3F;
  // Byte 8.
  static constexpr uint8_t kAckReqMask = 0x80;
  static constexpr uint8_t kResv7Mask = 0x7F;
  static constexpr uint32_t kDestQpMask = kU24Mask;
  static constexpr uint32_t kPsnMask = kU24Mask;
  static constexpr uint8_t kMaxPadCount = 3;
  // The only transport header version defined (9.2: TVer = 0).
  static constexpr uint8_t kTver = 0;
  static constexpr uint16_t kDefaultPkey = 0xFFFF;

  uint8_t opcode = 0;
  bool se = false;        // solicited event
  bool m = false;         // MigReq
  uint8_t pad_count = 0;  // 0..3 pad bytes after the payload
  uint8_t tver = kTver;
  uint16_t pkey = kDefaultPkey;
  bool fecn = false;
  bool becn = false;
  uint8_t resv6 = 0;
  uint32_t dest_qp = 0;  // 24 bits
  bool ack_req = false;
  uint8_t resv7 = 0;
  uint32_t psn = 0;  // 24 bits

  static std::optional<Bth> Parse(Reader& r) {
    Bth h;
    uint8_t b1 = 0;
    uint8_t b4 = 0;
    uint8_t b8 = 0;
    r.ReadU8(&h.opcode);
    r.ReadU8(&b1);
    r.ReadU16(&h.pkey);
    r.ReadU8(&b4);
    r.ReadU24(&h.dest_qp);
    r.ReadU8(&b8);
    r.ReadU24(&h.psn);
    if (!r.ok()) return std::nullopt;
    h.se = (b1 & kSeMask) != 0;
    h.m = (b1 & kMigReqMask) != 0;
    h.pad_count = static_cast<uint8_t>((b1 & kPadCountMask) >> kPadCountShift);
    h.tver = b1 & kTverMask;
    h.fecn = (b4 & kFecnMask) != 0;
    h.becn = (b4 & kBecnMask) != 0;
    h.resv6 = b4 & kResv6Mask;
    h.ack_req = (b8 & kAckReqMask) != 0;
    h.resv7 = b8 & kResv7Mask;
    return h;
  }

  bool Write(Writer& w) const {
    if (pad_count > kMaxPadCount || tver > kTverMask || resv6 > kResv6Mask ||
        resv7 > kResv7Mask || dest_qp > kDestQpMask || psn > kPsnMask) {
      w.Fail();
      return false;
    }
    w.WriteU8(opcode);
    w.WriteU8(static_cast<uint8_t>((se ? kSeMask : 0) | (m ? kMigReqMask : 0) |
                                   (pad_count << kPadCountShift) | tver));
    w.WriteU16(pkey);
    w.WriteU8(static_cast<uint8_t>((fecn ? kFecnMask : 0) |
                                   (becn ? kBecnMask : 0) | resv6));
    w.WriteU24(dest_qp);
    w.WriteU8(static_cast<uint8_t>((ack_req ? kAckReqMask : 0) | resv7));
    w.WriteU24(psn);
    return w.ok();
  }

  bool operator==(const Bth&) const = default;
};
static_assert(Bth::kSize == 1 + 1 + 2 + 1 + 3 + 1 + 3);

// RDMA Extended Transport Header, IBTA vol 1 9.3 (RETH).  16 bytes.
struct Reth {
  static constexpr std::size_t kSize = 16;

  uint64_t va = 0;
  uint32_t rkey = 0;
  uint32_t dma_length = 0;

  static std::optional<Reth> Parse(Reader& r) {
    Reth h;
    r.ReadU64(&h.va);
    r.ReadU32(&h.rkey);
    r.ReadU32(&h.dma_length);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    w.WriteU64(va);
    w.WriteU32(rkey);
    w.WriteU32(dma_length);
    return w.ok();
  }

  bool operator==(const Reth&) const = default;
};
static_assert(Reth::kSize == 8 + 4 + 4);

// ACK Extended Transport Header, IBTA vol 1 9.3 (AETH).  4 bytes:
// Syndrome (8 bits) then MSN (24 bits).  Syndrome layout (IBTA vol 1 9.3,
// used by the reliable-service rules of 9.7): bit 7 reserved, bits 6-5
// type, bits 4-0 value:
//   type 0 ACK      value = credit count (0x1F: invalid / not reported)
//   type 1 RNR NAK  value = RNR timer code
//   type 3 NAK      value = NAK code
enum class AethType : uint8_t { kAck = 0, kRnrNak = 1, kReserved = 2, kNak = 3 };

enum class NakCode : uint8_t {
  kPsnSequenceError = 0,
  kInvalidRequest = 1,
  kRemoteAccessError = 2,
  kRemoteOperationalError = 3,
  kInvalidRdRequest = 4,
};

struct Aeth {
  static constexpr std::size_t kSize = 4;
  static constexpr int kTypeShift = 5;
  static constexpr uint8_t kTypeMask = 0x60;
  static constexpr uint8_t kValueMask = 0x1F;
  static constexpr uint8_t kInvalidCreditCount = 0x1F;
  static constexpr uint32_t kMsnMask = kU24Mask;

  uint8_t syndrome = 0;
  uint32_t msn = 0;  // 24 bits

  constexpr AethType type() const {
    return static_cast<AethType>((syndrome & kTypeMask) >> kTypeShift);
  }
  constexpr uint8_t value() const { return syndrome & kValueMask; }
  static constexpr uint8_t MakeSyndrome(AethType type, uint8_t value) {
    return static_cast<uint8_t>((static_cast<uint8_t>(type) << kTypeShift) |
                                (value & kValueMask));
  }

  static std::optional<Aeth> Parse(Reader& r) {
    Aeth h;
    r.ReadU8(&h.syndrome);
    r.ReadU24(&h.msn);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    w.WriteU8(syndrome);
    w.WriteU24(msn);  // fails if msn does not fit 24 bits
    return w.ok();
  }

  bool operator==(const Aeth&) const = default;
};
static_assert(Aeth::kSize == 1 + 3);
static_assert(Aeth::MakeSyndrome(AethType::kNak, 0) == 0x60);

// Datagram Extended Transport Header, IBTA vol 1 9.3 (DETH).  8 bytes:
// Q_Key, 8 reserved bits, source QP.
struct Deth {
  static constexpr std::size_t kSize = 8;
  static constexpr uint32_t kSrcQpMask = kU24Mask;

  uint32_t qkey = 0;
  uint8_t rsvd = 0;
  uint32_t src_qp = 0;  // 24 bits

  static std::optional<Deth> Parse(Reader& r) {
    Deth h;
    r.ReadU32(&h.qkey);
    r.ReadU8(&h.rsvd);
    r.ReadU24(&h.src_qp);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    w.WriteU32(qkey);
    w.WriteU8(rsvd);
    w.WriteU24(src_qp);
    return w.ok();
  }

  bool operator==(const Deth&) const = default;
};
static_assert(Deth::kSize == 4 + 1 + 3);

// Immediate Data Extended Transport Header, IBTA vol 1 9.3 (ImmDt).  4
// opaque bytes, kept here as the big-endian value of those bytes (verbs
// hands imm_data to applications in network order too).
struct ImmDt {
  static constexpr std::size_t kSize = 4;

  uint32_t imm = 0;

  static std::optional<ImmDt> Parse(Reader& r) {
    ImmDt h;
    if (!r.ReadU32(&h.imm)) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const { return w.WriteU32(imm); }

  bool operator==(const ImmDt&) const = default;
};
static_assert(ImmDt::kSize == 4);

// Invalidate Extended Transport Header, IBTA vol 1 9.3 (IETH): the R_Key to
// invalidate.  4 bytes.
struct Ieth {
  static constexpr std::size_t kSize = 4;

  uint32_t rkey = 0;

  static std::optional<Ieth> Parse(Reader& r) {
    Ieth h;
    if (!r.ReadU32(&h.rkey)) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const { return w.WriteU32(rkey); }

  bool operator==(const Ieth&) const = default;
};
static_assert(Ieth::kSize == 4);

// Atomic Extended Transport Header, IBTA vol 1 9.3 (AtomicETH).  28 bytes:
// VA, R_Key, Swap (or Add) Data, Compare Data.
struct AtomicEth {
  static constexpr std::size_t kSize = 28;

  uint64_t va = 0;
  uint32_t rkey = 0;
  uint64_t swap_add = 0;
  uint64_t compare = 0;

  static std::optional<AtomicEth> Parse(Reader& r) {
    AtomicEth h;
    r.ReadU64(&h.va);
    r.ReadU32(&h.rkey);
    r.ReadU64(&h.swap_add);
    r.ReadU64(&h.compare);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    w.WriteU64(va);
    w.WriteU32(rkey);
    w.WriteU64(swap_add);
    w.WriteU64(compare);
    return w.ok();
  }

  bool operator==(const AtomicEth&) const = default;
};
static_assert(AtomicEth::kSize == 8 + 4 + 8 + 8);

// Atomic Acknowledge Extended Transport Header, IBTA vol 1 9.3
// (AtomicAckETH): the original remote data.  8 bytes.
struct AtomicAckEth {
  static constexpr std::size_t kSize = 8;

  uint64_t original_data = 0;

  static std::optional<AtomicAckEth> Parse(Reader& r) {
    AtomicAckEth h;
    if (!r.ReadU64(&h.original_data)) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const { return w.WriteU64(original_data); }

  bool operator==(const AtomicAckEth&) const = default;
};
static_assert(AtomicAckEth::kSize == 8);

// The 16 reserved bytes that follow the BTH of a RoCEv2 Congestion
// Notification Packet (annex A17.9.3).  Sent as zero, ignored on receipt;
// kept as read so the packet can be re-encoded unchanged.
struct CnpReserved {
  static constexpr std::size_t kSize = 16;

  std::array<uint8_t, kSize> rsvd{};

  static std::optional<CnpReserved> Parse(Reader& r) {
    CnpReserved h;
    for (uint8_t& b : h.rsvd) r.ReadU8(&b);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    for (uint8_t b : rsvd) w.WriteU8(b);
    return w.ok();
  }

  bool operator==(const CnpReserved&) const = default;
};
static_assert(CnpReserved::kSize == 16);

}  // namespace rue::wire

#endif  // RUE_WIRE_ROCE_H_
