// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UET Semantic Sublayer headers (UE 1.0.1 3.4): the three request headers
// (standard, medium, small), the three response headers, the atomic
// extension headers.  Conventions as in uet.h.
#ifndef RUE_WIRE_UET_SES_H_
#define RUE_WIRE_UET_SES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"

namespace rue::wire {

// Request opcodes, 6 bits (UE 1.0.1 3.4.2).  0x30-0x3E are vendor
// opcodes; 0x10/0x11 are SYNC_WRITE/SYNC_ATOMIC only in later drafts
// ([RP]), so this library leaves them unnamed.
enum class SesOpcode : uint8_t {
  kNoOp = 0x00,
  kWrite = 0x01,
  kRead = 0x02,
  kAtomic = 0x03,
  kFetchingAtomic = 0x04,
  kSend = 0x05,
  kRendezvousSend = 0x06,
  kDatagramSend = 0x07,
  kDeferrableSend = 0x08,
  kTaggedSend = 0x09,
  kRendezvousTsend = 0x0A,
  kDeferrableTsend = 0x0B,
  kDeferrableRtr = 0x0C,
  kTsendAtomic = 0x0D,
  kTsendFetchAtomic = 0x0E,
  kMsgError = 0x0F,
};

// Response opcodes, 6 bits.
enum class SesRspOpcode : uint8_t {
  kDefault = 0,
  kResponse = 1,
  kResponseWithData = 2,
  kNoResponse = 3,
};

// Request flags, byte 1 bits 5-0 (bits 7-6 are the version).
namespace ses_flags {
inline constexpr uint8_t kDc = 0x20;   // delivery complete
inline constexpr uint8_t kIe = 0x10;   // initiator error
inline constexpr uint8_t kRel = 0x08;  // relative addressing
inline constexpr uint8_t kHd = 0x04;   // header data present
inline constexpr uint8_t kEom = 0x02;  // end of message
inline constexpr uint8_t kSom = 0x01;  // start of message
inline constexpr uint8_t kMask = 0x3F;
}  // namespace ses_flags

enum class SesRequestKind : uint8_t { kSmall, kMedium, kStd };

// A request header.  The 12 common bytes:
//   byte 0      rsvd:2 | opcode:6
//   byte 1      version:2 | DC IE REL HD EOM SOM
//   bytes 2-3   message_id (standard), or rsvd:2 | request_length:14
//               (small, medium): kept raw in message_id
//   bytes 4-7   ri_generation:8 | job_id:24
//   bytes 8-9   rsvd:4 | pid_on_fep:12
//   bytes 10-11 rsvd:4 | resource_index:12
// then, per kind:
//   small (20)  buffer_offset:64
//   medium (32) header_data (HD set) or buffer_offset:64, initiator:32,
//               memory_key or match_bits:64
//   std (44)    buffer_offset:64 (restart tokens for deferrable sends),
//               initiator:32, memory_key or match_bits:64 (restart tokens
//               for DEFERRABLE_RTR), header_data:64 (SOM set) or
//               rsvd:16 | rsvd:2 | payload_length:14 | message_offset:32
//               (SOM clear), request_length:32
struct SesRequest {
  static constexpr std::size_t kCommonSize = 12;
  static constexpr std::size_t kSmallSize = 20;
  static constexpr std::size_t kMediumSize = 32;
  static constexpr std::size_t kStdSize = 44;
  static constexpr uint32_t kJobIdMax = 0xFFFFFF;
  static constexpr uint16_t kU12Mask = 0x0FFF;
  static constexpr uint16_t kU14Mask = 0x3FFF;

  SesRequestKind kind = SesRequestKind::kStd;
  uint8_t rsvd_opcode = 0;  // 2 bits
  uint8_t opcode = 0;       // 6 bits, SesOpcode
  uint8_t version = 0;      // 2 bits
  uint8_t flags = 0;        // ses_flags
  uint16_t message_id = 0;  // raw bytes 2-3
  uint8_t ri_generation = 0;
  uint32_t job_id = 0;        // 24 bits
  uint16_t pid_on_fep = 0;    // raw bytes 8-9 (rsvd:4 | 12 bits)
  uint16_t resource_index = 0;  // raw bytes 10-11 (rsvd:4 | 12 bits)
  uint64_t buffer_offset = 0;
  uint32_t initiator = 0;
  uint64_t memory_key = 0;  // or match_bits
  uint64_t header_data = 0;  // raw (the SOM=0 view below)
  uint32_t request_length = 0;

