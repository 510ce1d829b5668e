// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Data patterns: reproducible pseudo-random bytes, and a comparison that
// says where and how two byte ranges differ.
#ifndef RUE_TESTS_PATTERN_H_
#define RUE_TESTS_PATTERN_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <span>

namespace rue::test {

// splitmix64: fast, and every seed gives a different stream.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

void FillRandom(std::span<uint8_t> bytes, uint64_t seed);

// Success if @got equals @want; else where they first differ, how many
// bytes differ, and the bytes around the first difference.
::testing::AssertionResult SameBytes(std::span<const uint8_t> got,
                                     std::span<const uint8_t> want);

}  // namespace rue::test

#endif  // RUE_TESTS_PATTERN_H_
