// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/record.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <utility>

namespace rue::dump {

Value Number(uint64_t number) { return Value{number, std::to_string(number)}; }

Value Signed(int64_t number) { return Value{number, std::to_string(number)}; }

Value Hex(uint64_t number, int digits) {
  char text[2 + 16 + 1];
  std::snprintf(text, sizeof(text), "0x%0*llx", digits,
                static_cast<unsigned long long>(number));
  return Value{std::string(text), text};
}

Value Text(std::string text) {
  std::string copy = text;
  return Value{std::move(copy), std::move(text)};
}

Value Bool(bool flag, std::string_view yes, std::string_view no) {
  return Value{flag, std::string(flag ? yes : no)};
}

Value Seconds(int64_t seconds, int64_t micros) {
  char text[32];
  std::snprintf(text, sizeof(text), "%lld.%06lld",
                static_cast<long long>(seconds),
                static_cast<long long>(micros));
  // The double nearest to the decimal text, so that JSON prints the same
  // digits (shortest round trip).
  double json = 0;
  std::from_chars(text, text + std::strlen(text), json);
  return Value{json, text};
}

}  // namespace rue::dump
