// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// IPv4 (RFC 791) and IPv6 (RFC 8200) fixed headers, the Internet checksum
// (RFC 1071), and a lenient locator for the payload of an IP packet.
#ifndef RUE_WIRE_IP_H_
#define RUE_WIRE_IP_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"

namespace rue::wire {

inline constexpr uint8_t kIpProtocolUdp = 17;

using Ipv4Address = std::array<uint8_t, 4>;
using Ipv6Address = std::array<uint8_t, 16>;

// One's-complement sum of 16-bit words (RFC 1071).  Bytes may be fed in any
// number of pieces; an odd-length piece carries over into the next.
class InternetChecksum {
 public:
  void Add(std::span<const std::byte> bytes) {
    for (std::byte b : bytes) AddByte(static_cast<uint8_t>(b));
  }
  void AddByte(uint8_t b) {
    sum_ += high_byte_next_ ? static_cast<uint64_t>(b) << 8 : b;
    high_byte_next_ = !high_byte_next_;
  }
  void AddU16(uint16_t v) {
    AddByte(static_cast<uint8_t>(v >> 8));
    AddByte(static_cast<uint8_t>(v));
  }
  // The checksum field value: the complement of the folded sum.
  uint16_t Value() const {
    uint64_t s = sum_;
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return static_cast<uint16_t>(~s);
  }

 private:
  uint64_t sum_ = 0;
  bool high_byte_next_ = true;
};

// IPv4 header, RFC 791 section 3.1.  Options are not stored: Parse reads the
// fixed 20 bytes only (the caller skips HeaderLength() - kSize bytes of
// options) and Write refuses ihl != 5.
struct Ipv4Header {
  static constexpr std::size_t kSize = 20;
  static constexpr uint8_t kVersion = 4;
  static constexpr uint8_t kMinIhl = 5;
  static constexpr uint8_t kIhlMask = 0x0F;
  static constexpr uint16_t kFlagsShift = 13;
  static constexpr uint16_t kFragmentOffsetMask = 0x1FFF;
  static constexpr uint8_t kFlagsMask = 0x7;
  static constexpr uint8_t kFlagDontFragment = 0x2;
  static constexpr uint8_t kFlagMoreFragments = 0x1;
  // Byte offsets of the fields the RoCEv2 ICRC masks.
  static constexpr std::size_t kTosOffset = 1;
  static constexpr std::size_t kTtlOffset = 8;
  static constexpr std::size_t kChecksumOffset = 10;

  uint8_t version = kVersion;
  uint8_t ihl = kMinIhl;  // header length in 32-bit words
  uint8_t tos = 0;        // DSCP (6 bits) and ECN (2 bits)
  uint16_t total_length = 0;
  uint16_t identification = 0;
  uint8_t flags = 0;  // reserved, DF, MF
  uint16_t fragment_offset = 0;
  uint8_t ttl = 64;
  uint8_t protocol = kIpProtocolUdp;
  uint16_t header_checksum = 0;
  Ipv4Address src{};
  Ipv4Address dst{};

  std::size_t HeaderLength() const { return static_cast<std::size_t>(ihl) * 4; }

  static std::optional<Ipv4Header> Parse(Reader& r) {
    Ipv4Header h;
    uint8_t version_ihl = 0;
    uint16_t flags_offset = 0;
    r.ReadU8(&version_ihl);
    r.ReadU8(&h.tos);
    r.ReadU16(&h.total_length);
    r.ReadU16(&h.identification);
    r.ReadU16(&flags_offset);
    r.ReadU8(&h.ttl);
    r.ReadU8(&h.protocol);
    r.ReadU16(&h.header_checksum);
    for (uint8_t& b : h.src) r.ReadU8(&b);
    for (uint8_t& b : h.dst) r.ReadU8(&b);
    if (!r.ok()) return std::nullopt;
    h.version = version_ihl >> 4;
    h.ihl = version_ihl & kIhlMask;
    h.flags = static_cast<uint8_t>(flags_offset >> kFlagsShift);
    h.fragment_offset = flags_offset & kFragmentOffsetMask;
    return h;
  }

  bool Write(Writer& w) const {
    if (version > 0xF || ihl != kMinIhl || flags > kFlagsMask ||
        fragment_offset > kFragmentOffsetMask) {
      w.Fail();
      return false;
    }
    w.WriteU8(static_cast<uint8_t>((version << 4) | ihl));
    w.WriteU8(tos);
    w.WriteU16(total_length);
    w.WriteU16(identification);
    w.WriteU16(static_cast<uint16_t>((flags << kFlagsShift) | fragment_offset));
    w.WriteU8(ttl);
    w.WriteU8(protocol);
    w.WriteU16(header_checksum);
    for (uint8_t b : src) w.WriteU8(b);
    for (uint8_t b : dst) w.WriteU8(b);
    return w.ok();
  }

