// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What a capture held, by verdict, and the summary line.
#ifndef RUE_RUEDUMP_COUNTS_H_
#define RUE_RUEDUMP_COUNTS_H_

#include <cstdint>
#include <string>

#include "ruedump/packet_decoder.h"
#include "ruedump/record.h"

namespace rue::dump {

struct Counts {
  uint64_t packets = 0;
  uint64_t roce = 0;  // icrc_ok + icrc_bad
  uint64_t icrc_ok = 0;
  uint64_t icrc_bad = 0;
  uint64_t uet = 0;
  uint64_t other = 0;
  uint64_t malformed = 0;

  void Add(Verdict verdict);
  // What --check asks: every RoCEv2/UET packet parsed, every ICRC right.
  bool Clean() const { return malformed == 0 && icrc_bad == 0; }
};

// "N packets: N roce (N icrc ok, N bad), N uet, N other, N malformed\n".
std::string SummaryText(const Counts& counts);

// The same numbers for JSON: {"summary": {"packets": N, ...}}.
Record SummaryRecord(const Counts& counts);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_COUNTS_H_
