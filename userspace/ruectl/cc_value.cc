// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_value.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <bitset>
#include <cerrno>
#include <charconv>

namespace rue::cli {
namespace {

constexpr std::string_view kEcnModes[] = {"off", "ect0", "ect1"};
static_assert(RUE_ECN_OFF == 0 && RUE_ECN_ECT0 == 1 && RUE_ECN_ECT1 == 2);
constexpr std::string_view kTsas[] = {"strict", "ets"};
static_assert(RUE_TSA_STRICT == 0 && RUE_TSA_ETS == 1);

constexpr uint32_t kAllPrios = (1u << kPrioCount) - 1;

nl::Error Invalid(std::string message) {
  return nl::Error{EINVAL, std::move(message)};
}

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t end; (end = text.find(separator, start)) != text.npos;
       start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

// "first" or "first-last".
std::string RangeText(unsigned first, unsigned last) {
  std::string text = std::to_string(first);
  if (last != first) text += "-" + std::to_string(last);
  return text;
}

struct Range {
  uint32_t first;
  uint32_t last;
};

// "N" or "N-M", each from 0 to `max`; `what` names the numbers in errors.
nl::Result<Range> ParseRange(std::string_view text, uint32_t max,
                             std::string_view what) {
  if (text.empty()) return Invalid("empty entry");
  size_t dash = text.find('-');
  std::string_view ends[] = {text.substr(0, dash),
                             dash == text.npos ? text : text.substr(dash + 1)};
  uint32_t values[2];
  for (int i = 0; i < 2; ++i) {
    nl::Result<uint32_t> value = ParseNumber(ends[i], max);
    if (!value.ok())
      return Invalid(std::string(what) + " " + Quoted(ends[i]) + ": " +
                     value.error().message);
    values[i] = *value;
  }
  if (values[0] > values[1])
    return Invalid("range " + Quoted(text) + " runs backwards");
  return Range{values[0], values[1]};
}

// A per-priority table: kPrioCount values, or PRIO:VALUE pairs (see
// ParseTsaTable()).  `parse` reads one value; in errors, `what` names the
// values ("TSA") and `pair` the pairs ("PRIO:TSA").
template <typename Parse>
nl::Result<std::vector<PrioValue>> ParsePrioTable(std::string_view text,
                                                  std::string_view what,
                                                  std::string_view pair,
                                                  Parse parse) {
  std::vector<std::string_view> entries = Split(text, ',');
  bool pairs = text.find(':') != text.npos;
  if (!pairs && entries.size() != kPrioCount)
    return Invalid("expected " + std::to_string(kPrioCount) +
                   " values, priority 0 first, or " + std::string(pair) +
                   " entries; got " + std::to_string(entries.size()));
  std::vector<PrioValue> table;
  std::bitset<kPrioCount> seen;
  for (size_t i = 0; i < entries.size(); ++i) {
    Range prios{static_cast<uint32_t>(i), static_cast<uint32_t>(i)};
    std::string_view value_text = entries[i];
    if (pairs) {
      std::vector<std::string_view> sides = Split(entries[i], ':');
      if (sides.size() != 2)
        return Invalid("entry " + Quoted(entries[i]) + " is not " +
                       std::string(pair));
      nl::Result<Range> range =
          ParseRange(sides[0], kPrioCount - 1, "priority");
      if (!range.ok()) return range.error();
      prios = *range;
      value_text = sides[1];
    }
    nl::Result<uint32_t> value = parse(value_text);
    if (!value.ok())
      return Invalid(std::string(what) + " " + Quoted(value_text) + ": " +
                     value.error().message);
    for (uint32_t prio = prios.first; prio <= prios.last; ++prio) {
      if (seen[prio])
        return Invalid("priority " + std::to_string(prio) + " given twice");
      seen[prio] = true;
      table.push_back(
          {static_cast<uint8_t>(prio), static_cast<uint8_t>(*value)});
    }
  }
  return table;
}

std::string JoinTable(const PrioTable& table,
                      std::string (*text)(uint8_t value)) {
  std::string joined;
  for (uint8_t value : table)
    joined += (joined.empty() ? "" : ",") + text(value);
  return joined;
}

}  // namespace

nl::Result<uint32_t> ParseNumber(std::string_view text, uint32_t max) {
  return ParseNumber(text, 0, max);
}

nl::Result<uint32_t> ParseNumber(std::string_view text, uint32_t min,
                                 uint32_t max) {
  if (text.empty() || !std::all_of(text.begin(), text.end(),
                                   [](char c) { return c >= '0' && c <= '9'; }))
    return Invalid("not a decimal number");
  uint64_t value = 0;
  std::from_chars_result parsed =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc() || value < min || value > max)
    return Invalid("out of range " + std::to_string(min) + "-" +
                   std::to_string(max));
  return static_cast<uint32_t>(value);
}

