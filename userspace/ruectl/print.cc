// SPDX-License-Identifier: GPL-2.0
#include "ruectl/print.h"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace rue::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr size_t kIndent = 4;
constexpr int kPrettyIndent = 4;

// Text.

std::string ScalarText(const Value& value) {
  if (const auto* number = std::get_if<uint64_t>(&value))
    return std::to_string(*number);
  if (const auto* flag = std::get_if<Flag>(&value)) return flag->text;
  if (const auto* numbers = std::get_if<Numbers>(&value)) return numbers->text;
  if (const auto* words = std::get_if<Words>(&value)) return words->text;
  return std::get<std::string>(value);
}

std::string CellText(const Cell& cell) {
  if (cell.text == Text::kName) return ScalarText(cell.value) + ":";
  return std::string(cell.key) + " " + ScalarText(cell.value);
}

// The record's own lines: the first, then one per kLine cell.  A hidden or
// absent kLine cell still breaks the line, so that the fields after it
// keep their place.
std::vector<std::string> RecordLines(const Record& record, bool details) {
  std::vector<std::string> lines(1);
  bool break_pending = false;
  for (const Cell& cell : record.cells) {
    if (cell.text == Text::kLine) break_pending = true;
    if (!Shown(cell, details) || std::holds_alternative<List>(cell.value))
      continue;
    if (break_pending) lines.emplace_back();
    break_pending = false;
    if (!lines.back().empty()) lines.back() += ' ';
    lines.back() += CellText(cell);
  }
  return lines;
}

void AppendRecord(std::string& out, const Record& record, bool details,
                  size_t indent) {
  std::vector<std::string> lines = RecordLines(record, details);
  out += std::string(indent, ' ') + lines.front() + "\n";
  for (size_t i = 1; i < lines.size(); ++i)
    out += std::string(indent + kIndent, ' ') + lines[i] + "\n";
  for (const Cell& cell : record.cells) {
    const auto* list = std::get_if<List>(&cell.value);
    if (!list || !Shown(cell, details)) continue;
    for (const Record& child : *list)
      AppendRecord(out, child, details, indent + kIndent);
  }
}

// JSON.

Json RecordJson(const Record& record, bool details);

Json ValueJson(const Value& value, bool details) {
  if (const auto* number = std::get_if<uint64_t>(&value)) return *number;
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  if (const auto* flag = std::get_if<Flag>(&value)) return flag->on;
  if (const auto* numbers = std::get_if<Numbers>(&value))
    return numbers->values;
  if (const auto* words = std::get_if<Words>(&value)) return words->values;
  Json array = Json::array();
  for (const Record& child : std::get<List>(value))
    array.push_back(RecordJson(child, details));
  return array;
}

Json RecordJson(const Record& record, bool details) {
  Json object = Json::object();
  for (const Cell& cell : record.cells) {
    if (Shown(cell, details))
      object[std::string(cell.key)] = ValueJson(cell.value, details);
  }
  return object;
}

// GIDs.

struct ZeroRun {
  size_t start = SIZE_MAX;
  size_t length = 0;
};

// RFC 5952: "::" stands for the longest run of two or more zero words,
// the first one on a tie.
ZeroRun LongestZeroRun(const std::array<unsigned, 8>& words) {
  ZeroRun best;
  for (size_t i = 0; i < words.size();) {
    size_t j = i;
    while (j < words.size() && words[j] == 0) ++j;
    if (j - i >= 2 && j - i > best.length) best = ZeroRun{i, j - i};
    i = j == i ? i + 1 : j;
  }
  return best;
}

bool IsV4Mapped(const std::array<unsigned, 8>& words) {
  return words[0] == 0 && words[1] == 0 && words[2] == 0 && words[3] == 0 &&
         words[4] == 0 && words[5] == 0xffff;
}

std::string DottedQuad(const std::array<uint8_t, 16>& gid) {
  char text[sizeof("255.255.255.255")];
  std::snprintf(text, sizeof(text), "%u.%u.%u.%u", gid[12], gid[13], gid[14],
                gid[15]);
  return text;
}

}  // namespace

std::string RenderText(std::span<const Record> records, bool details) {
  std::string out;
  for (const Record& record : records) AppendRecord(out, record, details, 0);
  return out;
}

std::string RenderJson(std::span<const Record> records, bool details,
                       bool pretty) {
  Json array = Json::array();
  for (const Record& record : records)
    array.push_back(RecordJson(record, details));
  // Replace, not throw, should a name not be valid UTF-8.
  return array.dump(pretty ? kPrettyIndent : -1, ' ', false,
                    Json::error_handler_t::replace) +
         "\n";
}

void Print(std::ostream& out, std::span<const Record> records,
           const Options& options) {
  if (options.json)
    out << RenderJson(records, options.details, options.pretty);
  else
    out << RenderText(records, options.details);
}

Value YesNo(const std::optional<bool>& value) {
  if (!value) return Absent{};
  return Flag{*value, *value ? "yes" : "no"};
}

std::string_view NameOf(std::span<const std::string_view> names,
                        unsigned value) {
  if (value >= names.size() || names[value].empty()) return "UNKNOWN";
  return names[value];
}

Value Named(const std::optional<uint8_t>& value,
            std::span<const std::string_view> names) {
  if (!value) return Absent{};
  return std::string(NameOf(names, *value));
}

std::string FormatGid(const std::array<uint8_t, 16>& gid) {
  std::array<unsigned, 8> words;
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = (gid[2 * i] << 8) | gid[2 * i + 1];
  if (IsV4Mapped(words)) return "::ffff:" + DottedQuad(gid);
  ZeroRun skip = LongestZeroRun(words);
  std::string text;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i == skip.start) {
      text += i == 0 ? "::" : ":";
      i += skip.length - 1;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof(hex), "%x", words[i]);
    text += hex;
    if (i + 1 < words.size()) text += ':';
  }
  return text;
}

}  // namespace rue::cli
