// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Small helpers shared by the wire tests.
#ifndef RUE_WIRE_TEST_UTIL_H_
#define RUE_WIRE_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

namespace rue::wire::testing {

inline std::vector<std::byte> Bytes(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  out.reserve(values.size());
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

inline std::vector<std::byte> ToBytes(const std::vector<uint8_t>& values) {
  std::vector<std::byte> out;
  out.reserve(values.size());
  for (uint8_t v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

inline std::vector<uint8_t> ToU8(std::span<const std::byte> bytes) {
  std::vector<uint8_t> out;
  out.reserve(bytes.size());
  for (std::byte b : bytes) out.push_back(static_cast<uint8_t>(b));
  return out;
}

}  // namespace rue::wire::testing

#endif  // RUE_WIRE_TEST_UTIL_H_
