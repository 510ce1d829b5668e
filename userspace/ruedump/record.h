// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The one description of what ruedump prints.  Every header field is
// declared once, as a Field: its JSON key (kebab-case), its text label,
// how the one-line text output places it, whether only -v shows it, and a
// getter that returns its Value.  A Value carries both spellings at once
// (the JSON value and the text), so the text and the JSON output are two
// renderings of the same Record and cannot drift apart.
#ifndef RUE_RUEDUMP_RECORD_H_
#define RUE_RUEDUMP_RECORD_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace rue::dump {

// A field's value: what JSON gets, and what text gets.
struct Value {
  std::variant<uint64_t, int64_t, double, bool, std::string> json;
  std::string text;
};

// Where the one-line text output puts a field.
enum class Style : uint8_t {
  kBare,    // "value"
  kLabel,   // "label value"
  kAssign,  // "label=value"
  kFlag,    // "label" if the (bool) value is true, nothing otherwise
  kParen,   // "(label value)"
};

// Which output shows a field, in text and JSON alike.
enum class Level : uint8_t {
  kBrief,   // always
  kDetail,  // with -v only
};

struct Cell {
  std::string_view key;    // JSON key and -v label
  std::string_view label;  // one-line text label
  Style style = Style::kBare;
  Level level = Level::kBrief;
  Value value;
};

// One header (or a group of top-level fields).
struct Section {
  // JSON key of the nested object; empty: the cells go to the top level.
  std::string_view key;
  // The -v heading; also printed in front of the one-line fields when
  // inline_title is set ("RETH va=...").
  std::string_view title;
  bool inline_title = false;
  std::vector<Cell> cells;
};

struct Record {
  std::vector<Section> sections;
};

// A field of some decoded object T.
template <typename T>
struct Field {
  std::string_view key;
  std::string_view label;  // empty: same as key
  Style style;
  Level level;
  Value (*get)(const T&);
  // Whether the field applies to this object (e.g. AETH credits only on
  // an ACK); null: always.
  bool (*applies)(const T&) = nullptr;
};

// How a section of T is named.
struct SectionName {
  std::string_view key;
  std::string_view title;
  bool inline_title = false;
};

template <typename T>
Section MakeSection(const T& object, SectionName name,
                    std::type_identity_t<std::span<const Field<T>>> fields) {
  Section section{name.key, name.title, name.inline_title, {}};
  for (const Field<T>& field : fields) {
    if (field.applies && !field.applies(object)) continue;
    std::string_view label = field.label.empty() ? field.key : field.label;
    section.cells.push_back(
        Cell{field.key, label, field.style, field.level, field.get(object)});
  }
  return section;
}

// Whether an output shows a cell, given -v.
inline bool Shown(const Cell& cell, bool verbose) {
  return verbose || cell.level == Level::kBrief;
}

// Value makers.
Value Number(uint64_t number);
// A signed decimal number (UET PSN offsets).
Value Signed(int64_t number);
// "0x" and lower-case hex digits, at least `digits` of them.
Value Hex(uint64_t number, int digits = 1);
Value Text(std::string text);
// A JSON bool; text "1"/"0" unless given.
Value Bool(bool flag, std::string_view yes = "1", std::string_view no = "0");
// Seconds and microseconds since the epoch: a JSON number, text
// "seconds.micros".
Value Seconds(int64_t seconds, int64_t micros);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_RECORD_H_
