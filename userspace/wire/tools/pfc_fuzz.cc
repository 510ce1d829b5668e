// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/pfc_fuzz.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace rue::pfc_inject {
namespace {

uint32_t Below(std::mt19937_64& rng, uint32_t n) {
  return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng);
}

uint16_t Any16(std::mt19937_64& rng) { return static_cast<uint16_t>(rng()); }

wire::MacAddress Destination(std::mt19937_64& rng,
                             const wire::MacAddress& receiver) {
  const uint32_t pick = Below(rng, 10);
  if (pick < 7) return wire::kMacControlAddress;
  if (pick == 7) return receiver;
  if (pick == 8) return {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  wire::MacAddress other{};
  for (uint8_t& b : other) b = static_cast<uint8_t>(rng());
  other[0] = (other[0] & 0xfe) | 0x02;  // unicast, locally administered
  if (other == receiver) other[5] ^= 1;
  return other;
}

uint16_t Opcode(std::mt19937_64& rng) {
  const uint32_t pick = Below(rng, 20);
  if (pick < 15) return wire::kMacControlOpcodePfc;
  if (pick < 17) return wire::kMacControlOpcodePause;
  return Any16(rng);
}

// XON, the longest pause and short ones more often than chance would.
uint16_t Quanta(std::mt19937_64& rng) {
  switch (Below(rng, 4)) {
    case 0:
      return 0;
    case 1:
      return 0xffff;
    case 2:
      return static_cast<uint16_t>(Below(rng, 64));
    default:
      return Any16(rng);
  }
}

wire::PfcFrame RandomPfc(std::mt19937_64& rng, const wire::MacAddress& src,
                         const wire::MacAddress& receiver) {
  wire::PfcFrame f;
  f.dst = Destination(rng, receiver);
  f.src = src;
  f.opcode = Opcode(rng);
  f.priority_enable_vector = Any16(rng);
  if (Below(rng, 4) != 0)
    f.priority_enable_vector &= wire::PfcFrame::kEnableMask;
  for (uint16_t& t : f.time) t = Quanta(rng);
  return f;
}

void FillRandom(std::mt19937_64& rng, std::byte* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::byte>(rng());
}

}  // namespace

std::vector<std::byte> FuzzFrame(std::mt19937_64& rng,
                                 const wire::MacAddress& src,
                                 const wire::MacAddress& receiver) {
  const auto bytes = wire::EncodePfcFrame(RandomPfc(rng, src, receiver));
  std::vector<std::byte> frame(bytes.begin(), bytes.end());
  constexpr std::size_t kHeader = wire::PfcFrame::kEthernetSize;
  switch (Below(rng, 20)) {
    case 0:
    case 1:
    case 2:  // a runt
      frame.resize(kHeader + Below(rng, frame.size() - kHeader));
      break;
    case 3:
    case 4:  // longer, with a tail of anything
      frame.resize(frame.size() + 1 + Below(rng, kFuzzMaxFrame - frame.size()));
      FillRandom(rng, frame.data() + bytes.size(), frame.size() - bytes.size());
      break;
    case 5:  // anything after the EtherType
      frame.resize(kHeader + Below(rng, 128));
      FillRandom(rng, frame.data() + kHeader, frame.size() - kHeader);
      break;
    case 6:  // a pad that is not zero
      FillRandom(rng, frame.data() + bytes.size() - wire::PfcFrame::kPadSize,
                 wire::PfcFrame::kPadSize);
      break;
    default:
      break;
  }
  return frame;
}

void Count(std::span<const std::byte> frame, const Receiver& rx,
           Expected* out) {
  wire::MacAddress dst{};
  std::memcpy(dst.data(), frame.data(), dst.size());
  if (dst != wire::kMacControlAddress && dst != rx.mac) {
    ++out->ignored;
    return;
  }
  if (frame.size() < wire::PfcFrame::kSize) {
    ++out->malformed;
    return;
  }
  auto u16 = [&](std::size_t at) {
    return static_cast<uint16_t>(std::to_integer<uint16_t>(frame[at]) << 8 |
                                 std::to_integer<uint16_t>(frame[at + 1]));
  };
  const uint16_t opcode = u16(wire::PfcFrame::kEthernetSize);
  if (opcode == wire::kMacControlOpcodePause) {
    ++out->ignored;
    return;
  }
  if (opcode != wire::kMacControlOpcodePfc) {
    ++out->malformed;
    return;
  }
  const uint8_t enable = u16(wire::PfcFrame::kEthernetSize + 2) & 0xff;
  const uint8_t act = enable & rx.pfc_enable;
  if (enable & ~act) ++out->ignored;
  for (std::size_t p = 0; p < wire::kPfcPriorities; ++p)
    if (act & (1u << p)) ++out->pause[p];
}

std::string ExpectedText(const Expected& e) {
  std::string text = "malformed=" + std::to_string(e.malformed) +
                     " ignored=" + std::to_string(e.ignored) + " pause=";
  for (std::size_t p = 0; p < e.pause.size(); ++p)
    text += (p ? "," : "") + std::to_string(e.pause[p]);
  return text;
}

}  // namespace rue::pfc_inject
