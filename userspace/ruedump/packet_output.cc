// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/packet_output.h"

#include <optional>

#include "ruedump/hex_dump.h"
#include "ruedump/json_output.h"
#include "ruedump/text_output.h"

namespace rue::dump {

std::string RenderPacket(const Record& record, std::span<const std::byte> bytes,
                         const Options& options) {
  if (options.json) {
    std::optional<std::string> hex;
    if (options.hex) hex = HexString(bytes);
    return RenderJson(record, options.verbose, hex);
  }
  std::string text =
      options.verbose ? RenderVerbose(record) : RenderLine(record);
  if (options.hex) text += HexDump(bytes);
  // A blank line between multi-line packets.
  if (options.verbose) text += "\n";
  return text;
}

}  // namespace rue::dump
