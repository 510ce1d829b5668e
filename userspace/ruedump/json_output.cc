// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/json_output.h"

#include <nlohmann/json.hpp>
#include <variant>

namespace rue::dump {
namespace {

using Json = nlohmann::ordered_json;

Json ValueJson(const Value& value) {
  return std::visit([](const auto& v) { return Json(v); }, value.json);
}

void AddCells(Json& object, const Section& section, bool verbose) {
  for (const Cell& cell : section.cells) {
    if (Shown(cell, verbose))
      object[std::string(cell.key)] = ValueJson(cell.value);
  }
}

}  // namespace

std::string RenderJson(const Record& record, bool verbose,
                       std::optional<std::string_view> hex) {
  Json object = Json::object();
  for (const Section& section : record.sections) {
    if (section.key.empty()) {
      AddCells(object, section, verbose);
      continue;
    }
    Json nested = Json::object();
    AddCells(nested, section, verbose);
    if (!nested.empty()) object[std::string(section.key)] = std::move(nested);
  }
  if (hex) object["hex"] = std::string(*hex);
  // Replace, not throw, should a text not be valid UTF-8.
  return object.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace rue::dump
