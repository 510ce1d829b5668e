// SPDX-License-Identifier: GPL-2.0
#include "ruectl/pdc_fields.h"

#include <string>

#include "ruectl/names.h"

namespace rue::cli {
namespace {

template <typename T>
Value Number(const std::optional<T>& value) {
  if (!value) return Absent{};
  return uint64_t{*value};
}

Value Name(const std::optional<uint8_t>& value,
           std::string_view (*name)(uint8_t)) {
  if (!value) return Absent{};
  return std::string(name(*value));
}

Value YesNo(const std::optional<bool>& value) {
  if (!value) return Absent{};
  return Flag{*value, *value ? "yes" : "no"};
}

// Two lines of text per PDC: who it connects, then its PSN state (the
// initiator's send state, or the target's receive state: a PDC has one of
// them, the other is absent).
constexpr Field<Pdc> kPdcFields[] = {
    {"dev", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Value(p.dev); }},
    {"dev-index", Text::kKeyValue, Level::kDetail,
     [](const Pdc& p) { return Value(uint64_t{p.dev_index}); }},
    {"pdc", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Value(uint64_t{p.local_id}); }},
    {"role", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Name(p.role, PdcRoleName); }},
    {"mode", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Name(p.mode, UetModeName); }},
    {"peer", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return p.peer ? Value(*p.peer) : Value(Absent{}); }},
    {"peer-pdc", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.remote_id); }},
    {"job", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.job); }},
    {"qpn", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.qpn); }},
    {"syn", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return YesNo(p.syn); }},
    {"closing", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return YesNo(p.closing); }},
    {"next-psn", Text::kLine, Level::kBrief,
     [](const Pdc& p) { return Number(p.next_psn); }},
    {"una-psn", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.una_psn); }},
    {"srtt-us", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.srtt_us); }},
    {"rto-us", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.rto_us); }},
    {"retries", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.retries); }},
    {"cwnd", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Number(p.cwnd); }},
    {"rx-next-psn", Text::kLine, Level::kBrief,
     [](const Pdc& p) { return Number(p.rx_next_psn); }},
};

}  // namespace

Record PdcRecord(const Pdc& pdc) { return MakeRecord(pdc, kPdcFields); }

}  // namespace rue::cli
