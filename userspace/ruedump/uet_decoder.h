// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The decoder hook for Ultra Ethernet Transport packets (UDP port 4793).
//
// rue::wire has no UET headers yet.  Until it does, a UET packet shows only
// the length of its UDP payload.  When the wire library gains them (PDS
// and SES headers), DecodeUet() parses the UDP payload with them and
// returns one Section per header (their Field lists beside the RoCEv2 ones,
// in a uet_fields.cc), or an Error, which ruedump reports as "malformed"
// and --check counts against the capture.  Nothing else in ruedump needs
// to change.
#ifndef RUE_RUEDUMP_UET_DECODER_H_
#define RUE_RUEDUMP_UET_DECODER_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rue/wire/result.h"
#include "ruedump/record.h"

namespace rue::dump {

// IANA-assigned UDP destination port for UET.  (Move to rue::wire with the
// UET headers.)
inline constexpr uint16_t kUetUdpPort = 4793;

// Decodes the UDP payload of a UET packet whose Ethernet/IP/UDP headers
// have been checked.
wire::Result<std::vector<Section>> DecodeUet(
    std::span<const std::byte> udp_payload);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_UET_DECODER_H_
