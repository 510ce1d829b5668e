// SPDX-License-Identifier: GPL-2.0
#include "rueperf/pattern.h"

#include <algorithm>

namespace rue::perf {
namespace {

constexpr size_t kSeedBytes = 4;

// 1..255: mixes the seed and the position so that a message shifted by
// a byte, or one slot's data in another slot, does not match.
uint8_t PatternByte(uint32_t seed, size_t i) {
  uint32_t x = seed * 0x9e3779b1u + static_cast<uint32_t>(i) * 0x85ebca6bu;
  x ^= x >> 15;
  return static_cast<uint8_t>(1 + x % 255);
}

}  // namespace

uint32_t SlotSeed(uint32_t slot, uint32_t size) {
  return size >= kSeedBytes ? slot + 1 : 0;
}

void FillPattern(std::span<uint8_t> buf, uint32_t seed) {
  size_t start = 0;
  if (buf.size() >= kSeedBytes) {
    for (size_t i = 0; i < kSeedBytes; ++i)
      buf[i] = static_cast<uint8_t>(seed >> (8 * (kSeedBytes - 1 - i)));
    start = kSeedBytes;
  } else {
    seed = 0;
  }
  for (size_t i = start; i < buf.size(); ++i) buf[i] = PatternByte(seed, i);
}

std::optional<uint32_t> CheckPattern(std::span<const uint8_t> buf) {
  uint32_t seed = 0;
  size_t start = 0;
  if (buf.size() >= kSeedBytes) {
    for (size_t i = 0; i < kSeedBytes; ++i) seed = seed << 8 | buf[i];
    start = kSeedBytes;
  }
  for (size_t i = start; i < buf.size(); ++i)
    if (buf[i] != PatternByte(seed, i)) return std::nullopt;
  return seed;
}

bool AllZero(std::span<const uint8_t> buf) {
  return std::all_of(buf.begin(), buf.end(), [](uint8_t b) { return b == 0; });
}

}  // namespace rue::perf
