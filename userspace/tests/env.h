// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Knobs the fuzzing tests take from the environment (RUE_FUZZ_SEED and
// the like), so that a run can be replayed or made longer.
#ifndef RUE_TESTS_ENV_H_
#define RUE_TESTS_ENV_H_

#include <cstdint>
#include <cstdlib>

namespace rue::test {

// The number in environment variable @name, or @dflt if it is unset.
inline uint64_t EnvOr(const char* name, uint64_t dflt) {
  const char* v = getenv(name);
  return v && *v ? strtoull(v, nullptr, 0) : dflt;
}

}  // namespace rue::test

#endif  // RUE_TESTS_ENV_H_
