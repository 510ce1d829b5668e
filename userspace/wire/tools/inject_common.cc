// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/inject_common.h"

#include <charconv>
#include <cstring>
#include <system_error>

namespace rue::inject {

std::optional<uint64_t> ParseNumber(std::string_view text, uint64_t max) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, base);
  if (text.empty() || ec != std::errc() || ptr != end || value > max) {
    return std::nullopt;
  }
  return value;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::vector<std::byte>> ParseHex(std::string_view text) {
  std::vector<std::byte> out;
  int high = -1;  // the first digit of a byte, while waiting for the second
  for (char c : text) {
    if ((c == ' ' || c == ':') && high < 0) continue;
    const int digit = HexDigit(c);
    if (digit < 0) return std::nullopt;
    if (high < 0) {
      high = digit;
    } else {
      out.push_back(static_cast<std::byte>(high << 4 | digit));
      high = -1;
    }
  }
  if (high >= 0) return std::nullopt;
  return out;
}

std::string HexString(std::span<const std::byte> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (std::byte b : bytes) {
    out += kDigits[static_cast<uint8_t>(b) >> 4];
    out += kDigits[static_cast<uint8_t>(b) & 0xF];
  }
  return out;
}

std::string ErrnoText(int err) {
  std::string text = std::strerror(err);
  if (const char* name = strerrorname_np(err)) {
    text += std::string(" (") + name + ")";
  }
  return text;
}

}  // namespace rue::inject
