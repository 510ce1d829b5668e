// SPDX-License-Identifier: GPL-2.0
//
// The congestion-control parameters, one row each: the kebab-case key
// that "cc show" prints and "cc set" takes, the rue_cc_attr that carries
// it, its width on the wire, how its value is written, the range ruectl
// checks before asking the kernel, and where CcConfig keeps it.  The wire
// code (cc_attrs.h) and "cc set" (cc_set.h) go by this table; the field
// list of "cc show" (cc_fields.cc) has the same keys in the same order.
#ifndef RUE_RUECTL_CC_PARAMS_H_
#define RUE_RUECTL_CC_PARAMS_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "nl/attr.h"
#include "nl/result.h"
#include "ruectl/cc.h"

namespace rue::cli {

// How a parameter's value is written (cc_value.h has each syntax).
enum class CcSyntax : uint8_t {
  kNumber,   // decimal, 0..max
  kEcn,      // off | ect0 | ect1
  kPrios,    // a set of priorities: all | none | 0,3-5
  kFlag,     // on | off | 1 | 0
  kDscpMap,  // DSCP:PRIO pairs, over the current map
};

struct CcParam {
  std::string_view key;
  uint16_t attr;      // enum rue_cc_attr
  nl::AttrKind wire;  // kU8, kU32, or kBinary (the DSCP map)
  CcSyntax syntax;
  uint32_t max;    // kNumber: the largest value ruectl sends
  bool read_only;  // reported by the kernel, not set
  std::optional<uint32_t> CcConfig::*member;  // null for the DSCP map
};

// Every parameter, in the order "cc show" prints them.
std::span<const CcParam> CcParams();

// The parameter `word` names, in full or by a unique prefix.  EINVAL
// `unknown cc parameter "word"` or `ambiguous cc parameter "word": ...`.
nl::Result<const CcParam*> FindCcParam(std::string_view word);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_PARAMS_H_
