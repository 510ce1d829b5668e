// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The RoCEv2 invariant CRC (ICRC), IBTA vol 1 annex A17.3.3.
//
// CRC-32 (see crc32.h) over, in order:
//   1. 8 bytes of 0xFF standing for the masked LRH that RoCEv2 does not send;
//   2. the IP header with its variant fields set to all ones:
//        IPv4: TOS (DSCP+ECN), TTL, header checksum;
//        IPv6: traffic class, flow label, hop limit;
//   3. the UDP header with its checksum set to all ones;
//   4. the BTH with byte 4 (FECN, BECN, Resv6) set to all ones;
//   5. the rest of the transport headers, the payload and the pad bytes,
//      up to but excluding the 4-byte ICRC itself.
// The ICRC is sent least significant byte first, like the Ethernet FCS: that
// is what Linux rdma_rxe (which stores the crc32_le() value in host order on
// little-endian machines), scapy and RoCE NICs put on the wire.
//
// IPv4 options, if any, are covered unmasked (the IP header is taken as IHL
// says).  rdma_rxe assumes a 20-byte header; see README.md.
#ifndef RUE_WIRE_ICRC_H_
#define RUE_WIRE_ICRC_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "rue/wire/crc32.h"
#include "rue/wire/ip.h"
#include "rue/wire/reader.h"
#include "rue/wire/roce.h"
#include "rue/wire/udp.h"

namespace rue::wire {

inline constexpr std::size_t kIcrcSize = 4;
inline constexpr std::size_t kMaskedLrhSize = 8;

namespace internal {

constexpr uint32_t RegisterAfterMaskedLrh() {
  Crc32 crc;
  crc.UpdateRepeated(kMaskedLrhSize, 0xFF);
  return crc.register_value();
}

// Which bits of byte i of an IP header the ICRC masks (sets to one).
constexpr uint8_t IpMaskBits(uint8_t version, std::size_t i) {
  if (version == Ipv4Header::kVersion) {
    if (i == Ipv4Header::kTosOffset || i == Ipv4Header::kTtlOffset ||
        i == Ipv4Header::kChecksumOffset ||
        i == Ipv4Header::kChecksumOffset + 1) {
      return 0xFF;
    }
    return 0;
  }
  // IPv6: version(4) | traffic class(8) | flow label(20) in bytes 0-3.
  if (i == 0) return 0x0F;
  if (i >= 1 && i <= 3) return 0xFF;
  if (i == Ipv6Header::kHopLimitOffset) return 0xFF;
  return 0;
}

}  // namespace internal

// rdma_rxe seeds crc32_le() with this constant instead of feeding the masked
// LRH; it is the same thing.
static_assert(internal::RegisterAfterMaskedLrh() == 0xDEBB20E3u);

// Which bits of byte `offset` of a RoCEv2 IP packet (IP header at offset 0)
// the ICRC ignores.  ip_header_length is IHL * 4 for IPv4, 40 for IPv6.
// The ICRC trailer itself is not covered either; that is not reported here.
constexpr uint8_t IcrcMaskedBits(uint8_t ip_version,
                                 std::size_t ip_header_length,
                                 std::size_t offset) {
  if (offset < ip_header_length) {
    return internal::IpMaskBits(ip_version, offset);
  }
  const std::size_t udp_offset = offset - ip_header_length;
  if (udp_offset == UdpHeader::kChecksumOffset ||
      udp_offset == UdpHeader::kChecksumOffset + 1) {
    return 0xFF;
  }
  if (udp_offset == UdpHeader::kSize + Bth::kFecnBecnOffset) return 0xFF;
  return 0;
}

// The ICRC a RoCEv2 IP packet (IPv4 or IPv6 header first, ICRC last) calls
// for.  The packet ends where the IP length field says; bytes after that
// (link-layer padding) are ignored.  nullopt if the bytes are not an IP/UDP
// packet with room for a BTH and an ICRC.
inline std::optional<uint32_t> ComputeIcrc(
    std::span<const std::byte> ip_packet) {
  std::optional<IpLayout> layout = LocateIpPayload(ip_packet);
  if (!layout || layout->protocol != kIpProtocolUdp) return std::nullopt;
  const std::size_t udp_offset = layout->header_length;
  const std::size_t udp_size = layout->total_length - udp_offset;
  if (udp_size < UdpHeader::kSize + Bth::kSize + kIcrcSize) {
    return std::nullopt;
  }
  Reader r(ip_packet.subspan(udp_offset));
  std::optional<UdpHeader> udp = UdpHeader::Parse(r);
  if (!udp || udp->length != udp_size) return std::nullopt;

  Crc32 crc;
  crc.UpdateRepeated(kMaskedLrhSize, 0xFF);
  // IP, UDP and BTH headers byte by byte with their masks; the rest as is.
  const std::size_t masked_end = udp_offset + UdpHeader::kSize + Bth::kSize;
  for (std::size_t i = 0; i < masked_end; ++i) {
    crc.UpdateByte(static_cast<uint8_t>(ip_packet[i]) |
                   IcrcMaskedBits(layout->version, layout->header_length, i));
  }
  crc.Update(ip_packet.subspan(
      masked_end, layout->total_length - kIcrcSize - masked_end));
  return crc.Value();
}

// The ICRC carried in the last 4 bytes of the packet (as delimited by the IP
// length field), decoded little-endian.
inline std::optional<uint32_t> ReadIcrc(std::span<const std::byte> ip_packet) {
  std::optional<IpLayout> layout = LocateIpPayload(ip_packet);
  if (!layout || layout->total_length < layout->header_length + kIcrcSize) {
    return std::nullopt;
  }
  Reader r(ip_packet.subspan(layout->total_length - kIcrcSize, kIcrcSize));
  uint32_t icrc = 0;
  if (!r.ReadU32Le(&icrc)) return std::nullopt;
  return icrc;
}

// True if the packet's ICRC trailer matches ComputeIcrc().
inline bool VerifyIcrc(std::span<const std::byte> ip_packet) {
  std::optional<uint32_t> want = ComputeIcrc(ip_packet);
  std::optional<uint32_t> have = ReadIcrc(ip_packet);
  return want && have && *want == *have;
}

}  // namespace rue::wire

#endif  // RUE_WIRE_ICRC_H_
