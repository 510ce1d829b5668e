// SPDX-License-Identifier: GPL-2.0
//
// The data --verify checks.  A message carries its seed in its first four
// bytes (big-endian) and a pattern derived from the seed in the rest, so
// that a receiver can tell a right message from a wrong, torn or stale
// one without knowing which one it expected.  Messages shorter than four
// bytes carry the pattern of seed 0 only.  No pattern byte is zero: a
// buffer slot still all zero was never written.
#ifndef RUE_RUEPERF_PATTERN_H_
#define RUE_RUEPERF_PATTERN_H_

#include <cstdint>
#include <optional>
#include <span>

namespace rue::perf {

// The seed of buffer slot @slot (0-based) in messages of @size bytes:
// never 0 for messages that can carry one.
uint32_t SlotSeed(uint32_t slot, uint32_t size);

void FillPattern(std::span<uint8_t> buf, uint32_t seed);

// The seed @buf carries if all of it matches the pattern of that seed.
std::optional<uint32_t> CheckPattern(std::span<const uint8_t> buf);

// Whether every byte of @buf is zero.
bool AllZero(std::span<const uint8_t> buf);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_PATTERN_H_
