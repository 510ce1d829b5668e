// SPDX-License-Identifier: GPL-2.0
#include "ruectl/text_output.h"

#include <type_traits>

namespace rue::cli {
namespace {

constexpr size_t kIndent = 4;

std::string ScalarText(const Value& value) {
  if (const auto* number = std::get_if<uint64_t>(&value))
    return std::to_string(*number);
  return std::get<std::string>(value);
}

std::string CellText(const Cell& cell) {
  if (cell.text == Text::kName) return ScalarText(cell.value) + ":";
  return std::string(cell.key) + " " + ScalarText(cell.value);
}

void AppendRecord(std::string& out, const Record& record, bool details,
                  size_t indent) {
  std::string line(indent, ' ');
  size_t bare = line.size();
  for (const Cell& cell : record.cells) {
    if (!Shown(cell, details) || std::holds_alternative<List>(cell.value))
      continue;
    if (line.size() > bare) line += ' ';
    line += CellText(cell);
  }
  out += line + "\n";
  for (const Cell& cell : record.cells) {
    const auto* list = std::get_if<List>(&cell.value);
    if (!list || !Shown(cell, details)) continue;
    for (const Record& child : *list)
      AppendRecord(out, child, details, indent + kIndent);
  }
}

}  // namespace

std::string RenderText(std::span<const Record> records, bool details) {
  std::string out;
  for (const Record& record : records) AppendRecord(out, record, details, 0);
  return out;
}

}  // namespace rue::cli
