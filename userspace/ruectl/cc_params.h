// SPDX-License-Identifier: GPL-2.0
//
// The congestion-control parameters, one row each: the kebab-case key
// that "cc show" prints and "cc set" takes, the rue_cc_attr that carries
// it, its width on the wire, how its value is written, the range ruectl
// checks before asking the kernel, and where CcConfig keeps it.  The wire
// code and the field list of "cc show" (cc.cc) go by this table, as does
// "cc set DEV [prio P] KEY VALUE [KEY VALUE ...]", whose words after DEV
// are read here.  Everything is checked before any request: keys (a
// unique prefix will do), values and their ranges, read-only parameters,
// keys given twice, and with "prio P" keys that are not DCQCN parameters
// (CcParam::per_prio).
#ifndef RUE_RUECTL_CC_PARAMS_H_
#define RUE_RUECTL_CC_PARAMS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "nl/attr.h"
#include "nl/result.h"
#include "ruectl/cc.h"
#include "ruectl/cc_value.h"

namespace rue::cli {

class Args;

// How a parameter's value is written (cc_value.h has each syntax).
enum class CcSyntax : uint8_t {
  kNumber,       // decimal, min..max
  kEcn,          // off | ect0 | ect1
  kPrios,        // a set of priorities: all | none | 0,3-5
  kFlag,         // on | off | 1 | 0
  kDscpMap,      // DSCP:PRIO pairs, over the current map
  kTsaTable,     // strict | ets for all 8 priorities, or PRIO:TSA pairs
  kNumberTable,  // 0..max for all 8 priorities, or PRIO:N pairs
};

// The kBinary parameters are the DSCP map (kDscpCount bytes, in
// CcConfig::dscp_prio) and the per-priority tables (kPrioCount bytes, at
// `table`).  PRIO:VALUE pairs, like DSCP:PRIO ones, go over the current
// values (CcChanges).
struct CcParam {
  std::string_view key;
  uint16_t attr;      // enum rue_cc_attr
  nl::AttrKind wire;  // kU8, kU32, or kBinary
  CcSyntax syntax;
  uint32_t max;    // kNumber, kNumberTable: the largest value ruectl sends
  bool read_only;  // reported by the kernel, not set
  std::optional<uint32_t> CcConfig::*member;            // null for kBinary
  std::optional<PrioTable> CcConfig::*table = nullptr;  // the tables'
  uint32_t min = 0;  // kNumber: the smallest value ruectl sends
  // A DCQCN parameter, kept per priority: "cc show DEV prio P" shows
  // priority P's, "cc set DEV prio P" changes priority P's (cc.h).
  bool per_prio = false;
};

// The key of the RUE_A_CC_PRIO row: the priority whose DCQCN parameters
// the kernel reports.  It is read only as a KEY; "cc show" and "cc set"
// take it as a keyword, "prio P" right after DEV.
inline constexpr std::string_view kPrioKeyword = "prio";

// The length on the wire of a kBinary parameter.
uint16_t BinaryLength(const CcParam& param);

// Every parameter, in the order "cc show" prints them.
std::span<const CcParam> CcParams();

// The parameter `word` names, in full or by a unique prefix.  EINVAL
// `unknown cc parameter "word"` or `ambiguous cc parameter "word": ...`.
nl::Result<const CcParam*> FindCcParam(std::string_view word);

// Entries of the per-priority table of `param` to change.
struct TableEntries {
  const CcParam* param;
  std::vector<PrioValue> entries;

  bool operator==(const TableEntries&) const = default;
};

struct CcChanges {
  // What to send: the scalars, and the per-priority tables given whole;
  // prio, from "prio P", when the DCQCN parameters are for priority P
  // only.  dscp_prio stays unset.
  CcConfig config;
  // The DSCP map and table entries to change.  The kernel takes only
  // whole maps and tables, so these go over the current ones
  // (ApplyDscpPrio, ApplyPrioValues) before sending.
  std::vector<DscpPrio> dscp_prio;
  std::vector<TableEntries> tables;
  std::vector<std::string_view> keys;  // in full, in the order given
};

// Takes every word left in `args`: "prio P" if first, then the KEY VALUE
// pairs.  EINVAL, naming the key and the value, on the first that is
// wrong, or when there is none.
nl::Result<CcChanges> ParseCcChanges(Args& args);

// Takes "prio P" (the keyword in full, P from 0 to 7) if it is next in
// `args`, for "cc show" and "cc set": std::nullopt when it is not.
// EINVAL when P is missing or wrong.
nl::Result<std::optional<uint32_t>> TakePrio(Args& args);

// `map` with `changes` applied.
DscpMap ApplyDscpPrio(DscpMap map, std::span<const DscpPrio> changes);

// `table` with `changes` applied.
PrioTable ApplyPrioValues(PrioTable table, std::span<const PrioValue> changes);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_PARAMS_H_
