// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/hex_dump.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace rue::dump {
namespace {

constexpr std::size_t kBytesPerLine = 16;
// "xxxx " for each of the 8 groups: where the ASCII column starts.
constexpr std::size_t kHexColumnWidth = kBytesPerLine / 2 * 5;
constexpr char kDigits[] = "0123456789abcdef";

void AppendByte(std::string& out, std::byte b) {
  const auto v = static_cast<uint8_t>(b);
  out += kDigits[v >> 4];
  out += kDigits[v & 0xF];
}

char Printable(std::byte b) {
  const auto v = static_cast<uint8_t>(b);
  return v >= 0x20 && v < 0x7F ? static_cast<char>(v) : '.';
}

std::string DumpLine(std::size_t offset, std::span<const std::byte> line) {
  char prefix[32];
  std::snprintf(prefix, sizeof(prefix), "  0x%04zx:  ", offset);
  std::string hex;
  for (std::size_t i = 0; i < line.size(); ++i) {
    AppendByte(hex, line[i]);
    if (i % 2 == 1) hex += ' ';
  }
  hex.resize(kHexColumnWidth, ' ');
  std::string ascii;
  for (std::byte b : line) ascii += Printable(b);
  return prefix + hex + " " + ascii + "\n";
}

}  // namespace

std::string HexDump(std::span<const std::byte> bytes) {
  std::string out;
  for (std::size_t offset = 0; offset < bytes.size(); offset += kBytesPerLine) {
    const std::size_t n = std::min(kBytesPerLine, bytes.size() - offset);
    out += DumpLine(offset, bytes.subspan(offset, n));
  }
  return out;
}

std::string HexString(std::span<const std::byte> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (std::byte b : bytes) AppendByte(out, b);
  return out;
}

}  // namespace rue::dump