  static constexpr std::size_t SizeOf(SesRequestKind kind) {
    return kind == SesRequestKind::kSmall    ? kSmallSize
           : kind == SesRequestKind::kMedium ? kMediumSize
                                             : kStdSize;
  }
  std::size_t size() const { return SizeOf(kind); }
  bool Has(uint8_t flag) const { return (flags & flag) != 0; }
  uint16_t pid() const { return pid_on_fep & kU12Mask; }
  uint16_t ri() const { return resource_index & kU12Mask; }
  // Small and medium: bytes 2-3 carry the request length.
  uint16_t short_request_length() const { return message_id & kU14Mask; }
  // Standard with SOM clear: header_data's other meaning.
  uint16_t payload_length() const {
    return static_cast<uint16_t>((header_data >> 32) & kU14Mask);
  }
  uint32_t message_offset() const {
    return static_cast<uint32_t>(header_data);
  }
  // The 18 reserved bits above payload_length.
  uint32_t header_data_rsvd() const {
    return static_cast<uint32_t>(header_data >> 46);
  }
  static constexpr uint64_t MakeNotSom(uint16_t payload_length,
                                       uint32_t message_offset) {
    return (static_cast<uint64_t>(payload_length & kU14Mask) << 32) |
           message_offset;
  }

  static std::optional<SesRequest> Parse(Reader& r, SesRequestKind kind) {
    SesRequest h;
    h.kind = kind;
    uint8_t b0 = 0;
    uint8_t b1 = 0;
    r.ReadU8(&b0);
    r.ReadU8(&b1);
    r.ReadU16(&h.message_id);
    r.ReadU8(&h.ri_generation);
    r.ReadU24(&h.job_id);
    r.ReadU16(&h.pid_on_fep);
    r.ReadU16(&h.resource_index);
    h.rsvd_opcode = b0 >> 6;
    h.opcode = b0 & 0x3F;
    h.version = b1 >> 6;
    h.flags = b1 & ses_flags::kMask;
    switch (kind) {
      case SesRequestKind::kSmall:
        r.ReadU64(&h.buffer_offset);
        break;
      case SesRequestKind::kMedium:
        r.ReadU64(h.Has(ses_flags::kHd) ? &h.header_data : &h.buffer_offset);
        r.ReadU32(&h.initiator);
        r.ReadU64(&h.memory_key);
        break;
      case SesRequestKind::kStd:
        r.ReadU64(&h.buffer_offset);
        r.ReadU32(&h.initiator);
        r.ReadU64(&h.memory_key);
        r.ReadU64(&h.header_data);
        r.ReadU32(&h.request_length);
        break;
    }
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    if (rsvd_opcode > 3 || opcode > 0x3F || version > 3 ||
        flags > ses_flags::kMask || job_id > kJobIdMax) {
      w.Fail();
      return false;
    }
    w.WriteU8(static_cast<uint8_t>((rsvd_opcode << 6) | opcode));
    w.WriteU8(static_cast<uint8_t>((version << 6) | flags));
    w.WriteU16(message_id);
    w.WriteU8(ri_generation);
    w.WriteU24(job_id);
    w.WriteU16(pid_on_fep);
    w.WriteU16(resource_index);
    switch (kind) {
      case SesRequestKind::kSmall:
        w.WriteU64(buffer_offset);
        break;
      case SesRequestKind::kMedium:
        w.WriteU64(Has(ses_flags::kHd) ? header_data : buffer_offset);
        w.WriteU32(initiator);
        w.WriteU64(memory_key);
        break;
      case SesRequestKind::kStd:
        w.WriteU64(buffer_offset);
        w.WriteU32(initiator);
        w.WriteU64(memory_key);
        w.WriteU64(header_data);
        w.WriteU32(request_length);
        break;
    }
    return w.ok();
  }

