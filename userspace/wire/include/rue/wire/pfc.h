// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// IEEE 802.1Qbb Priority-based Flow Control frames: the MAC Control frame
// (IEEE 802.3 clause 31, EtherType 0x8808) whose opcode 0x0101 pauses
// each of the eight priorities for its own time (802.3 annex 31D).  60
// bytes on the wire before the FCS, which this library never includes:
//
//   bytes 0-5    destination: 01:80:C2:00:00:01 (MAC Control multicast)
//   bytes 6-11   source MAC
//   bytes 12-13  EtherType 0x8808
//   bytes 14-15  MAC Control opcode 0x0101 (0x0001 is 802.3x PAUSE)
//   bytes 16-17  priority_enable_vector ("class-enable vector"): the high
//                byte is reserved, bit n of the low byte is priority n
//   bytes 18-33  time[0] .. time[7], 16 bits each, in quanta of 512 bit
//                times; time[n] means something only when bit n is set
//   bytes 34-59  zero padding to the 60-byte minimum frame
//
// PfcFrame::Parse() decodes without judging, reserved bits and all, so that
// tools can show any frame; ParsePfcFrame() applies the rules.
#ifndef RUE_WIRE_PFC_H_
#define RUE_WIRE_PFC_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "rue/wire/ethernet.h"
#include "rue/wire/reader.h"
#include "rue/wire/result.h"
#include "rue/wire/writer.h"

namespace rue::wire {

inline constexpr uint16_t kEtherTypeMacControl = 0x8808;
inline constexpr uint16_t kMacControlOpcodePause = 0x0001;  // 802.3x
inline constexpr uint16_t kMacControlOpcodePfc = 0x0101;    // 802.1Qbb
// The reserved multicast address MAC Control frames are sent to; bridges
// do not forward it (IEEE 802.1Q reserved addresses).
inline constexpr MacAddress kMacControlAddress = {0x01, 0x80, 0xC2,
                                                  0x00, 0x00, 0x01};
inline constexpr std::size_t kPfcPriorities = 8;
// Ethernet's minimum frame (802.3 minFrameSize, 64 bytes) without the
// 4-byte FCS.
inline constexpr std::size_t kMinFrameSizeNoFcs = 60;
inline constexpr std::size_t kFcsSize = 4;
// A pause quantum is 512 bit times (802.3 annexes 31B and 31D).
inline constexpr uint64_t kBitsPerPauseQuantum = 512;

struct PfcFrame {
  static constexpr std::size_t kEthernetSize = EthernetHeader::kSize;
  static constexpr std::size_t kEtherTypeOffset = 12;
  // Opcode, priority_enable_vector, time[0..7].
  static constexpr std::size_t kMacControlSize = 2 + 2 + 2 * kPfcPriorities;
  static constexpr std::size_t kPadSize =
      kMinFrameSizeNoFcs - kEthernetSize - kMacControlSize;
  // What Parse() reads and Write() writes: the whole frame, pad included.
  static constexpr std::size_t kSize = kMinFrameSizeNoFcs;
  static constexpr uint16_t kEnableMask = 0x00FF;
  static constexpr uint16_t kReservedMask = 0xFF00;

  MacAddress dst = kMacControlAddress;
  MacAddress src{};
  uint16_t ethertype = kEtherTypeMacControl;
  uint16_t opcode = kMacControlOpcodePfc;
  uint16_t priority_enable_vector = 0;  // high byte reserved
  std::array<uint16_t, kPfcPriorities> time{};  // quanta

  // Sets bit `priority` and its time; 0 quanta is XON (resume now).
  // Precondition: priority < kPfcPriorities.
  void Pause(std::size_t priority, uint16_t quanta) {
    priority_enable_vector |= static_cast<uint16_t>(1u << priority);
    time[priority] = quanta;
  }

  bool Enabled(std::size_t priority) const {
    return priority < kPfcPriorities &&
           (priority_enable_vector & (1u << priority)) != 0;
  }

  // Reads kSize bytes; the pad is skipped unread (802.3 annex 31D: it is
  // reserved, sent as zero).
  static std::optional<PfcFrame> Parse(Reader& r) {
    PfcFrame f;
    for (uint8_t& b : f.dst) r.ReadU8(&b);
    for (uint8_t& b : f.src) r.ReadU8(&b);
    r.ReadU16(&f.ethertype);
    r.ReadU16(&f.opcode);
    r.ReadU16(&f.priority_enable_vector);
    for (uint16_t& t : f.time) r.ReadU16(&t);
    r.Skip(kPadSize);
    if (!r.ok()) return std::nullopt;
    return f;
  }

  // Writes kSize bytes, the pad as zeros, every field as it is (a tool may
  // want a wrong EtherType or opcode, or reserved bits set).
  bool Write(Writer& w) const {
    for (uint8_t b : dst) w.WriteU8(b);
    for (uint8_t b : src) w.WriteU8(b);
    w.WriteU16(ethertype);
    w.WriteU16(opcode);
    w.WriteU16(priority_enable_vector);
    for (uint16_t t : time) w.WriteU16(t);
    w.WriteRepeated(kPadSize, std::byte{0});
    return w.ok();
  }

