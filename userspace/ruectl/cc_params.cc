// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_params.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "ruectl/cli.h"

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

// The value `text` as `param` writes it, as it goes on the wire.
nl::Result<uint32_t> ParseScalar(const CcParam& param, std::string_view text) {
  switch (param.syntax) {
    case CcSyntax::kEcn:
      return ParseEcn(text);
    case CcSyntax::kPrios:
      return ParsePrios(text);
    case CcSyntax::kFlag: {
      nl::Result<bool> on = ParseFlag(text);
      if (!on.ok()) return on.error();
      return *on ? 1u : 0u;
    }
    default:
      return ParseNumber(text, param.min, param.max);
  }
}

// A per-priority table given whole needs no current one.
nl::Status SetTable(CcChanges& changes, const CcParam& param,
                    std::string_view text) {
  nl::Result<std::vector<PrioValue>> entries =
      param.syntax == CcSyntax::kTsaTable ? ParseTsaTable(text)
                                          : ParseNumberTable(text, param.max);
  if (!entries.ok()) return entries.error();
  if (entries->size() == kPrioCount)
    (changes.config.*param.table) = ApplyPrioValues(PrioTable{}, *entries);
  else
    changes.tables.push_back({&param, std::move(entries).value()});
  return nl::Ok();
}

nl::Status SetValue(CcChanges& changes, const CcParam& param,
                    std::string_view text) {
  if (param.syntax == CcSyntax::kDscpMap) {
    nl::Result<std::vector<DscpPrio>> entries = ParseDscpPrio(text);
    if (!entries.ok()) return entries.error();
    changes.dscp_prio = std::move(entries).value();
    return nl::Ok();
  }
  if (param.table) return SetTable(changes, param, text);
  nl::Result<uint32_t> value = ParseScalar(param, text);
  if (!value.ok()) return value.error();
  (changes.config.*param.member) = *value;
  return nl::Ok();
}

// One KEY VALUE pair.
nl::Status TakePair(Args& args, CcChanges& changes) {
  nl::Result<const CcParam*> param = FindCcParam(args.Next());
  if (!param.ok())
    return nl::Error{EINVAL,
                     param.error().message + "; try \"ruectl cc help\""};
  std::string key((*param)->key);
  if ((*param)->key == kPrioKeyword)
    return nl::Error{EINVAL, key + " is read only as a key; give \"" + key +
                                 " PRIO\" right after DEV"};
  if ((*param)->read_only) return nl::Error{EINVAL, key + " is read only"};
  if (changes.config.prio && !(*param)->per_prio)
    return nl::Error{EINVAL, key + " is per device; " +
                                 std::string(kPrioKeyword) +
                                 " applies to DCQCN parameters only"};
  if (std::find(changes.keys.begin(), changes.keys.end(), (*param)->key) !=
      changes.keys.end())
    return nl::Error{EINVAL, key + " given twice"};
  changes.keys.push_back((*param)->key);
  nl::Result<std::string_view> text = args.Require("value for " + key);
  if (!text.ok()) return text.error();
  nl::Status set = SetValue(changes, **param, *text);
  if (!set.ok())
    return nl::Error{EINVAL, "invalid " + key + " \"" + std::string(*text) +
                                 "\": " + set.error().message};
  return nl::Ok();
}

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


nl::Result<CcChanges> ParseCcChanges(Args& args) {
  CcChanges changes;
  nl::Result<std::optional<uint32_t>> prio = TakePrio(args);
  if (!prio.ok()) return prio.error();
  changes.config.prio = *prio;
  if (args.empty()) return nl::Error{EINVAL, "missing KEY VALUE"};
  while (!args.empty()) {
    nl::Status taken = TakePair(args, changes);
    if (!taken.ok()) return taken.error();
  }
  return changes;
}

nl::Result<std::optional<uint32_t>> TakePrio(Args& args) {
  if (args.Peek() != kPrioKeyword) return std::optional<uint32_t>();
  std::string keyword(args.Next());
  nl::Result<std::string_view> text = args.Require("PRIO after " + keyword);
  if (!text.ok()) return text.error();
  nl::Result<uint32_t> prio = ParseNumber(*text, kPrioCount - 1);
  if (!prio.ok())
    return nl::Error{EINVAL, "invalid " + keyword + " \"" + std::string(*text) +
                                 "\": " + prio.error().message};
  return std::optional<uint32_t>(*prio);
}

DscpMap ApplyDscpPrio(DscpMap map, std::span<const DscpPrio> changes) {
  for (const DscpPrio& change : changes) map[change.dscp] = change.prio;
  return map;
}

PrioTable ApplyPrioValues(PrioTable table, std::span<const PrioValue> changes) {
  for (const PrioValue& change : changes) table[change.prio] = change.value;
  return table;
}

}  // namespace rue::cli
