// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What roce_inject and pfc_inject share: parsing numbers and hex bytes on
// the command line, printing bytes in hex, naming an errno.
#ifndef RUE_WIRE_TOOLS_INJECT_COMMON_H_
#define RUE_WIRE_TOOLS_INJECT_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rue::inject {

// A number: decimal, or hexadecimal after "0x"; nullopt if it is not one or
// exceeds max.
std::optional<uint64_t> ParseNumber(std::string_view text, uint64_t max);

// Hex digits, two per byte; spaces and colons between bytes are ignored.
std::optional<std::vector<std::byte>> ParseHex(std::string_view text);

// The value of one hex digit, -1 if c is not one.
int HexDigit(char c);

// bytes as lower-case hex digits, nothing between them.
std::string HexString(std::span<const std::byte> bytes);

// strerror(err) and, where glibc knows it, the errno name:
// "Operation not permitted (EPERM)".
std::string ErrnoText(int err);

}  // namespace rue::inject

#endif  // RUE_WIRE_TOOLS_INJECT_COMMON_H_