  bool operator==(const PfcFrame&) const = default;
};
static_assert(PfcFrame::kEthernetSize == PfcFrame::kEtherTypeOffset + 2);
static_assert(PfcFrame::kMacControlSize == 20);
static_assert(PfcFrame::kPadSize == 26);
static_assert(PfcFrame::kSize == 60 && PfcFrame::kSize + kFcsSize == 64);
static_assert((PfcFrame::kEnableMask | PfcFrame::kReservedMask) == 0xFFFF);

// The frame's kSize bytes.
inline std::array<std::byte, PfcFrame::kSize> EncodePfcFrame(
    const PfcFrame& frame) {
  std::array<std::byte, PfcFrame::kSize> out{};
  Writer w(out);
  frame.Write(w);  // cannot fail: the buffer is exactly kSize
  return out;
}

namespace internal {

inline std::string Hex16(uint16_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) {
    out += kDigits[(value >> shift) & 0xF];
  }
  return out;
}

}  // namespace internal

// Checks, in this order: at least an Ethernet header (kTruncated), the
// EtherType (kWrongEtherType; a VLAN tag counts as wrong, MAC Control
// frames are untagged), the 60-byte minimum frame (kTruncated), the opcode
// (kWrongMacControlOpcode, 802.3x PAUSE included), the reserved byte of
// the priority_enable_vector (kReservedBitsSet).  Does not check the
// destination (802.3 clause 31 also lets a station accept its own unicast
// address), the pad, or time[n] of priorities not enabled.  Bytes after
// the 60 (a longer frame, or an FCS) are ignored.
inline Result<PfcFrame> ParsePfcFrame(std::span<const std::byte> bytes) {
  using internal::Hex16;
  if (bytes.size() < PfcFrame::kEthernetSize) {
    return Error{ErrorCode::kTruncated,
                 "Ethernet header: need " +
                     std::to_string(PfcFrame::kEthernetSize) +
                     " bytes, have " + std::to_string(bytes.size())};
  }
  Reader r(bytes.subspan(PfcFrame::kEtherTypeOffset));
  uint16_t ethertype = 0;
  r.ReadU16(&ethertype);
  if (ethertype != kEtherTypeMacControl) {
    return Error{ErrorCode::kWrongEtherType,
                 "EtherType " + Hex16(ethertype) + " is not MAC Control (" +
                     Hex16(kEtherTypeMacControl) + ")"};
  }
  Reader frame_reader(bytes);
  std::optional<PfcFrame> f = PfcFrame::Parse(frame_reader);
  if (!f) {
    return Error{ErrorCode::kTruncated,
                 "PFC frame: need " + std::to_string(PfcFrame::kSize) +
                     " bytes (the minimum frame, no FCS), have " +
                     std::to_string(bytes.size())};
  }
  if (f->opcode != kMacControlOpcodePfc) {
    return Error{ErrorCode::kWrongMacControlOpcode,
                 "MAC Control opcode " + Hex16(f->opcode) +
                     (f->opcode == kMacControlOpcodePause ? " (802.3x PAUSE)"
                                                          : "") +
                     " is not PFC (" + Hex16(kMacControlOpcodePfc) + ")"};
  }
  if ((f->priority_enable_vector & PfcFrame::kReservedMask) != 0) {
    return Error{ErrorCode::kReservedBitsSet,
                 "priority_enable_vector " +
                     Hex16(f->priority_enable_vector) +
                     " has reserved bits set (" +
                     Hex16(PfcFrame::kReservedMask) + ")"};
  }
  return *f;
}

// How long `quanta` pause quanta last on a link of link_mbps Mb/s, in
// nanoseconds, rounded up so that a pause is never cut short; nullopt for
// a speed of 0 (unknown).  One quantum is 51.2 ns at 10 Gb/s, 5.12 ns at
// 100 Gb/s; 65535 quanta at 100 Gb/s are 335.54 us.
constexpr std::optional<uint64_t> PauseQuantaToNanoseconds(uint32_t quanta,
                                                           uint32_t link_mbps) {
  if (link_mbps == 0) return std::nullopt;
  // bits / (Mb/s) = us, so bits * 1000 / (Mb/s) = ns.  At most
  // 2^32 * 512 * 1000 < 2^62: no overflow.
  const uint64_t scaled = quanta * kBitsPerPauseQuantum * 1000;
  return (scaled + link_mbps - 1) / link_mbps;
}
static_assert(PauseQuantaToNanoseconds(1, 10000) == 52);  // 51.2 rounded up
static_assert(PauseQuantaToNanoseconds(10, 10000) == 512);
static_assert(PauseQuantaToNanoseconds(65535, 100000) == 335540);
static_assert(PauseQuantaToNanoseconds(65535, 1000) == 33553920);
static_assert(!PauseQuantaToNanoseconds(1, 0));

}  // namespace rue::wire

#endif  // RUE_WIRE_PFC_H_
