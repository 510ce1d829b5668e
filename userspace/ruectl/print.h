// SPDX-License-Identifier: GPL-2.0
//
// The one print path.  An object declares each field of what it shows
// once, as a Field: its key (the JSON key, and the text label), how the
// text output places it, whether only -d shows it, and how to get its
// value.  MakeRecord() turns an object into a Record through that list,
// and Print() writes only Records, as text or as JSON, so the two cannot
// drift apart.
//
// Text, in the style of rdma(8): one line per record, its name fields
// first ("0: rue0:"), then "key value" pairs; a kLine field starts a line
// of its own, indented by four spaces; the records of a list field (a
// device's GIDs) follow on lines indented four spaces further.
//
// JSON: an array with one object per record, keys in field order; numbers
// as numbers, flags as booleans, sets of numbers as arrays of numbers,
// lists of words as arrays of strings, list fields as arrays of objects.
// Compact on one line, or indented by four spaces with -p, as rdma(8)
// does.  Absent fields are left out of both.
#ifndef RUE_RUECTL_PRINT_H_
#define RUE_RUECTL_PRINT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace rue::cli {

// The global options, before the object: all three are about output.
struct Options {
  bool json = false;     // -j
  bool pretty = false;   // -p, with -j
  bool details = false;  // -d: the kDetail fields too
};

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
// of sub-records (a device's GIDs), or nothing.
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

std::string RenderText(std::span<const Record> records, bool details);
std::string RenderJson(std::span<const Record> records, bool details,
                       bool pretty);

// `records` out as the global options ask: JSON (-j, -p) or text, with
// the -d fields or without.
void Print(std::ostream& out, std::span<const Record> records,
           const Options& options);

// Values the objects' field lists share.

// A number the kernel may leave out.
template <typename T>
Value Optional(const std::optional<T>& value) {
  if (!value) return Absent{};
  return uint64_t{*value};
}

// yes or no (true or false in JSON), or absent.
Value YesNo(const std::optional<bool>& value);

// The name of enum value `value`: `names` is indexed by value, and a value
// past its end or with an empty entry is "UNKNOWN", as rdma(8) prints it.
std::string_view NameOf(std::span<const std::string_view> names,
                        unsigned value);
// That name as a field's value, or absent.
Value Named(const std::optional<uint8_t>& value,
            std::span<const std::string_view> names);

// A GID or an IPv6 address in standard notation (RFC 5952 compression);
// IPv4-mapped ones as ::ffff:a.b.c.d.
std::string FormatGid(const std::array<uint8_t, 16>& gid);

}  // namespace rue::cli

#endif  // RUE_RUECTL_PRINT_H_
