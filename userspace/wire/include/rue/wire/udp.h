// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UDP header (RFC 768) and its checksum over the IPv4 (RFC 768) or IPv6
// (RFC 8200 section 8.1) pseudo-header.
#ifndef RUE_WIRE_UDP_H_
#define RUE_WIRE_UDP_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "rue/wire/ip.h"
#include "rue/wire/reader.h"
#include "rue/wire/writer.h"

namespace rue::wire {

struct UdpHeader {
  static constexpr std::size_t kSize = 8;
  static constexpr std::size_t kChecksumOffset = 6;

  uint16_t src_port = 0;
  uint16_t dst_port = 0;
  uint16_t length = 0;  // header + payload
  uint16_t checksum = 0;

  static std::optional<UdpHeader> Parse(Reader& r) {
    UdpHeader h;
    r.ReadU16(&h.src_port);
    r.ReadU16(&h.dst_port);
    r.ReadU16(&h.length);
    r.ReadU16(&h.checksum);
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    w.WriteU16(src_port);
    w.WriteU16(dst_port);
    w.WriteU16(length);
    w.WriteU16(checksum);
    return w.ok();
  }

  bool operator==(const UdpHeader&) const = default;
};

// The UDP checksum a packet calls for: computed over the pseudo-header, the
// UDP header with its checksum field taken as zero, and the payload.  A
// computed zero is returned as 0xFFFF (zero means "no checksum").  nullopt
// if the packet is not a well-delimited IP/UDP packet.
inline std::optional<uint16_t> ComputeUdpChecksum(
    std::span<const std::byte> ip_packet) {
  std::optional<IpLayout> layout = LocateIpPayload(ip_packet);
  if (!layout || layout->protocol != kIpProtocolUdp) return std::nullopt;
  const std::span<const std::byte> udp =
      ip_packet.subspan(layout->header_length,
                        layout->total_length - layout->header_length);
  if (udp.size() < UdpHeader::kSize) return std::nullopt;

  InternetChecksum sum;
  if (layout->version == Ipv4Header::kVersion) {
    sum.Add(ip_packet.subspan(12, 8));  // source and destination addresses
    sum.AddU16(kIpProtocolUdp);
    sum.AddU16(static_cast<uint16_t>(udp.size()));
  } else {
    sum.Add(ip_packet.subspan(8, 32));  // source and destination addresses
    sum.AddU16(static_cast<uint16_t>(udp.size() >> 16));
    sum.AddU16(static_cast<uint16_t>(udp.size()));
    sum.AddU16(0);
    sum.AddU16(kIpProtocolUdp);
  }
  sum.Add(udp.first(UdpHeader::kChecksumOffset));
  sum.AddU16(0);
  sum.Add(udp.subspan(UdpHeader::kSize));
  const uint16_t value = sum.Value();
  return value == 0 ? 0xFFFF : value;
}

}  // namespace rue::wire

#endif  // RUE_WIRE_UDP_H_
