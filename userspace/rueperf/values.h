// SPDX-License-Identifier: GPL-2.0
//
// The values of rueperf's options as the command line spells them, and
// the CLI11 validators that check them.  A validator's refusal follows the
// option's name ("--size: 'big' is not a number"); one that takes a value
// rewrites it as the plain decimal number CLI11 then converts, so that
// CLI11's own conversion (hex, octal "010", "+5") never sees the text.
#ifndef RUE_RUEPERF_VALUES_H_
#define RUE_RUEPERF_VALUES_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rue::perf {

// "64K" -> 65536: a count with an optional K, M or G suffix (powers of
// 1024), as sizes are given.
std::optional<uint64_t> ParseSize(std::string_view text);

// "2.5" -> 2500: seconds, with up to three decimals, as milliseconds.
std::optional<uint64_t> ParseSeconds(std::string_view text);

// A decimal count from lo to hi, with ParseSize()'s suffixes if sized.
CLI::Validator Count(uint64_t lo, uint64_t hi, bool sized = false);

// Seconds (ParseSeconds()) up to an hour, rewritten as milliseconds.
CLI::Validator Seconds();

// One of names, as CLI::IsMember checks, refused as "'ud' is not one of
// rc, rud, rod" (selftests/rue_perf.sh reads it).
CLI::Validator OneOf(std::vector<std::string> names);

// Not empty.
CLI::Validator DeviceName();

}  // namespace rue::perf

#endif  // RUE_RUEPERF_VALUES_H_
