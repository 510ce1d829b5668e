// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/text_output.h"

#include <algorithm>
#include <cstddef>
#include <variant>

namespace rue::dump {
namespace {

constexpr std::size_t kSectionIndent = 2;
constexpr std::size_t kCellIndent = 4;

// The one-line text of a brief cell; empty for a false flag.
std::string CellText(const Cell& cell) {
  const std::string label(cell.label);
  switch (cell.style) {
    case Style::kBare:
      return cell.value.text;
    case Style::kLabel:
      return label + " " + cell.value.text;
    case Style::kAssign:
      return label + "=" + cell.value.text;
    case Style::kFlag: {
      const bool* set = std::get_if<bool>(&cell.value.json);
      return set && *set ? label : std::string();
    }
    case Style::kParen:
      return "(" + label + " " + cell.value.text + ")";
  }
  return std::string();
}

void Append(std::string& line, const std::string& word) {
  if (word.empty()) return;
  if (!line.empty()) line += ' ';
  line += word;
}

std::string SectionLine(const Section& section) {
  std::string words;
  for (const Cell& cell : section.cells) {
    if (Shown(cell, false)) Append(words, CellText(cell));
  }
  if (words.empty() || !section.inline_title) return words;
  return std::string(section.title) + " " + words;
}

std::size_t KeyWidth(const Record& record) {
  std::size_t width = 0;
  for (const Section& section : record.sections) {
    for (const Cell& cell : section.cells)
      width = std::max(width, cell.key.size());
  }
  return width;
}

void AppendBreakdown(std::string& out, const Section& section,
                     std::size_t width) {
  if (section.cells.empty()) return;
  out += std::string(kSectionIndent, ' ') + std::string(section.title) + "\n";
  for (const Cell& cell : section.cells) {
    std::string key(cell.key);
    key.resize(width, ' ');
    out += std::string(kCellIndent, ' ') + key + "  " + cell.value.text + "\n";
  }
}

}  // namespace

std::string RenderLine(const Record& record) {
  std::string line;
  for (const Section& section : record.sections)
    Append(line, SectionLine(section));
  return line + "\n";
}

std::string RenderVerbose(const Record& record) {
  std::string out = RenderLine(record);
  const std::size_t width = KeyWidth(record);
  for (const Section& section : record.sections)
    AppendBreakdown(out, section, width);
  return out;
}

}  // namespace rue::dump
