// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/ip_peek.h"

#include <cstdint>

#include "rue/wire/reader.h"

namespace rue::dump {
namespace {

using wire::Reader;

// Where the UDP header of an IPv4 packet starts, if it has one.
std::optional<std::size_t> Ipv4UdpOffset(const wire::Ipv4Header& h) {
  if (h.version != wire::Ipv4Header::kVersion ||
      h.ihl < wire::Ipv4Header::kMinIhl || h.protocol != wire::kIpProtocolUdp ||
      h.fragment_offset != 0) {
    return std::nullopt;
  }
  return h.HeaderLength();
}

std::optional<std::size_t> Ipv6UdpOffset(const wire::Ipv6Header& h) {
  if (h.version != wire::Ipv6Header::kVersion ||
      h.next_header != wire::kIpProtocolUdp) {
    return std::nullopt;
  }
  return wire::Ipv6Header::kSize;
}

}  // namespace

std::optional<IpUdpPeek> PeekIpUdp(std::span<const std::byte> packet) {
  if (packet.empty()) return std::nullopt;
  IpUdpPeek peek;
  Reader r(packet);
  std::optional<std::size_t> udp_offset;
  const uint8_t version = static_cast<uint8_t>(packet[0]) >> 4;
  if (version == wire::Ipv4Header::kVersion) {
    peek.ipv4 = wire::Ipv4Header::Parse(r);
    if (peek.ipv4) udp_offset = Ipv4UdpOffset(*peek.ipv4);
  } else if (version == wire::Ipv6Header::kVersion) {
    peek.ipv6 = wire::Ipv6Header::Parse(r);
    if (peek.ipv6) udp_offset = Ipv6UdpOffset(*peek.ipv6);
  }
  if (!udp_offset || *udp_offset > packet.size()) return std::nullopt;
  Reader ur(packet.subspan(*udp_offset));
  std::optional<wire::UdpHeader> udp = wire::UdpHeader::Parse(ur);
  if (!udp) return std::nullopt;
  peek.udp = *udp;
  return peek;
}

}  // namespace rue::dump
