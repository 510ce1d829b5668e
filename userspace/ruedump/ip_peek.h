// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A lenient look at the IP and UDP headers of a packet, to decide which
// decoder (if any) gets it and to show its addresses even when the strict
// parse (rue::wire::ParseUdpFrame) then rejects it.
#ifndef RUE_RUEDUMP_IP_PEEK_H_
#define RUE_RUEDUMP_IP_PEEK_H_

#include <cstddef>
#include <optional>
#include <span>

#include "rue/wire/ip.h"
#include "rue/wire/udp.h"

namespace rue::dump {

struct IpUdpPeek {
  std::optional<wire::Ipv4Header> ipv4;  // exactly one of ipv4/ipv6 is set
  std::optional<wire::Ipv6Header> ipv6;
  wire::UdpHeader udp;
};

// The IP and UDP headers if `packet` starts with an IPv4 or IPv6 header
// whose protocol is UDP, is not a later fragment, and the UDP header is
// there.  No length or checksum checks.
std::optional<IpUdpPeek> PeekIpUdp(std::span<const std::byte> packet);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_IP_PEEK_H_
