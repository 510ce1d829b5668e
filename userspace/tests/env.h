// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Knobs the fuzzing tests take from the environment (RUE_FUZZ_SEED and
// the like), so that a run can be replayed or made longer.
#ifndef RUE_TESTS_ENV_H_
#define RUE_TESTS_ENV_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

namespace rue::test {

// The number in environment variable @name, or @dflt if it is unset.
inline uint64_t EnvOr(const char* name, uint64_t dflt) {
  const char* v = getenv(name);
  return v && *v ? strtoull(v, nullptr, 0) : dflt;
}

// The seed of a fuzzing test: RUE_FUZZ_SEED, or a random one.  Printed
// and recorded in the test's XML, so that a failing run can be replayed.
inline uint64_t FuzzSeed() {
  const uint64_t seed = EnvOr("RUE_FUZZ_SEED", std::random_device{}());
  testing::Test::RecordProperty("seed", std::to_string(seed));
  std::cout << "# seed " << seed << " (RUE_FUZZ_SEED to replay)\n";
  return seed;
}

}  // namespace rue::test

#endif  // RUE_TESTS_ENV_H_
