// SPDX-License-Identifier: GPL-2.0
//
// The one print path.  A command declares each field of what it shows
// once, as a Field: its key (the JSON key, and the text label), how the
// text output places it, whether only -d shows it, and how to get its
// value.  MakeRecord() turns an object into a Record through that list,
// and both the text and the JSON output are written from Records only,
// so the two cannot drift apart.
#ifndef RUE_RUECTL_RECORD_H_
#define RUE_RUECTL_RECORD_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace rue::cli {

struct Record;
using List = std::vector<Record>;

// A yes-or-no value: a JSON boolean, and in text the word `text` the
// field chose ("on", "yes", ...).
struct Flag {
  bool on;
  std::string text;
};

// A set of numbers (priorities, a DSCP map): a JSON array, and in text
// the compact spelling `text` the field chose ("0-3,5").
struct Numbers {
  std::vector<uint64_t> values;
  std::string text;
};

// A list of words (the TSA of each priority): a JSON array of strings,
// and in text the spelling `text` the field chose ("strict,ets,...").
struct Words {
  std::vector<std::string> values;
  std::string text;
};

// What the kernel did not report: neither output shows the field, so that
// a missing value never reads as a zero.
struct Absent {};

// A number, a string, a flag, a set of numbers, a list of words, a list
// of sub-records (e.g. a device's GIDs, which the text output puts on
// indented lines below their owner), or nothing.
using Value =
    std::variant<uint64_t, std::string, List, Flag, Numbers, Words, Absent>;

// Where the text output puts a scalar field.
enum class Text : uint8_t {
  kKeyValue,  // "key value", in line
  kName,      // "value:", naming the record at the start of its line
  kLine,      // "key value", starting a new line below the record's first,
              // indented one level, for records too long for one line
};

// Which output shows a field.
enum class Level : uint8_t {
  kBrief,   // always
  kDetail,  // with -d only
};

struct Cell {
  std::string_view key;
  Text text;
  Level level;
  Value value;
};

struct Record {
  std::vector<Cell> cells;
};

template <typename T>
struct Field {
  std::string_view key;  // kebab-case
  Text text;
  Level level;
  Value (*get)(const T&);
};

template <typename T>
Record MakeRecord(const T& object,
                  std::type_identity_t<std::span<const Field<T>>> fields) {
  Record record;
  for (const Field<T>& field : fields)
    record.cells.push_back(
        Cell{field.key, field.text, field.level, field.get(object)});
  return record;
}

template <typename T>
List MakeList(std::span<const T> objects,
              std::type_identity_t<std::span<const Field<T>>> fields) {
  List list;
  for (const T& object : objects) list.push_back(MakeRecord(object, fields));
  return list;
}

// Whether output shows `cell`, given -d.
inline bool Shown(const Cell& cell, bool details) {
  return (details || cell.level == Level::kBrief) &&
         !std::holds_alternative<Absent>(cell.value);
}

}  // namespace rue::cli

#endif  // RUE_RUECTL_RECORD_H_