  bool operator==(const SesRequest&) const = default;
};
static_assert(SesRequest::kSmallSize == SesRequest::kCommonSize + 8);
static_assert(SesRequest::kMediumSize == SesRequest::kCommonSize + 8 + 4 + 8);
static_assert(SesRequest::kStdSize ==
              SesRequest::kCommonSize + 8 + 4 + 8 + 8 + 4);
static_assert(SesRequest::MakeNotSom(0x345, 0x77665544) == 0x0000034577665544);

enum class SesResponseKind : uint8_t { kRsp, kRspData, kRspDataSmall };

// A response header.  Bytes 0-1 of all three: list:2 | opcode:6,
// version:2 | return_code:6.  Then:
//   RSP (12)            message_id:16, ri_generation:8 | job_id:24,
//                       modified_length:32
//   RSP_DATA (20)       message_id:16, rsvd:8 | job_id:24,
//                       read_request_message_id:16,
//                       rsvd:2 | payload_length:14, modified_length:32,
//                       message_offset:32
//   RSP_DATA_SMALL (12) rsvd:2 | payload_length:14, rsvd:8 | job_id:24,
//                       original_request_psn:32
// payload_length of RSP_DATA: [X2] has 12 bits (rsvd:4); this library
// reads 14 like the two other 14-bit payload lengths, because 12 bits
// cannot say 4096, a full 4 KiB payload.  Raw bits are kept either way.
struct SesResponse {
  static constexpr std::size_t kRspSize = 12;
  static constexpr std::size_t kRspDataSize = 20;
  static constexpr std::size_t kRspDataSmallSize = 12;
  static constexpr uint16_t kU14Mask = 0x3FFF;

  SesResponseKind kind = SesResponseKind::kRsp;
  uint8_t list = 0;         // 2 bits: which list delivered (0 expected)
  uint8_t opcode = 0;       // 6 bits, SesRspOpcode
  uint8_t version = 0;      // 2 bits
  uint8_t return_code = 0;  // 6 bits
  uint16_t message_id = 0;  // RSP, RSP_DATA
  uint8_t ri_generation = 0;  // RSP; the reserved byte in the others
  uint32_t job_id = 0;        // 24 bits
  uint32_t modified_length = 0;        // RSP, RSP_DATA
  uint16_t read_request_message_id = 0;  // RSP_DATA
  uint16_t payload_length = 0;  // RSP_DATA, RSP_DATA_SMALL; raw 16 bits
  uint32_t message_offset = 0;  // RSP_DATA
  uint32_t original_request_psn = 0;  // RSP_DATA_SMALL

  static constexpr std::size_t SizeOf(SesResponseKind kind) {
    return kind == SesResponseKind::kRspData ? kRspDataSize : kRspSize;
  }
  std::size_t size() const { return SizeOf(kind); }
  uint16_t payload_len() const { return payload_length & kU14Mask; }

  static std::optional<SesResponse> Parse(Reader& r, SesResponseKind kind) {
    SesResponse h;
    h.kind = kind;
    uint8_t b0 = 0;
    uint8_t b1 = 0;
    r.ReadU8(&b0);
    r.ReadU8(&b1);
    h.list = b0 >> 6;
    h.opcode = b0 & 0x3F;
    h.version = b1 >> 6;
    h.return_code = b1 & 0x3F;
    switch (kind) {
      case SesResponseKind::kRsp:
        r.ReadU16(&h.message_id);
        r.ReadU8(&h.ri_generation);
        r.ReadU24(&h.job_id);
        r.ReadU32(&h.modified_length);
        break;
      case SesResponseKind::kRspData:
        r.ReadU16(&h.message_id);
        r.ReadU8(&h.ri_generation);
        r.ReadU24(&h.job_id);
        r.ReadU16(&h.read_request_message_id);
        r.ReadU16(&h.payload_length);
        r.ReadU32(&h.modified_length);
        r.ReadU32(&h.message_offset);
        break;
      case SesResponseKind::kRspDataSmall:
        r.ReadU16(&h.payload_length);
        r.ReadU8(&h.ri_generation);
        r.ReadU24(&h.job_id);
        r.ReadU32(&h.original_request_psn);
        break;
    }
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    if (list > 3 || opcode > 0x3F || version > 3 || return_code > 0x3F ||
        job_id > 0xFFFFFF) {
      w.Fail();
      return false;
    }
    w.WriteU8(static_cast<uint8_t>((list << 6) | opcode));
    w.WriteU8(static_cast<uint8_t>((version << 6) | return_code));
    switch (kind) {
      case SesResponseKind::kRsp:
        w.WriteU16(message_id);
        w.WriteU8(ri_generation);
        w.WriteU24(job_id);
        w.WriteU32(modified_length);
        break;
      case SesResponseKind::kRspData:
        w.WriteU16(message_id);
        w.WriteU8(ri_generation);
        w.WriteU24(job_id);
        w.WriteU16(read_request_message_id);
        w.WriteU16(payload_length);
        w.WriteU32(modified_length);
        w.WriteU32(message_offset);
        break;
      case SesResponseKind::kRspDataSmall:
        w.WriteU16(payload_length);
        w.WriteU8(ri_generation);
        w.WriteU24(job_id);
        w.WriteU32(original_request_psn);
        break;
    }
    return w.ok();
  }

