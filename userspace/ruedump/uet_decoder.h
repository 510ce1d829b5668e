// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The decoder for Ultra Ethernet Transport packets (UDP port 4793): the
// UDP payload is parsed by rue::wire (uet_packet.h) and shown as one
// Section per header (uet_fields.cc); a packet that does not parse is an
// Error, which ruedump reports as "malformed" and --check counts against
// the capture.
#ifndef RUE_RUEDUMP_UET_DECODER_H_
#define RUE_RUEDUMP_UET_DECODER_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rue/wire/result.h"
#include "ruedump/record.h"

namespace rue::dump {

// Decodes the UDP payload of a UET packet whose Ethernet/IP/UDP headers
// have been checked.
wire::Result<std::vector<Section>> DecodeUet(
    std::span<const std::byte> udp_payload);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_UET_DECODER_H_
