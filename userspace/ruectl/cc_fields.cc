// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_fields.h"

#include <string>

#include "ruectl/cc_value.h"

namespace rue::cli {
namespace {

using Member = std::optional<uint32_t> CcConfig::*;

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

// In text, below the "index: name:" line, seven lines by theme (ECN and
// the NP; then the RP's alpha, cuts, rate bounds, target clamping, timer
// and byte counter, increase steps and the link speed), and with -d an
// eighth for the DSCP map.
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
    {"dscp-prio", Text::kLine, Level::kDetail, DscpPrio},
};

}  // namespace

Record CcRecord(const DeviceCc& device) {
  return MakeRecord(device, kCcFields);
}

}  // namespace rue::cli
