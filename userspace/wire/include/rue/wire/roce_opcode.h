// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The BTH opcode table (IBTA vol 1 9.2.1, OpCode field; the CNP opcode is
// from annex A17.9.3).  Bits 7-5 of the opcode select the transport (RC 000,
// UC 001, RD 010, UD 011, CNP 100) and bits 4-0 the operation.  For every
// opcode the table says which extension headers follow the BTH, in wire
// order, whether a payload follows them, and where the packet sits in a
// message.  RD opcodes (they carry RDETH) are not in the table and are
// reported as unknown, like every unassigned value.
#ifndef RUE_WIRE_ROCE_OPCODE_H_
#define RUE_WIRE_ROCE_OPCODE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "rue/wire/roce.h"

namespace rue::wire {

enum class Opcode : uint8_t {
  // Reliable Connection.
  kRcSendFirst = 0x00,
  kRcSendMiddle = 0x01,
  kRcSendLast = 0x02,
  kRcSendLastWithImmediate = 0x03,
  kRcSendOnly = 0x04,
  kRcSendOnlyWithImmediate = 0x05,
  kRcRdmaWriteFirst = 0x06,
  kRcRdmaWriteMiddle = 0x07,
  kRcRdmaWriteLast = 0x08,
  kRcRdmaWriteLastWithImmediate = 0x09,
  kRcRdmaWriteOnly = 0x0A,
  kRcRdmaWriteOnlyWithImmediate = 0x0B,
  kRcRdmaReadRequest = 0x0C,
  kRcRdmaReadResponseFirst = 0x0D,
  kRcRdmaReadResponseMiddle = 0x0E,
  kRcRdmaReadResponseLast = 0x0F,
  kRcRdmaReadResponseOnly = 0x10,
  kRcAcknowledge = 0x11,
  kRcAtomicAcknowledge = 0x12,
  kRcCompareSwap = 0x13,
  kRcFetchAdd = 0x14,
  kRcSendLastWithInvalidate = 0x16,
  kRcSendOnlyWithInvalidate = 0x17,
  // Memory Placement Extensions (IBTA vol 1 annex A19): RDMA ATOMIC WRITE,
  // 8 bytes stored at once.  (RDMA FLUSH, 0x1C, carries an FETH this
  // table does not have: it stays unknown.)
  kRcAtomicWrite = 0x1D,
  // Unreliable Connection.
  kUcSendFirst = 0x20,
  kUcSendMiddle = 0x21,
  kUcSendLast = 0x22,
  kUcSendLastWithImmediate = 0x23,
  kUcSendOnly = 0x24,
  kUcSendOnlyWithImmediate = 0x25,
  kUcRdmaWriteFirst = 0x26,
  kUcRdmaWriteMiddle = 0x27,
  kUcRdmaWriteLast = 0x28,
  kUcRdmaWriteLastWithImmediate = 0x29,
  kUcRdmaWriteOnly = 0x2A,
  kUcRdmaWriteOnlyWithImmediate = 0x2B,
  // Unreliable Datagram.
  kUdSendOnly = 0x64,
  kUdSendOnlyWithImmediate = 0x65,
  // RoCEv2 Congestion Notification Packet.
  kCnp = 0x81,
};

constexpr uint8_t ToU8(Opcode op) { return static_cast<uint8_t>(op); }

// Extension headers that may follow the BTH.
enum class ExtHeader : uint8_t {
  kReth,
  kAeth,
  kDeth,
  kImmDt,
  kIeth,
  kAtomicEth,
  kAtomicAckEth,
  kCnpReserved,
};

constexpr std::size_t ExtHeaderSize(ExtHeader h) {
  switch (h) {
    case ExtHeader::kReth: return Reth::kSize;
    case ExtHeader::kAeth: return Aeth::kSize;
    case ExtHeader::kDeth: return Deth::kSize;
    case ExtHeader::kImmDt: return ImmDt::kSize;
    case ExtHeader::kIeth: return Ieth::kSize;
    case ExtHeader::kAtomicEth: return AtomicEth::kSize;
    case ExtHeader::kAtomicAckEth: return AtomicAckEth::kSize;
    case ExtHeader::kCnpReserved: return CnpReserved::kSize;
  }
  return 0;
}

constexpr std::string_view ExtHeaderName(ExtHeader h) {
  switch (h) {
    case ExtHeader::kReth: return "RETH";
    case ExtHeader::kAeth: return "AETH";
    case ExtHeader::kDeth: return "DETH";
    case ExtHeader::kImmDt: return "ImmDt";
    case ExtHeader::kIeth: return "IETH";
    case ExtHeader::kAtomicEth: return "AtomicETH";
    case ExtHeader::kAtomicAckEth: return "AtomicAckETH";
    case ExtHeader::kCnpReserved: return "CNP reserved";
  }
  return "?";
}

enum class Transport : uint8_t { kUnknown, kRc, kUc, kUd, kCnp };

// Where a packet sits in a message.
enum class Position : uint8_t { kFirst, kMiddle, kLast, kOnly };

struct OpcodeInfo {
  static constexpr std::size_t kMaxExtHeaders = 2;

