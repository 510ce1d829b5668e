// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Options to bytes.  The wire library lays out the frame; this file fills
// in the fields and breaks the result when asked.
#include "tools/pfc_inject_frame.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rue::pfc_inject {
namespace {

// 0x0008: four digits, as the 16-bit fields are written in 802.1Qbb.
std::string Hex16(uint16_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (int shift = 12; shift >= 0; shift -= 4) {
    out += kDigits[(value >> shift) & 0xF];
  }
  return out;
}

}  // namespace

wire::PfcFrame FrameFor(const Options& options, const wire::MacAddress& src) {
  wire::PfcFrame frame;
  frame.src = src;
  for (std::size_t p = 0; p < wire::kPfcPriorities; ++p) {
    if (options.quanta[p]) frame.Pause(p, *options.quanta[p]);
  }
  if (options.opcode) frame.opcode = *options.opcode;
  if (options.ethertype) frame.ethertype = *options.ethertype;
  if (options.reserved_bits) {
    frame.priority_enable_vector |= wire::PfcFrame::kReservedMask;
  }
  return frame;
}

std::vector<std::byte> BuildFrame(const Options& options,
                                  const wire::MacAddress& src) {
  if (options.raw_hex) return *options.raw_hex;
  const std::array<std::byte, wire::PfcFrame::kSize> bytes =
      wire::EncodePfcFrame(FrameFor(options, src));
  const std::size_t size =
      std::min(options.truncate.value_or(bytes.size()), bytes.size());
  return std::vector<std::byte>(bytes.begin(), bytes.begin() + size);
}

std::string Describe(const Options& options) {
  if (options.raw_hex) return "raw";
  const wire::PfcFrame frame = FrameFor(options, {});
  std::string text = "PFC enable " + Hex16(frame.priority_enable_vector);
  for (std::size_t p = 0; p < wire::kPfcPriorities; ++p) {
    if (options.quanta[p]) {
      text += " time[" + std::to_string(p) +
              "]=" + std::to_string(frame.time[p]);
    }
  }
  if (frame.ethertype != wire::kEtherTypeMacControl) {
    text += ", EtherType " + Hex16(frame.ethertype);
  }
  if (frame.opcode != wire::kMacControlOpcodePfc) {
    text += ", opcode " + Hex16(frame.opcode);
  }
  return text;
}

}  // namespace rue::pfc_inject
