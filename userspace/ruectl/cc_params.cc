// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_params.h"

#include <linux/rue_netlink.h>

#include <vector>

#include "ruectl/match.h"

namespace rue::cli {
namespace {

using nl::AttrKind;

constexpr uint32_t kU8Max = UINT8_MAX;
constexpr uint32_t kU32Max = UINT32_MAX;
constexpr uint32_t kDscpMax = kDscpCount - 1;
constexpr uint32_t kPrioMax = kPrioCount - 1;
constexpr uint32_t kAlphaMax = 1023;  // alpha and its gain: 1/1024, below 1
constexpr uint32_t kPercentMax = 100;
constexpr uint32_t kQuantaMin = 1;  // a pause of 0 would be an XON
constexpr uint32_t kQuantaMax = UINT16_MAX;

// A DCQCN parameter: per priority.
constexpr CcParam Dcqcn(CcParam param) {
  param.per_prio = true;
  return param;
}

// Units, for the man page and the help: times in us, rates in Mb/s.
constexpr CcParam kParams[] = {
    {"ecn", RUE_A_CC_ECN, AttrKind::kU8, CcSyntax::kEcn, kU8Max, false,
     &CcConfig::ecn},
    {"cnp-dscp", RUE_A_CC_CNP_DSCP, AttrKind::kU8, CcSyntax::kNumber, kDscpMax,
     false, &CcConfig::cnp_dscp},
    {"cnp-prio", RUE_A_CC_CNP_PRIO, AttrKind::kU8, CcSyntax::kNumber, kPrioMax,
     false, &CcConfig::cnp_prio},
    {"np-enable", RUE_A_CC_NP_ENABLE, AttrKind::kU8, CcSyntax::kPrios, kU8Max,
     false, &CcConfig::np_enable},
    {"rp-enable", RUE_A_CC_RP_ENABLE, AttrKind::kU8, CcSyntax::kPrios, kU8Max,
     false, &CcConfig::rp_enable},
    {"min-time-between-cnps", RUE_A_CC_MIN_TIME_BETWEEN_CNPS, AttrKind::kU32,
     CcSyntax::kNumber, kU32Max, false, &CcConfig::min_time_between_cnps},
    // Read only: the kernel reports the priority of the DCQCN values that
    // follow ("prio P" after DEV asks for it, kPrioKeyword), and the
    // priorities whose DCQCN values are not priority 0's.
    {"dcqcn-differ", RUE_A_CC_DCQCN_DIFFER, AttrKind::kU8, CcSyntax::kPrios,
     kU8Max, true, &CcConfig::dcqcn_differ},
    {kPrioKeyword, RUE_A_CC_PRIO, AttrKind::kU8, CcSyntax::kNumber, kPrioMax,
     true, &CcConfig::prio},
    Dcqcn({"dce-tcp-g", RUE_A_CC_DCE_TCP_G, AttrKind::kU32, CcSyntax::kNumber,
           kAlphaMax, false, &CcConfig::dce_tcp_g}),
    Dcqcn({"dce-tcp-rtt", RUE_A_CC_DCE_TCP_RTT, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::dce_tcp_rtt}),
    Dcqcn({"initial-alpha", RUE_A_CC_INITIAL_ALPHA, AttrKind::kU32,
           CcSyntax::kNumber, kAlphaMax, false, &CcConfig::initial_alpha}),
    Dcqcn({"rate-reduce-monitor-period", RUE_A_CC_RATE_REDUCE_MONITOR_PERIOD,
           AttrKind::kU32, CcSyntax::kNumber, kU32Max, false,
           &CcConfig::rate_reduce_monitor_period}),
    Dcqcn({"rpg-gd", RUE_A_CC_RPG_GD, AttrKind::kU32, CcSyntax::kNumber,
           kU32Max, false, &CcConfig::rpg_gd}),
    Dcqcn({"rpg-min-dec-fac", RUE_A_CC_RPG_MIN_DEC_FAC, AttrKind::kU32,
           CcSyntax::kNumber, kPercentMax, false, &CcConfig::rpg_min_dec_fac}),
    Dcqcn({"rpg-min-rate", RUE_A_CC_RPG_MIN_RATE, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::rpg_min_rate}),
    {"rpg-max-rate", RUE_A_CC_RPG_MAX_RATE, AttrKind::kU32, CcSyntax::kNumber,
     kU32Max, false, &CcConfig::rpg_max_rate},
    Dcqcn({"rate-to-set-on-first-cnp", RUE_A_CC_RATE_TO_SET_ON_FIRST_CNP,
           AttrKind::kU32, CcSyntax::kNumber, kU32Max, false,
           &CcConfig::rate_to_set_on_first_cnp}),
    Dcqcn({"clamp-tgt-rate", RUE_A_CC_CLAMP_TGT_RATE, AttrKind::kU8,
           CcSyntax::kFlag, 1, false, &CcConfig::clamp_tgt_rate}),
    Dcqcn({"clamp-tgt-rate-after-time-inc",
           RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC, AttrKind::kU8,
           CcSyntax::kFlag, 1, false,
           &CcConfig::clamp_tgt_rate_after_time_inc}),
    Dcqcn({"rpg-time-reset", RUE_A_CC_RPG_TIME_RESET, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::rpg_time_reset}),
    Dcqcn({"rpg-byte-reset", RUE_A_CC_RPG_BYTE_RESET, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::rpg_byte_reset}),
    Dcqcn({"rpg-threshold", RUE_A_CC_RPG_THRESHOLD, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::rpg_threshold}),
    Dcqcn({"rpg-ai-rate", RUE_A_CC_RPG_AI_RATE, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::rpg_ai_rate}),
    Dcqcn({"rpg-hai-rate", RUE_A_CC_RPG_HAI_RATE, AttrKind::kU32,
           CcSyntax::kNumber, kU32Max, false, &CcConfig::rpg_hai_rate}),
    {"link-speed", RUE_A_CC_LINK_SPEED, AttrKind::kU32, CcSyntax::kNumber,
     kU32Max, true, &CcConfig::link_speed},
    {"ets-tsa", RUE_A_CC_ETS_TSA, AttrKind::kBinary, CcSyntax::kTsaTable,
     RUE_TSA_ETS, false, nullptr, &CcConfig::ets_tsa},
    {"ets-weight", RUE_A_CC_ETS_WEIGHT, AttrKind::kBinary,
     CcSyntax::kNumberTable, kPercentMax, false, nullptr,
     &CcConfig::ets_weight},
    {"pfc-enable", RUE_A_CC_PFC_ENABLE, AttrKind::kU8, CcSyntax::kPrios, kU8Max,
     false, &CcConfig::pfc_enable},
    {"pfc-xoff", RUE_A_CC_PFC_XOFF, AttrKind::kU32, CcSyntax::kNumber, kU32Max,
     false, &CcConfig::pfc_xoff},
    {"pfc-xon", RUE_A_CC_PFC_XON, AttrKind::kU32, CcSyntax::kNumber, kU32Max,
     false, &CcConfig::pfc_xon},
    {"pfc-quanta", RUE_A_CC_PFC_QUANTA, AttrKind::kU32, CcSyntax::kNumber,
     kQuantaMax, false, &CcConfig::pfc_quanta, nullptr, kQuantaMin},
    {"pfc-paused", RUE_A_CC_PFC_PAUSED, AttrKind::kU8, CcSyntax::kPrios, kU8Max,
     true, &CcConfig::pfc_paused},
    {"pfc-asserted", RUE_A_CC_PFC_ASSERTED, AttrKind::kU8, CcSyntax::kPrios,
     kU8Max, true, &CcConfig::pfc_asserted},
    {"dscp-prio", RUE_A_CC_DSCP_PRIO, AttrKind::kBinary, CcSyntax::kDscpMap,
     kPrioMax, false, nullptr},
};

}  // namespace

std::span<const CcParam> CcParams() { return kParams; }

uint16_t BinaryLength(const CcParam& param) {
  return param.table ? kPrioCount : kDscpCount;
}

nl::Result<const CcParam*> FindCcParam(std::string_view word) {
  std::vector<std::string_view> keys;
  for (const CcParam& param : kParams) keys.push_back(param.key);
  nl::Result<size_t> hit = MatchName(keys, word, "cc parameter");
  if (!hit.ok()) return hit.error();
  return &kParams[*hit];
}

}  // namespace rue::cli
