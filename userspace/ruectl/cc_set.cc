// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_set.h"

#include <algorithm>
#include <cerrno>
#include <string>

namespace rue::cli {
namespace {

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
