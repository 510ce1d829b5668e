// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The packet roce_inject sends: an IPv4 packet (no link layer, as a raw
// IPPROTO_RAW socket takes it) carrying UDP and RoCEv2, built by the wire
// library and then, if asked, broken on purpose.
#ifndef RUE_WIRE_TOOLS_ROCE_INJECT_PACKET_H_
#define RUE_WIRE_TOOLS_ROCE_INJECT_PACKET_H_

#include <cstddef>
#include <span>
#include <vector>

#include "rue/wire/result.h"
#include "rue/wire/roce_packet.h"
#include "rue/wire/udp_frame.h"
#include "tools/roce_inject_options.h"

namespace rue::inject {

// IPv4 with DF set, ID 0, TTL 64 and the given TOS; UDP with the given
// ports and checksum 0.
wire::UdpFrameSpec FrameSpec(const Options& options);

// The BTH and the extension headers options.opcode calls for: those with
// a flag from the options, the rest zero.  A CNP always has BECN set
// (annex A17.9.3).  Fails on an opcode outside the wire library's table
// and on --va/--rkey/--len given to an opcode without a header for them.
wire::Result<wire::RoceHeaders> HeadersFor(const Options& options);

// The whole IPv4 packet, malformations applied: first the ICRC flip, then
// the truncation.  Any error is a bad command line.
wire::Result<std::vector<std::byte>> BuildPacket(const Options& options);

// IP and UDP headers from spec in front of udp_payload, lengths and the IP
// header checksum filled in.
wire::Result<std::vector<std::byte>> Frame(
    const wire::UdpFrameSpec& spec, std::span<const std::byte> udp_payload);

// Flips every bit of the ICRC, the last 4 bytes of the packet.
void FlipIcrc(std::span<std::byte> ip_packet);

// The packet with `drop` bytes less of UDP payload, its IP and UDP headers
// rewritten so that the lengths (and the IP header checksum) agree with
// what is left: a well-formed IP/UDP datagram with a short RoCE part.
wire::Result<std::vector<std::byte>> Truncate(
    std::span<const std::byte> ip_packet, std::size_t drop);

}  // namespace rue::inject

#endif  // RUE_WIRE_TOOLS_ROCE_INJECT_PACKET_H_
