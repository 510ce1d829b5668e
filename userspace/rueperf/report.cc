// SPDX-License-Identifier: GPL-2.0
#include "rueperf/report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <span>
#include <variant>

namespace rue::perf {
namespace {

struct Absent {};
using Value = std::variant<Absent, uint64_t, double, std::string, bool>;

enum class Line : uint8_t { kParams, kResults };

struct Field {
  std::string_view key;
  Line line;
  Value (*get)(const Report&);
};

Value LatOr(const Report& r, double Latency::*member) {
  if (!r.latency) return Absent{};
  return (*r.latency).*member;
}

// The order here is the order of both outputs.
constexpr Field kFields[] = {
    {"device", Line::kParams, [](const Report& r) -> Value { return r.device; }},
    {"transport", Line::kParams,
     [](const Report& r) -> Value { return std::string(Name(r.params.transport)); }},
    {"op", Line::kParams,
     [](const Report& r) -> Value { return std::string(Name(r.params.op)); }},
    {"test", Line::kParams,
     [](const Report& r) -> Value { return std::string(Name(r.params.test)); }},
    {"size", Line::kParams,
     [](const Report& r) -> Value { return uint64_t{r.params.size}; }},
    {"depth", Line::kParams,
     [](const Report& r) -> Value { return uint64_t{r.params.depth}; }},
    {"peers", Line::kParams,
     [](const Report& r) -> Value { return uint64_t{r.params.peers}; }},
    {"iters", Line::kParams,
     [](const Report& r) -> Value {
       if (!r.params.iters) return Absent{};
       return r.params.iters;
     }},
    {"duration-s", Line::kParams,
     [](const Report& r) -> Value {
       if (!r.params.duration_ms) return Absent{};
       return r.params.duration_ms / 1000.0;
     }},
    {"job", Line::kParams,
     [](const Report& r) -> Value {
       if (!IsUet(r.params.transport)) return Absent{};
       return uint64_t{r.params.job};
     }},
    {"verify", Line::kParams,
     [](const Report& r) -> Value { return r.params.verify; }},
    {"messages", Line::kResults,
     [](const Report& r) -> Value { return r.throughput.messages; }},
    {"bytes", Line::kResults,
     [](const Report& r) -> Value { return r.throughput.bytes; }},
    {"seconds", Line::kResults,
     [](const Report& r) -> Value { return r.throughput.seconds; }},
    {"bw-gbps", Line::kResults,
     [](const Report& r) -> Value { return r.throughput.gbit_per_s; }},
    {"bw-mbyte-s", Line::kResults,
     [](const Report& r) -> Value { return r.throughput.mbyte_per_s; }},
    {"rate-mmsg-s", Line::kResults,
     [](const Report& r) -> Value { return r.throughput.mmsg_per_s; }},
    {"lat-min-us", Line::kResults,
     [](const Report& r) { return LatOr(r, &Latency::min_us); }},
    {"lat-avg-us", Line::kResults,
     [](const Report& r) { return LatOr(r, &Latency::avg_us); }},
    {"lat-p50-us", Line::kResults,
     [](const Report& r) { return LatOr(r, &Latency::p50_us); }},
    {"lat-p99-us", Line::kResults,
     [](const Report& r) { return LatOr(r, &Latency::p99_us); }},
    {"lat-max-us", Line::kResults,
     [](const Report& r) { return LatOr(r, &Latency::max_us); }},
    {"lat-stddev-us", Line::kResults,
     [](const Report& r) { return LatOr(r, &Latency::stddev_us); }},
    {"server-received", Line::kResults,
     [](const Report& r) -> Value {
       if (!r.received) return Absent{};
       return *r.received;
     }},
    {"verified", Line::kResults,
     [](const Report& r) -> Value {
       if (!r.verified) return Absent{};
       return *r.verified;
     }},
    {"verify-errors", Line::kResults,
     [](const Report& r) -> Value {
       if (!r.verified) return Absent{};
       return r.verify_errors;
     }},
};

std::string TextOf(const Value& v) {
  if (const auto* n = std::get_if<uint64_t>(&v)) return std::to_string(*n);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "on" : "off";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", std::get<double>(v));
  return buf;
}

}  // namespace

std::string RenderText(const Report& report) {
  std::string lines[2];
  for (const Field& f : kFields) {
    Value v = f.get(report);
    if (std::holds_alternative<Absent>(v)) continue;
    std::string& line = lines[static_cast<int>(f.line)];
    if (!line.empty()) line += ' ';
    line += std::string(f.key) + ' ' + TextOf(v);
  }
  return lines[0] + "\n    " + lines[1] + "\n";
}

std::string RenderJson(const Report& report, bool pretty) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const Field& f : kFields) {
    Value v = f.get(report);
    std::string key(f.key);
    if (const auto* n = std::get_if<uint64_t>(&v))
      j[key] = *n;
    else if (const auto* d = std::get_if<double>(&v))
      j[key] = *d;
    else if (const auto* s = std::get_if<std::string>(&v))
      j[key] = *s;
    else if (const auto* b = std::get_if<bool>(&v))
      j[key] = *b;
  }
  return j.dump(pretty ? 4 : -1, ' ', false,
                nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace rue::perf
