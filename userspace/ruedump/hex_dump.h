// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Hex renderings of captured bytes (-x).
#ifndef RUE_RUEDUMP_HEX_DUMP_H_
#define RUE_RUEDUMP_HEX_DUMP_H_

#include <cstddef>
#include <span>
#include <string>

namespace rue::dump {

// 16 bytes a line, like tcpdump -X: offset, 2-byte groups, printable ASCII.
//   "  0x0010:  0054 0001 0000 4011 f744 c0a8 0101 c0a8  .T....@..D......\n"
std::string HexDump(std::span<const std::byte> bytes);

// The bytes as one lower-case hex string, for JSON.
std::string HexString(std::span<const std::byte> bytes);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_HEX_DUMP_H_
