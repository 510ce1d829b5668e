// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CLI11 validators for the values roce_inject and pfc_inject share.  CLI11
// puts the option's name before a refusal: "--psn: want a number from 0
// to 16777215 (0xffffff), not '-1'".
#ifndef RUE_WIRE_TOOLS_INJECT_CLI_H_
#define RUE_WIRE_TOOLS_INJECT_CLI_H_

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace rue::inject {

// A number as ParseNumber() reads it, decimal or 0x hex, up to max;
// rewritten in decimal for CLI11 to convert, whose own conversion reads
// "010" as octal and takes "-1" and " 1".
CLI::Validator NumberUpTo(uint64_t max);

// After NumberUpTo: not zero ("want at least 1 packet").
CLI::Validator AtLeastOne(std::string what);

// Bytes as ParseHex() reads them.
CLI::Validator HexBytes();

}  // namespace rue::inject

#endif  // RUE_WIRE_TOOLS_INJECT_CLI_H_
