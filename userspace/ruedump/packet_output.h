// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// What ruedump writes for one packet, as the options ask: text or JSON,
// brief or verbose, with or without the hex dump.
#ifndef RUE_RUEDUMP_PACKET_OUTPUT_H_
#define RUE_RUEDUMP_PACKET_OUTPUT_H_

#include <cstddef>
#include <span>
#include <string>

#include "ruedump/options.h"
#include "ruedump/record.h"

namespace rue::dump {

std::string RenderPacket(const Record& record, std::span<const std::byte> bytes,
                         const Options& options);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_PACKET_OUTPUT_H_
