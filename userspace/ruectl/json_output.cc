// SPDX-License-Identifier: GPL-2.0
#include "ruectl/json_output.h"

#include <nlohmann/json.hpp>

namespace rue::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kPrettyIndent = 4;

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

}  // namespace

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

}  // namespace rue::cli
