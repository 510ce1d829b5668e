// SPDX-License-Identifier: GPL-2.0
#include "ruectl/qp_fields.h"

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

// One line of text per QP.
constexpr Field<Qp> kQpFields[] = {
    {"dev", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Value(q.dev); }},
    {"dev-index", Text::kKeyValue, Level::kDetail,
     [](const Qp& q) { return Value(uint64_t{q.dev_index}); }},
    {"qpn", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Value(uint64_t{q.qpn}); }},
    {"type", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Name(q.type, QpTypeName); }},
    {"state", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Name(q.state, QpStateName); }},
    {"dest-qpn", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.dest_qpn); }},
    {"prio", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.prio); }},
    {"dscp", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.dscp); }},
    {"limited", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return YesNo(q.limited); }},
    {"rate", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.rate); }},
    {"target", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.target); }},
    {"alpha", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.alpha); }},
    {"cnp-sent", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.cnp_sent); }},
    {"cnp-handled", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.cnp_handled); }},
    {"ecn-marked", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.ecn_marked); }},
    {"tx-bytes", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Number(q.tx_bytes); }},
};

}  // namespace

Record QpRecord(const Qp& qp) { return MakeRecord(qp, kQpFields); }

}  // namespace rue::cli
