// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/inject_cli.h"

#include <charconv>
#include <optional>
#include <utility>

#include "tools/inject_common.h"

namespace rue::inject {
namespace {

std::string HexNumber(uint64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, 16);
  return "0x" + std::string(buf, end);
}

}  // namespace

CLI::Validator NumberUpTo(uint64_t max) {
  return CLI::Validator([max](std::string& text) -> std::string {
    const std::optional<uint64_t> n = ParseNumber(text, max);
    if (!n) {
      return "want a number from 0 to " + std::to_string(max) + " (" +
             HexNumber(max) + "), not '" + text + "'";
    }
    text = std::to_string(*n);
    return "";
  }, "");
}

CLI::Validator AtLeastOne(std::string what) {
  return CLI::Validator([what = std::move(what)](std::string& text) {
    return text == "0" ? "want at least 1 " + what : std::string();
  }, "");
}

CLI::Validator HexBytes() {
  return CLI::Validator([](std::string& text) -> std::string {
    if (ParseHex(text)) return "";
    return "want pairs of hex digits (spaces and colons between bytes "
           "allowed), not '" + text + "'";
  }, "");
}

}  // namespace rue::inject