std::string_view EcnName(uint32_t mode) {
  if (mode >= std::size(kEcnModes)) return "UNKNOWN";
  return kEcnModes[mode];
}

nl::Result<uint32_t> ParseEcn(std::string_view word) {
  for (uint32_t mode = 0; mode < std::size(kEcnModes); ++mode) {
    if (word == kEcnModes[mode]) return mode;
  }
  return Invalid("expected off, ect0 or ect1");
}

std::string_view TsaName(uint32_t tsa) {
  if (tsa >= std::size(kTsas)) return "UNKNOWN";
  return kTsas[tsa];
}

nl::Result<uint32_t> ParseTsa(std::string_view word) {
  for (uint32_t tsa = 0; tsa < std::size(kTsas); ++tsa) {
    if (word == kTsas[tsa]) return tsa;
  }
  return Invalid("expected strict or ets");
}

nl::Result<bool> ParseFlag(std::string_view word) {
  if (word == "on" || word == "1") return true;
  if (word == "off" || word == "0") return false;
  return Invalid("expected on, off, 1 or 0");
}

std::string FormatPrios(uint32_t mask) {
  std::string text;
  for (unsigned prio = 0; prio < kPrioCount; ++prio) {
    if (!(mask & (1u << prio))) continue;
    unsigned last = prio;
    while (last + 1 < kPrioCount && (mask & (1u << (last + 1)))) ++last;
    text += (text.empty() ? "" : ",") + RangeText(prio, last);
    prio = last;
  }
  return text.empty() ? "none" : text;
}

std::vector<uint64_t> PrioList(uint32_t mask) {
  std::vector<uint64_t> prios;
  for (unsigned prio = 0; prio < kPrioCount; ++prio) {
    if (mask & (1u << prio)) prios.push_back(prio);
  }
  return prios;
}

nl::Result<uint32_t> ParsePrios(std::string_view text) {
  if (text == "all") return kAllPrios;
  if (text == "none") return 0u;
  uint32_t mask = 0;
  for (std::string_view entry : Split(text, ',')) {
    nl::Result<Range> range = ParseRange(entry, kPrioCount - 1, "priority");
    if (!range.ok()) return range.error();
    for (uint32_t prio = range->first; prio <= range->last; ++prio)
      mask |= 1u << prio;
  }
  return mask;
}

std::string FormatDscpMap(const DscpMap& map) {
  std::string text;
  for (size_t dscp = 0; dscp < map.size(); ++dscp) {
    size_t last = dscp;
    while (last + 1 < map.size() && map[last + 1] == map[dscp]) ++last;
    text += (text.empty() ? "" : ",") + RangeText(dscp, last) + ":" +
            std::to_string(map[dscp]);
    dscp = last;
  }
  return text;
}

nl::Result<std::vector<DscpPrio>> ParseDscpPrio(std::string_view text) {
  std::vector<DscpPrio> entries;
  std::bitset<kDscpCount> seen;
  for (std::string_view entry : Split(text, ',')) {
    std::vector<std::string_view> sides = Split(entry, ':');
    if (sides.size() != 2)
      return Invalid("entry " + Quoted(entry) + " is not DSCP:PRIO");
    nl::Result<Range> dscps = ParseRange(sides[0], kDscpCount - 1, "DSCP");
    if (!dscps.ok()) return dscps.error();
    nl::Result<uint32_t> prio = ParseNumber(sides[1], kPrioCount - 1);
    if (!prio.ok())
      return Invalid("priority " + Quoted(sides[1]) + ": " +
                     prio.error().message);
    for (uint32_t dscp = dscps->first; dscp <= dscps->last; ++dscp) {
      if (seen[dscp])
        return Invalid("DSCP " + std::to_string(dscp) + " given twice");
      seen[dscp] = true;
      entries.push_back(
          {static_cast<uint8_t>(dscp), static_cast<uint8_t>(*prio)});
    }
  }
  return entries;
}

std::string FormatTsaTable(const PrioTable& table) {
  return JoinTable(table,
                   [](uint8_t tsa) { return std::string(TsaName(tsa)); });
}

std::vector<std::string> TsaNames(const PrioTable& table) {
  std::vector<std::string> names;
  for (uint8_t tsa : table) names.emplace_back(TsaName(tsa));
  return names;
}

std::string FormatNumberTable(const PrioTable& table) {
  return JoinTable(table, [](uint8_t value) { return std::to_string(value); });
}

nl::Result<std::vector<PrioValue>> ParseTsaTable(std::string_view text) {
  return ParsePrioTable(text, "TSA", "PRIO:TSA", ParseTsa);
}

nl::Result<std::vector<PrioValue>> ParseNumberTable(std::string_view text,
                                                    uint32_t max) {
  return ParsePrioTable(
      text, "value", "PRIO:VALUE",
      [max](std::string_view value) { return ParseNumber(value, max); });
}

}  // namespace rue::cli
