// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_fields.h"

#include <string>

#include "ruectl/cc_value.h"

namespace rue::cli {
namespace {

using Member = std::optional<uint32_t> CcConfig::*;
using TableMember = std::optional<PrioTable> CcConfig::*;

template <Member member>
Value Number(const DeviceCc& d) {
  const std::optional<uint32_t>& value = d.cc.*member;
  if (!value) return Absent{};
  return uint64_t{*value};
}

template <Member member>
Value Prios(const DeviceCc& d) {
  const std::optional<uint32_t>& mask = d.cc.*member;
  if (!mask) return Absent{};
  return Numbers{PrioList(*mask), FormatPrios(*mask)};
}

template <Member member>
Value OnOff(const DeviceCc& d) {
  const std::optional<uint32_t>& value = d.cc.*member;
  if (!value) return Absent{};
  return Flag{*value != 0, *value ? "on" : "off"};
}

Value Ecn(const DeviceCc& d) {
  if (!d.cc.ecn) return Absent{};
  return std::string(EcnName(*d.cc.ecn));
}

Value DscpPrio(const DeviceCc& d) {
  if (!d.cc.dscp_prio) return Absent{};
  const DscpMap& map = *d.cc.dscp_prio;
  return Numbers{std::vector<uint64_t>(map.begin(), map.end()),
                 FormatDscpMap(map)};
}

template <TableMember member>
Value NumberTable(const DeviceCc& d) {
  const std::optional<PrioTable>& table = d.cc.*member;
  if (!table) return Absent{};
  return Numbers{std::vector<uint64_t>(table->begin(), table->end()),
                 FormatNumberTable(*table)};
}

Value TsaTable(const DeviceCc& d) {
  if (!d.cc.ets_tsa) return Absent{};
  return Words{TsaNames(*d.cc.ets_tsa), FormatTsaTable(*d.cc.ets_tsa)};
}

// In text, below the "index: name:" line, twelve lines by theme (ECN and
// the NP; the CNP spacing and the priorities whose DCQCN parameters differ
// from priority 0's; the RP, from the priority its parameters are of: its
// alpha, cuts, rate bounds, target clamping, timer and byte counter,
// increase steps, and the link speed; the TSAs, the ETS weights, PFC's
// settings and its state now), and with -d a thirteenth for the DSCP map.
constexpr Field<DeviceCc> kCcFields[] = {
    {"index", Text::kName, Level::kBrief,
     [](const DeviceCc& d) { return Value(uint64_t{d.index}); }},
    {"name", Text::kName, Level::kBrief,
     [](const DeviceCc& d) { return Value(d.name); }},
    {"ecn", Text::kLine, Level::kBrief, Ecn},
    {"cnp-dscp", Text::kKeyValue, Level::kBrief, Number<&CcConfig::cnp_dscp>},
    {"cnp-prio", Text::kKeyValue, Level::kBrief, Number<&CcConfig::cnp_prio>},
    {"np-enable", Text::kKeyValue, Level::kBrief, Prios<&CcConfig::np_enable>},
    {"rp-enable", Text::kKeyValue, Level::kBrief, Prios<&CcConfig::rp_enable>},
    {"min-time-between-cnps", Text::kLine, Level::kBrief,
     Number<&CcConfig::min_time_between_cnps>},
    {"dcqcn-differ", Text::kKeyValue, Level::kBrief,
     Prios<&CcConfig::dcqcn_differ>},
    {"prio", Text::kLine, Level::kBrief, Number<&CcConfig::prio>},
    {"dce-tcp-g", Text::kKeyValue, Level::kBrief, Number<&CcConfig::dce_tcp_g>},
    {"dce-tcp-rtt", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::dce_tcp_rtt>},
    {"initial-alpha", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::initial_alpha>},
    {"rate-reduce-monitor-period", Text::kLine, Level::kBrief,
     Number<&CcConfig::rate_reduce_monitor_period>},
    {"rpg-gd", Text::kKeyValue, Level::kBrief, Number<&CcConfig::rpg_gd>},
    {"rpg-min-dec-fac", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_min_dec_fac>},
    {"rpg-min-rate", Text::kLine, Level::kBrief,
     Number<&CcConfig::rpg_min_rate>},
    {"rpg-max-rate", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_max_rate>},
    {"rate-to-set-on-first-cnp", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rate_to_set_on_first_cnp>},
    {"clamp-tgt-rate", Text::kLine, Level::kBrief,
     OnOff<&CcConfig::clamp_tgt_rate>},
    {"clamp-tgt-rate-after-time-inc", Text::kKeyValue, Level::kBrief,
     OnOff<&CcConfig::clamp_tgt_rate_after_time_inc>},
    {"rpg-time-reset", Text::kLine, Level::kBrief,
     Number<&CcConfig::rpg_time_reset>},
    {"rpg-byte-reset", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_byte_reset>},
    {"rpg-threshold", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_threshold>},
    {"rpg-ai-rate", Text::kLine, Level::kBrief, Number<&CcConfig::rpg_ai_rate>},
    {"rpg-hai-rate", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_hai_rate>},
    {"link-speed", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::link_speed>},
    {"ets-tsa", Text::kLine, Level::kBrief, TsaTable},
    {"ets-weight", Text::kLine, Level::kBrief,
     NumberTable<&CcConfig::ets_weight>},
    {"pfc-enable", Text::kLine, Level::kBrief, Prios<&CcConfig::pfc_enable>},
    {"pfc-xoff", Text::kKeyValue, Level::kBrief, Number<&CcConfig::pfc_xoff>},
    {"pfc-xon", Text::kKeyValue, Level::kBrief, Number<&CcConfig::pfc_xon>},
    {"pfc-quanta", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::pfc_quanta>},
    {"pfc-paused", Text::kLine, Level::kBrief, Prios<&CcConfig::pfc_paused>},
    {"pfc-asserted", Text::kKeyValue, Level::kBrief,
     Prios<&CcConfig::pfc_asserted>},
    {"dscp-prio", Text::kLine, Level::kDetail, DscpPrio},
};

}  // namespace

Record CcRecord(const DeviceCc& device) {
  return MakeRecord(device, kCcFields);
}

}  // namespace rue::cli
