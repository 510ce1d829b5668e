// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// pfc_inject --fuzz: random MAC Control frames for a receiver's PFC
// handler, and what a receiver that follows IEEE 802.1Qbb and 802.3
// clause 31 - and counts as rue documents (Documentation/congestion.md,
// "PFC counters") - shows for the frames it was sent: every frame in
// exactly one of malformed and ignored, or pausing each priority it
// enables that has PFC on (and ignored too if it enables others).
#ifndef RUE_WIRE_TOOLS_PFC_FUZZ_H_
#define RUE_WIRE_TOOLS_PFC_FUZZ_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/ethernet.h"
#include "rue/wire/pfc.h"

namespace rue::pfc_inject {

// Frames as long as veth and a 1500-byte MTU let through.
inline constexpr std::size_t kFuzzMaxFrame = 1514;

// A random frame with EtherType 0x8808 from `src`: to the MAC Control
// address mostly, else to `receiver`, another station or broadcast; a PFC
// opcode mostly, else 802.3x PAUSE or any; any enable vector and times;
// 60 bytes mostly, else a runt (14 to 59), a longer frame (61 to 1514)
// or garbage after the EtherType.
std::vector<std::byte> FuzzFrame(std::mt19937_64& rng,
                                 const wire::MacAddress& src,
                                 const wire::MacAddress& receiver);

// The receiver's side: its MAC and the priorities it has PFC on for.
struct Receiver {
  wire::MacAddress mac{};
  uint8_t pfc_enable = 0;
};

// What the receiver's counters move by.
struct Expected {
  uint64_t malformed = 0;                              // rx_pfc_malformed
  uint64_t ignored = 0;                                // rx_pfc_ignored
  std::array<uint64_t, wire::kPfcPriorities> pause{};  // rx_prioN_pause

  bool operator==(const Expected&) const = default;
};

// Adds what `frame` (EtherType 0x8808, at least the Ethernet header)
// does at `rx`: not to the MAC Control address or rx's own (802.3
// 31.3.3) or 802.3x PAUSE (no PFC priority to pause) - ignored; shorter
// than the minimum frame or another opcode - malformed; else a pause of
// each priority enabled in the low byte of the vector (the reserved high
// byte is ignored on receipt, 802.1Qbb 36.1.3.2) that rx has PFC on for,
// and ignored once if it enables any other.
void Count(std::span<const std::byte> frame, const Receiver& rx, Expected* out);

// "malformed=N ignored=N pause=P0,P1,...,P7": one line for a script.
std::string ExpectedText(const Expected& e);

}  // namespace rue::pfc_inject

#endif  // RUE_WIRE_TOOLS_PFC_FUZZ_H_
