// SPDX-License-Identifier: GPL-2.0
#include "rueperf/values.h"

#include <charconv>
#include <utility>

#include "rueperf/params.h"

namespace rue::perf {
namespace {

std::optional<uint64_t> ParseU64(std::string_view text) {
  uint64_t v = 0;
  if (text.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return v;
}

}  // namespace

std::optional<uint64_t> ParseSize(std::string_view text) {
  uint64_t mult = 1;
  if (!text.empty()) {
    switch (text.back()) {
    case 'k': case 'K': mult = 1ull << 10; break;
    case 'm': case 'M': mult = 1ull << 20; break;
    case 'g': case 'G': mult = 1ull << 30; break;
    default: break;
    }
    if (mult != 1) text.remove_suffix(1);
  }
  std::optional<uint64_t> v = ParseU64(text);
  if (!v || *v > UINT64_MAX / mult) return std::nullopt;
  return *v * mult;
}

std::optional<uint64_t> ParseSeconds(std::string_view text) {
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac =
      dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (dot != std::string_view::npos && frac.empty()) return std::nullopt;
  if (frac.size() > 3) return std::nullopt;
  std::optional<uint64_t> w = whole.empty() && !frac.empty()
                                  ? std::optional<uint64_t>(0)
                                  : ParseU64(whole);
  if (!w || *w > kMaxDurationMs) return std::nullopt;
  uint64_t ms = *w * 1000;
  if (!frac.empty()) {
    std::optional<uint64_t> f = ParseU64(frac);
    if (!f) return std::nullopt;
    for (size_t i = frac.size(); i < 3; ++i) *f *= 10;
    ms += *f;
  }
  return ms;
}

CLI::Validator Count(uint64_t lo, uint64_t hi, bool sized) {
  return CLI::Validator([=](std::string& text) -> std::string {
    std::optional<uint64_t> v = sized ? ParseSize(text) : ParseU64(text);
    if (!v) return "'" + text + "' is not a number";
    if (*v < lo || *v > hi)
      return text + " is out of range " + std::to_string(lo) + ".." +
             std::to_string(hi);
    text = std::to_string(*v);
    return "";
  }, "");
}

CLI::Validator Seconds() {
  return CLI::Validator([](std::string& text) -> std::string {
    std::optional<uint64_t> ms = ParseSeconds(text);
    if (!ms) return "'" + text + "' is not a number of seconds";
    if (*ms == 0 || *ms > kMaxDurationMs)
      return text + " is out of range 0.001..3600 seconds";
    text = std::to_string(*ms);
    return "";
  }, "");
}

CLI::Validator OneOf(std::vector<std::string> names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  const CLI::Validator member = CLI::IsMember(std::move(names));
  return CLI::Validator([member, list](std::string& word) {
    return member(word).empty() ? std::string()
                                : "'" + word + "' is not one of " + list;
  }, "");
}

CLI::Validator DeviceName() {
  return CLI::Validator([](std::string& name) {
    return name.empty() ? std::string("the device name is empty")
                        : std::string();
  }, "");
}

}  // namespace rue::perf
