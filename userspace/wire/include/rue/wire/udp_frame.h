// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Protocol-neutral plumbing for UDP-encapsulated transports (RoCEv2 on
// port 4791, UET on port 4793): find and check the Ethernet/IP/UDP headers
// of a frame, and write them in front of a transport payload.
#ifndef RUE_WIRE_UDP_FRAME_H_
#define RUE_WIRE_UDP_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "rue/wire/ethernet.h"
#include "rue/wire/ip.h"
#include "rue/wire/reader.h"
#include "rue/wire/result.h"
#include "rue/wire/udp.h"
#include "rue/wire/writer.h"

namespace rue::wire {

// What the first byte of a buffer is.
enum class LinkType : uint8_t {
  kEthernet,  // an Ethernet II frame (no preamble, no FCS)
  kIp,        // a bare IPv4 or IPv6 packet (the version nibble tells which)
};

struct UdpFrame {
  std::optional<EthernetHeader> eth;  // set for LinkType::kEthernet
  std::optional<Ipv4Header> ipv4;     // exactly one of ipv4/ipv6 is set
  std::optional<Ipv6Header> ipv6;
  UdpHeader udp;
  // The IP packet as its length field delimits it: link-layer padding after
  // it is not included.  This is what ComputeIcrc() takes.
  std::span<const std::byte> ip_packet;
  // The bytes after the UDP header, to the end of the IP packet.
  std::span<const std::byte> udp_payload;
};

namespace internal {

inline Error FrameError(ErrorCode code, std::string what) {
  return Error{code, std::move(what)};
}

inline std::string Need(std::string_view what, std::size_t need,
                        std::size_t have) {
  return std::string(what) + ": need " + std::to_string(need) +
         " bytes, have " + std::to_string(have);
}

}  // namespace internal

// Checks the link, IP and UDP headers and lengths.  Does not check the UDP
// checksum (RoCEv2 senders commonly leave it zero) and does not look at the
// UDP ports.
inline Result<UdpFrame> ParseUdpFrame(std::span<const std::byte> bytes,
                                      LinkType link) {
  using internal::FrameError;
  using internal::Need;
  UdpFrame frame;
  std::span<const std::byte> ip = bytes;
  std::optional<uint8_t> want_version;

  if (link == LinkType::kEthernet) {
    Reader r(bytes);
    frame.eth = EthernetHeader::Parse(r);
    if (!frame.eth) {
      return FrameError(ErrorCode::kTruncated,
                        Need("Ethernet header", EthernetHeader::kSize,
                             bytes.size()));
    }
    if (frame.eth->ethertype == kEtherTypeIpv4) {
      want_version = Ipv4Header::kVersion;
    } else if (frame.eth->ethertype == kEtherTypeIpv6) {
      want_version = Ipv6Header::kVersion;
    } else {
      return FrameError(ErrorCode::kNotIp,
                        "EtherType " + std::to_string(frame.eth->ethertype) +
                            " is not IPv4 or IPv6");
    }
    ip = r.Rest();
  }

  if (ip.empty()) {
    return FrameError(ErrorCode::kTruncated, "no IP header");
  }
  const uint8_t version = static_cast<uint8_t>(ip[0]) >> 4;
  if ((version != Ipv4Header::kVersion && version != Ipv6Header::kVersion) ||
      (want_version && *want_version != version)) {
    return FrameError(ErrorCode::kBadIpVersion,
                      "IP version " + std::to_string(version));
  }

  std::size_t header_length = 0;
  std::size_t total_length = 0;
  uint8_t protocol = 0;
  Reader r(ip);
  if (version == Ipv4Header::kVersion) {
    frame.ipv4 = Ipv4Header::Parse(r);
    if (!frame.ipv4) {
      return FrameError(ErrorCode::kTruncated,
                        Need("IPv4 header", Ipv4Header::kSize, ip.size()));
    }
    const Ipv4Header& h = *frame.ipv4;
    if (h.ihl < Ipv4Header::kMinIhl) {
      return FrameError(ErrorCode::kBadIpHeaderLength,
                        "IPv4 IHL " + std::to_string(h.ihl) + " < 5");
    }
    header_length = h.HeaderLength();
    if (ip.size() < header_length) {
      return FrameError(ErrorCode::kTruncated,
                        Need("IPv4 header with options", header_length,
                             ip.size()));
    }
    total_length = h.total_length;
    if (total_length < header_length) {
      return FrameError(ErrorCode::kBadIpLength,
                        "IPv4 total length " + std::to_string(total_length) +
                            " < header length " +
                            std::to_string(header_length));
    }
    InternetChecksum sum;
    sum.Add(ip.first(header_length));
    if (sum.Value() != 0) {
      return FrameError(ErrorCode::kBadIpChecksum,
                        "IPv4 header checksum does not verify");
    }
    if ((h.flags & Ipv4Header::kFlagMoreFragments) != 0 ||
        h.fragment_offset != 0) {
      return FrameError(ErrorCode::kIpFragment, "IPv4 fragment");
    }
    protocol = h.protocol;
  } else {
    frame.ipv6 = Ipv6Header::Parse(r);
    if (!frame.ipv6) {
      return FrameError(ErrorCode::kTruncated,
                        Need("IPv6 header", Ipv6Header::kSize, ip.size()));
    }
    if (frame.ipv6->payload_length == 0) {
      return FrameError(ErrorCode::kBadIpLength,
                        "IPv6 payload length 0 (jumbograms unsupported)");
    }
    header_length = Ipv6Header::kSize;
    total_length = header_length + frame.ipv6->payload_length;
    protocol = frame.ipv6->next_header;
  }
  if (total_length > ip.size()) {
    return FrameError(ErrorCode::kTruncated,
                      Need("IP packet", total_length, ip.size()));
  }
  if (protocol != kIpProtocolUdp) {
    return FrameError(ErrorCode::kNotUdp,
                      "IP protocol " + std::to_string(protocol) +
                          " is not UDP");
  }

  frame.ip_packet = ip.first(total_length);
  const std::span<const std::byte> udp =
      frame.ip_packet.subspan(header_length);
  Reader ur(udp);
  std::optional<UdpHeader> udp_header = UdpHeader::Parse(ur);
  if (!udp_header) {
    return FrameError(ErrorCode::kTruncated,
                      Need("UDP header", UdpHeader::kSize, udp.size()));
  }
  frame.udp = *udp_header;
  if (frame.udp.length != udp.size()) {
    return FrameError(ErrorCode::kBadUdpLength,
                      "UDP length " + std::to_string(frame.udp.length) +
                          " but IP carries " + std::to_string(udp.size()) +
                          " bytes");
  }
  frame.udp_payload = ur.Rest();
  return frame;
}

// ---------------------------------------------------------------------------
// Building.

enum class UdpChecksumMode : uint8_t {
  kZero,     // send 0 ("no checksum"), what RoCEv2 senders usually do
  kCompute,  // compute it over the pseudo-header and payload
};

// The headers in front of a UDP payload.  The builder fills in what follows
// from the payload: the EtherType, IP version, lengths, protocol, IPv4
// header checksum and the UDP length and checksum.  Everything else (ports,
// addresses, TOS/TTL, flow label, ...) is written as given.
struct UdpFrameSpec {
  std::optional<EthernetHeader> eth;
  std::variant<Ipv4Header, Ipv6Header> ip;
  UdpHeader udp;
  UdpChecksumMode udp_checksum = UdpChecksumMode::kZero;
};

// Offsets into the frame being built.
struct UdpFrameOffsets {
  std::size_t ip = 0;
  std::size_t udp = 0;
  std::size_t payload = 0;
};

inline std::size_t UdpFrameHeadersSize(const UdpFrameSpec& spec) {
  std::size_t n = spec.eth ? spec.eth->WireSize() : 0;
  n += std::holds_alternative<Ipv4Header>(spec.ip) ? Ipv4Header::kSize
                                                   : Ipv6Header::kSize;
  return n + UdpHeader::kSize;
}

// Writes the link, IP and UDP headers for a UDP payload of payload_size
// bytes.  The UDP checksum is written as zero; FinishUdpFrame() fills it in
// once the payload is there.
inline std::optional<UdpFrameOffsets> WriteUdpFrameHeaders(
    Writer& w, const UdpFrameSpec& spec, std::size_t payload_size) {
  const std::size_t udp_length = UdpHeader::kSize + payload_size;
  if (udp_length > 0xFFFF) {
    w.Fail();
    return std::nullopt;
  }
  UdpFrameOffsets offsets;
  if (spec.eth) {
    EthernetHeader eth = *spec.eth;
    eth.ethertype = std::holds_alternative<Ipv4Header>(spec.ip)
                        ? kEtherTypeIpv4
                        : kEtherTypeIpv6;
    eth.Write(w);
  }
  offsets.ip = w.length();
  if (const Ipv4Header* v4 = std::get_if<Ipv4Header>(&spec.ip)) {
    Ipv4Header h = *v4;
    h.version = Ipv4Header::kVersion;
    h.ihl = Ipv4Header::kMinIhl;
    h.protocol = kIpProtocolUdp;
    if (udp_length + Ipv4Header::kSize > 0xFFFF) {
      w.Fail();
      return std::nullopt;
    }
    h.total_length = static_cast<uint16_t>(Ipv4Header::kSize + udp_length);
    std::optional<uint16_t> checksum = h.ComputeChecksum();
    if (!checksum) {
      w.Fail();
      return std::nullopt;
    }
    h.header_checksum = *checksum;
    h.Write(w);
  } else {
    Ipv6Header h = std::get<Ipv6Header>(spec.ip);
    h.version = Ipv6Header::kVersion;
    h.next_header = kIpProtocolUdp;
    h.payload_length = static_cast<uint16_t>(udp_length);
    h.Write(w);
  }
  offsets.udp = w.length();
  UdpHeader udp = spec.udp;
  udp.length = static_cast<uint16_t>(udp_length);
  udp.checksum = 0;
  udp.Write(w);
  offsets.payload = w.length();
  if (!w.ok()) return std::nullopt;
  return offsets;
}

// Fills in the UDP checksum of a frame whose headers WriteUdpFrameHeaders()
// wrote, if the spec asks for one.
inline bool FinishUdpFrame(std::span<std::byte> frame,
                           const UdpFrameOffsets& offsets,
                           const UdpFrameSpec& spec) {
  if (spec.udp_checksum == UdpChecksumMode::kZero) return true;
  if (offsets.ip > frame.size()) return false;
  std::optional<uint16_t> checksum =
      ComputeUdpChecksum(frame.subspan(offsets.ip));
  if (!checksum) return false;
  Writer w(frame.subspan(offsets.udp + UdpHeader::kChecksumOffset));
  return w.WriteU16(*checksum);
}

}  // namespace rue::wire

#endif  // RUE_WIRE_UDP_FRAME_H_
