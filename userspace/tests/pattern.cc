// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/pattern.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <sstream>

namespace rue::test {

void FillRandom(std::span<uint8_t> bytes, uint64_t seed) {
  Rng rng(seed);
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t v = rng.Next();
    memcpy(&bytes[i], &v, 8);
  }
  if (i < bytes.size()) {
    uint64_t v = rng.Next();
    memcpy(&bytes[i], &v, bytes.size() - i);
  }
}

namespace {

std::string Hex(std::span<const uint8_t> b, size_t from, size_t to) {
  std::ostringstream s;
  for (size_t i = from; i < to && i < b.size(); i++)
    s << std::hex << std::setw(2) << std::setfill('0') << unsigned{b[i]} << ' ';
  return s.str();
}

}  // namespace

::testing::AssertionResult SameBytes(std::span<const uint8_t> got,
                                     std::span<const uint8_t> want) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure()
           << "length " << got.size() << ", want " << want.size();
  if (memcmp(got.data(), want.data(), got.size()) == 0)
    return ::testing::AssertionSuccess();
  size_t first = got.size(), last = 0, count = 0;
  for (size_t i = 0; i < got.size(); i++) {
    if (got[i] != want[i]) {
      first = std::min(first, i);
      last = i;
      count++;
    }
  }
  size_t from = first >= 8 ? first - 8 : 0;
  return ::testing::AssertionFailure()
         << count << " of " << got.size() << " bytes differ, at offsets "
         << first << ".." << last << "\n  got  @" << from << ": "
         << Hex(got, from, first + 16) << "\n  want @" << from << ": "
         << Hex(want, from, first + 16);
}

}  // namespace rue::test