  // The header checksum these fields call for (the stored one ignored).
  std::optional<uint16_t> ComputeChecksum() const {
    std::array<std::byte, kSize> bytes{};
    Ipv4Header copy = *this;
    copy.header_checksum = 0;
    Writer w(bytes);
    if (!copy.Write(w)) return std::nullopt;
    InternetChecksum sum;
    sum.Add(bytes);
    return sum.Value();
  }

  bool operator==(const Ipv4Header&) const = default;
};

// IPv6 fixed header, RFC 8200 section 3.
struct Ipv6Header {
  static constexpr std::size_t kSize = 40;
  static constexpr uint8_t kVersion = 6;
  static constexpr uint32_t kFlowLabelMask = 0xFFFFF;
  static constexpr std::size_t kHopLimitOffset = 7;

  uint8_t version = kVersion;
  uint8_t traffic_class = 0;  // DSCP (6 bits) and ECN (2 bits)
  uint32_t flow_label = 0;    // 20 bits
  uint16_t payload_length = 0;
  uint8_t next_header = kIpProtocolUdp;
  uint8_t hop_limit = 64;
  Ipv6Address src{};
  Ipv6Address dst{};

  static std::optional<Ipv6Header> Parse(Reader& r) {
    Ipv6Header h;
    uint32_t word0 = 0;
    r.ReadU32(&word0);
    r.ReadU16(&h.payload_length);
    r.ReadU8(&h.next_header);
    r.ReadU8(&h.hop_limit);
    for (uint8_t& b : h.src) r.ReadU8(&b);
    for (uint8_t& b : h.dst) r.ReadU8(&b);
    if (!r.ok()) return std::nullopt;
    h.version = static_cast<uint8_t>(word0 >> 28);
    h.traffic_class = static_cast<uint8_t>(word0 >> 20);
    h.flow_label = word0 & kFlowLabelMask;
    return h;
  }

  bool Write(Writer& w) const {
    if (version > 0xF || flow_label > kFlowLabelMask) {
      w.Fail();
      return false;
    }
    w.WriteU32((static_cast<uint32_t>(version) << 28) |
               (static_cast<uint32_t>(traffic_class) << 20) | flow_label);
    w.WriteU16(payload_length);
    w.WriteU8(next_header);
    w.WriteU8(hop_limit);
    for (uint8_t b : src) w.WriteU8(b);
    for (uint8_t b : dst) w.WriteU8(b);
    return w.ok();
  }

  bool operator==(const Ipv6Header&) const = default;
};

// Where the payload of an IP packet is, from the version nibble and the
// length fields alone.  No checksum or semantic checks: this is what the
// ICRC and UDP checksum code need to find their bytes.
struct IpLayout {
  uint8_t version = 0;
  std::size_t header_length = 0;  // IPv4: IHL * 4; IPv6: 40
  std::size_t total_length = 0;   // header + payload, per the length field
  uint8_t protocol = 0;           // IPv4 protocol / IPv6 next header
};

inline std::optional<IpLayout> LocateIpPayload(
    std::span<const std::byte> packet) {
  if (packet.empty()) return std::nullopt;
  const uint8_t version = static_cast<uint8_t>(packet[0]) >> 4;
  IpLayout layout;
  layout.version = version;
  Reader r(packet);
  if (version == Ipv4Header::kVersion) {
    std::optional<Ipv4Header> h = Ipv4Header::Parse(r);
    if (!h || h->ihl < Ipv4Header::kMinIhl) return std::nullopt;
    layout.header_length = h->HeaderLength();
    layout.total_length = h->total_length;
    layout.protocol = h->protocol;
  } else if (version == Ipv6Header::kVersion) {
    std::optional<Ipv6Header> h = Ipv6Header::Parse(r);
    if (!h) return std::nullopt;
    layout.header_length = Ipv6Header::kSize;
    layout.total_length = Ipv6Header::kSize + h->payload_length;
    layout.protocol = h->next_header;
  } else {
    return std::nullopt;
  }
  if (layout.total_length < layout.header_length ||
      layout.total_length > packet.size()) {
    return std::nullopt;
  }
  return layout;
}

}  // namespace rue::wire

#endif  // RUE_WIRE_IP_H_