  bool known = false;
  std::string_view name = "UNKNOWN";
  Transport transport = Transport::kUnknown;
  std::array<ExtHeader, kMaxExtHeaders> ext_headers{};
  uint8_t ext_header_count = 0;
  bool has_payload = false;
  Position position = Position::kOnly;

  // The extension headers, in wire order.
  constexpr std::span<const ExtHeader> headers() const {
    return std::span<const ExtHeader>(ext_headers.data(), ext_header_count);
  }
  constexpr bool Has(ExtHeader h) const {
    for (ExtHeader e : headers()) {
      if (e == h) return true;
    }
    return false;
  }
  // BTH plus extension headers, in bytes.
  constexpr std::size_t HeaderSize() const {
    std::size_t n = Bth::kSize;
    for (ExtHeader e : headers()) n += ExtHeaderSize(e);
    return n;
  }
};

namespace internal {

constexpr OpcodeInfo MakeOpcode(std::string_view name, Transport transport,
                                Position position, bool has_payload,
                                std::initializer_list<ExtHeader> headers) {
  OpcodeInfo info;
  info.known = true;
  info.name = name;
  info.transport = transport;
  info.position = position;
  info.has_payload = has_payload;
  for (ExtHeader h : headers) {
    info.ext_headers[info.ext_header_count++] = h;
  }
  return info;
}

constexpr std::array<OpcodeInfo, 256> MakeOpcodeTable() {
  using E = ExtHeader;
  using P = Position;
  using T = Transport;
  constexpr bool kPayload = true;
  constexpr bool kNoPayload = false;
  std::array<OpcodeInfo, 256> t{};
  auto set = [&t](Opcode op, OpcodeInfo info) { t[ToU8(op)] = info; };

  // RC.
  set(Opcode::kRcSendFirst,
      MakeOpcode("RC_SEND_FIRST", T::kRc, P::kFirst, kPayload, {}));
  set(Opcode::kRcSendMiddle,
      MakeOpcode("RC_SEND_MIDDLE", T::kRc, P::kMiddle, kPayload, {}));
  set(Opcode::kRcSendLast,
      MakeOpcode("RC_SEND_LAST", T::kRc, P::kLast, kPayload, {}));
  set(Opcode::kRcSendLastWithImmediate,
      MakeOpcode("RC_SEND_LAST_WITH_IMMEDIATE", T::kRc, P::kLast, kPayload,
                 {E::kImmDt}));
  set(Opcode::kRcSendOnly,
      MakeOpcode("RC_SEND_ONLY", T::kRc, P::kOnly, kPayload, {}));
  set(Opcode::kRcSendOnlyWithImmediate,
      MakeOpcode("RC_SEND_ONLY_WITH_IMMEDIATE", T::kRc, P::kOnly, kPayload,
                 {E::kImmDt}));
  set(Opcode::kRcRdmaWriteFirst,
      MakeOpcode("RC_RDMA_WRITE_FIRST", T::kRc, P::kFirst, kPayload,
                 {E::kReth}));
  set(Opcode::kRcRdmaWriteMiddle,
      MakeOpcode("RC_RDMA_WRITE_MIDDLE", T::kRc, P::kMiddle, kPayload, {}));
  set(Opcode::kRcRdmaWriteLast,
      MakeOpcode("RC_RDMA_WRITE_LAST", T::kRc, P::kLast, kPayload, {}));
  set(Opcode::kRcRdmaWriteLastWithImmediate,
      MakeOpcode("RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", T::kRc, P::kLast,
                 kPayload, {E::kImmDt}));
  set(Opcode::kRcRdmaWriteOnly,
      MakeOpcode("RC_RDMA_WRITE_ONLY", T::kRc, P::kOnly, kPayload,
                 {E::kReth}));
  set(Opcode::kRcRdmaWriteOnlyWithImmediate,
      MakeOpcode("RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", T::kRc, P::kOnly,
                 kPayload, {E::kReth, E::kImmDt}));
  set(Opcode::kRcRdmaReadRequest,
      MakeOpcode("RC_RDMA_READ_REQUEST", T::kRc, P::kOnly, kNoPayload,
                 {E::kReth}));
  set(Opcode::kRcRdmaReadResponseFirst,
      MakeOpcode("RC_RDMA_READ_RESPONSE_FIRST", T::kRc, P::kFirst, kPayload,
                 {E::kAeth}));
  set(Opcode::kRcRdmaReadResponseMiddle,
      MakeOpcode("RC_RDMA_READ_RESPONSE_MIDDLE", T::kRc, P::kMiddle,
                 kPayload, {}));
  set(Opcode::kRcRdmaReadResponseLast,
      MakeOpcode("RC_RDMA_READ_RESPONSE_LAST", T::kRc, P::kLast, kPayload,
                 {E::kAeth}));
  set(Opcode::kRcRdmaReadResponseOnly,
      MakeOpcode("RC_RDMA_READ_RESPONSE_ONLY", T::kRc, P::kOnly, kPayload,
                 {E::kAeth}));
  set(Opcode::kRcAcknowledge,
      MakeOpcode("RC_ACKNOWLEDGE", T::kRc, P::kOnly, kNoPayload, {E::kAeth}));
  set(Opcode::kRcAtomicAcknowledge,
      MakeOpcode("RC_ATOMIC_ACKNOWLEDGE", T::kRc, P::kOnly, kNoPayload,
                 {E::kAeth, E::kAtomicAckEth}));
  set(Opcode::kRcCompareSwap,
      MakeOpcode("RC_COMPARE_SWAP", T::kRc, P::kOnly, kNoPayload,
                 {E::kAtomicEth}));
  set(Opcode::kRcFetchAdd,
      MakeOpcode("RC_FETCH_ADD", T::kRc, P::kOnly, kNoPayload,
                 {E::kAtomicEth}));
  set(Opcode::kRcSendLastWithInvalidate,
      MakeOpcode("RC_SEND_LAST_WITH_INVALIDATE", T::kRc, P::kLast, kPayload,
                 {E::kIeth}));
  set(Opcode::kRcSendOnlyWithInvalidate,
      MakeOpcode("RC_SEND_ONLY_WITH_INVALIDATE", T::kRc, P::kOnly, kPayload,
                 {E::kIeth}));

  set(Opcode::kRcAtomicWrite,
      MakeOpcode("RC_ATOMIC_WRITE", T::kRc, P::kOnly, kPayload, {E::kReth}));

  // UC: the send and RDMA write subset of RC, same headers.
  set(Opcode::kUcSendFirst,
      MakeOpcode("UC_SEND_FIRST", T::kUc, P::kFirst, kPayload, {}));
  set(Opcode::kUcSendMiddle,
      MakeOpcode("UC_SEND_MIDDLE", T::kUc, P::kMiddle, kPayload, {}));
  set(Opcode::kUcSendLast,
      MakeOpcode("UC_SEND_LAST", T::kUc, P::kLast, kPayload, {}));
  set(Opcode::kUcSendLastWithImmediate,
      MakeOpcode("UC_SEND_LAST_WITH_IMMEDIATE", T::kUc, P::kLast, kPayload,
                 {E::kImmDt}));
  set(Opcode::kUcSendOnly,
      MakeOpcode("UC_SEND_ONLY", T::kUc, P::kOnly, kPayload, {}));
  set(Opcode::kUcSendOnlyWithImmediate,
      MakeOpcode("UC_SEND_ONLY_WITH_IMMEDIATE", T::kUc, P::kOnly, kPayload,
                 {E::kImmDt}));
  set(Opcode::kUcRdmaWriteFirst,
      MakeOpcode("UC_RDMA_WRITE_FIRST", T::kUc, P::kFirst, kPayload,
                 {E::kReth}));
  set(Opcode::kUcRdmaWriteMiddle,
      MakeOpcode("UC_RDMA_WRITE_MIDDLE", T::kUc, P::kMiddle, kPayload, {}));
  set(Opcode::kUcRdmaWriteLast,
      MakeOpcode("UC_RDMA_WRITE_LAST", T::kUc, P::kLast, kPayload, {}));
  set(Opcode::kUcRdmaWriteLastWithImmediate,
      MakeOpcode("UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", T::kUc, P::kLast,
                 kPayload, {E::kImmDt}));
  set(Opcode::kUcRdmaWriteOnly,
      MakeOpcode("UC_RDMA_WRITE_ONLY", T::kUc, P::kOnly, kPayload,
                 {E::kReth}));
  set(Opcode::kUcRdmaWriteOnlyWithImmediate,
      MakeOpcode("UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", T::kUc, P::kOnly,
                 kPayload, {E::kReth, E::kImmDt}));

  // UD: single-packet sends only, DETH before ImmDt.
  set(Opcode::kUdSendOnly,
      MakeOpcode("UD_SEND_ONLY", T::kUd, P::kOnly, kPayload, {E::kDeth}));
  set(Opcode::kUdSendOnlyWithImmediate,
      MakeOpcode("UD_SEND_ONLY_WITH_IMMEDIATE", T::kUd, P::kOnly, kPayload,
                 {E::kDeth, E::kImmDt}));

  // RoCEv2 CNP (annex A17.9.3): BTH, 16 reserved bytes, ICRC.
  set(Opcode::kCnp, MakeOpcode("CNP", T::kCnp, P::kOnly, kNoPayload,
                               {E::kCnpReserved}));
  return t;
}

}  // namespace internal

// Indexed by the 8-bit BTH opcode.
inline constexpr std::array<OpcodeInfo, 256> kOpcodeTable =
    internal::MakeOpcodeTable();

constexpr const OpcodeInfo& LookupOpcode(uint8_t opcode) {
  return kOpcodeTable[opcode];
}
constexpr const OpcodeInfo& LookupOpcode(Opcode opcode) {
  return kOpcodeTable[ToU8(opcode)];
}

static_assert(LookupOpcode(Opcode::kRcSendOnly).name == "RC_SEND_ONLY");
static_assert(LookupOpcode(Opcode::kRcCompareSwap).HeaderSize() == 40);
static_assert(LookupOpcode(Opcode::kRcAtomicAcknowledge).HeaderSize() == 24);
static_assert(LookupOpcode(Opcode::kUdSendOnlyWithImmediate).HeaderSize() ==
              24);
static_assert(LookupOpcode(Opcode::kCnp).HeaderSize() == 28);
static_assert(!LookupOpcode(0x15).known);  // RESYNC: defined for RD only
static_assert(!LookupOpcode(0xFF).known);

}  // namespace rue::wire

#endif  // RUE_WIRE_ROCE_OPCODE_H_