  bool operator==(const SesResponse&) const = default;
};
static_assert(SesResponse::kRspSize == 1 + 1 + 2 + 4 + 4);
static_assert(SesResponse::kRspDataSize == 1 + 1 + 2 + 4 + 2 + 2 + 4 + 4);
static_assert(SesResponse::kRspDataSmallSize == 1 + 1 + 2 + 4 + 4);

// Atomic operation extension header (4 bytes), or the compare-and-swap one
// (36 bytes: the 4 and two 16-byte operands).  It follows the request
// header of ATOMIC, FETCHING_ATOMIC, TSEND_ATOMIC and TSEND_FETCH_ATOMIC;
// the CAS form goes with the CSWAP* atomic codes 0x0D-0x12 ([WS]).
struct SesAtomicExt {
  static constexpr std::size_t kSize = 4;
  static constexpr std::size_t kCasSize = kSize + 32;
  static constexpr uint8_t kCacheable = 0x80;
  static constexpr uint8_t kCpuCoherent = 0x40;
  static constexpr uint8_t kVendorMask = 0x07;

  uint8_t atomic_code = 0;
  uint8_t datatype = 0;
  uint8_t semantic_control = 0;
  uint8_t rsvd = 0;
  std::optional<std::array<uint8_t, 16>> compare;  // CAS form only
  std::optional<std::array<uint8_t, 16>> swap;

  static constexpr bool IsCas(uint8_t atomic_code) {
    return atomic_code >= 0x0D && atomic_code <= 0x12;
  }
  static constexpr bool CarriedBy(uint8_t ses_opcode) {
    return ses_opcode == 0x03 || ses_opcode == 0x04 || ses_opcode == 0x0D ||
           ses_opcode == 0x0E;
  }
  std::size_t size() const { return compare ? kCasSize : kSize; }

  static std::optional<SesAtomicExt> Parse(Reader& r) {
    SesAtomicExt h;
    r.ReadU8(&h.atomic_code);
    r.ReadU8(&h.datatype);
    r.ReadU8(&h.semantic_control);
    r.ReadU8(&h.rsvd);
    if (r.ok() && IsCas(h.atomic_code)) {
      std::array<uint8_t, 16> c{};
      std::array<uint8_t, 16> s{};
      for (uint8_t& b : c) r.ReadU8(&b);
      for (uint8_t& b : s) r.ReadU8(&b);
      h.compare = c;
      h.swap = s;
    }
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    if (IsCas(atomic_code) != compare.has_value() ||
        compare.has_value() != swap.has_value()) {
      w.Fail();
      return false;
    }
    w.WriteU8(atomic_code);
    w.WriteU8(datatype);
    w.WriteU8(semantic_control);
    w.WriteU8(rsvd);
    if (compare) {
      for (uint8_t b : *compare) w.WriteU8(b);
      for (uint8_t b : *swap) w.WriteU8(b);
    }
    return w.ok();
  }

  bool operator==(const SesAtomicExt&) const = default;
};
static_assert(SesAtomicExt::kCasSize == 36);

}  // namespace rue::wire

#endif  // RUE_WIRE_UET_SES_H_
