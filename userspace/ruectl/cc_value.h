// SPDX-License-Identifier: GPL-2.0
//
// How congestion-control values are written, both ways: "cc show" prints
// them in the syntax "cc set" takes.  The parsers' errors say what is
// wrong with the value, not which parameter it was for; the caller adds
// that.
#ifndef RUE_RUECTL_CC_VALUE_H_
#define RUE_RUECTL_CC_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nl/result.h"
#include "ruectl/cc.h"

namespace rue::cli {

// A decimal number from 0, or `min`, to `max`.
nl::Result<uint32_t> ParseNumber(std::string_view text, uint32_t max);
nl::Result<uint32_t> ParseNumber(std::string_view text, uint32_t min,
                                 uint32_t max);

// enum rue_ecn_mode: off, ect0, ect1 ("UNKNOWN" for other values).
std::string_view EcnName(uint32_t mode);
nl::Result<uint32_t> ParseEcn(std::string_view word);

// enum rue_tsa: strict, ets ("UNKNOWN" for other values).
std::string_view TsaName(uint32_t tsa);
nl::Result<uint32_t> ParseTsa(std::string_view word);

// on, off, 1 or 0.
nl::Result<bool> ParseFlag(std::string_view word);

// A set of priorities as a bit mask (bit n: priority n), written as
// "none" or as runs: "0-7", "3,5", "0-2,6".  ParsePrios() also takes
// "all", and runs in any order.
std::string FormatPrios(uint32_t mask);
std::vector<uint64_t> PrioList(uint32_t mask);
nl::Result<uint32_t> ParsePrios(std::string_view text);

// One entry of a DSCP map.
struct DscpPrio {
  uint8_t dscp;
  uint8_t prio;

  bool operator==(const DscpPrio&) const = default;
};

// A DSCP map as DSCP:PRIO entries, consecutive DSCPs of one priority
// joined into a range: "0-7:0,8-15:1,...".  ParseDscpPrio() takes the
// same syntax for any subset of the DSCPs, each at most once.
std::string FormatDscpMap(const DscpMap& map);
nl::Result<std::vector<DscpPrio>> ParseDscpPrio(std::string_view text);

// One entry of a per-priority table (the ETS TSAs or weights).
struct PrioValue {
  uint8_t prio;
  uint8_t value;

  bool operator==(const PrioValue&) const = default;
};

// A per-priority table as its values, priority 0 first, between commas:
// "strict,strict,strict,ets,ets,strict,strict,strict" (TsaName() of each),
// "0,0,0,60,40,0,0,0".  The parsers take that syntax for the whole table,
// or PRIO:VALUE entries for any subset of the priorities, each at most
// once, PRIO possibly a range ("3-4:ets,7:strict"); either way they give
// one entry per priority named.  Numbers run from 0 to `max`, which a
// byte holds.
std::string FormatTsaTable(const PrioTable& table);
std::vector<std::string> TsaNames(const PrioTable& table);
std::string FormatNumberTable(const PrioTable& table);
nl::Result<std::vector<PrioValue>> ParseTsaTable(std::string_view text);
nl::Result<std::vector<PrioValue>> ParseNumberTable(std::string_view text,
                                                    uint32_t max);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_VALUE_H_
