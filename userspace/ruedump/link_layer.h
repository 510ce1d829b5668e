// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The link layers ruedump reads (pcap link types), and finding the IP
// packet in a frame of each.
#ifndef RUE_RUEDUMP_LINK_LAYER_H_
#define RUE_RUEDUMP_LINK_LAYER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "rue/wire/ethernet.h"

namespace rue::dump {

enum class LinkType : uint8_t {
  kEthernet,   // DLT_EN10MB, up to two VLAN tags
  kRawIp,      // DLT_RAW: IPv4 or IPv6, the version nibble says which
  kIpv4,       // DLT_IPV4
  kIpv6,       // DLT_IPV6
  kLinuxSll,   // DLT_LINUX_SLL: Linux cooked capture v1 ("tcpdump -i any")
  kLinuxSll2,  // DLT_LINUX_SLL2: Linux cooked capture v2
};

// nullopt for link types ruedump does not read.
std::optional<LinkType> LinkTypeFromDlt(int dlt);
std::string_view LinkTypeName(LinkType type);

// The Linux cooked capture header, v1 (16 bytes) or v2 (20 bytes).
struct CookedHeader {
  static constexpr std::size_t kV1Size = 16;
  static constexpr std::size_t kV2Size = 20;
  static constexpr std::size_t kMaxAddressLength = 8;

  uint8_t version = 1;
  uint16_t packet_type = 0;  // PACKET_HOST, PACKET_OUTGOING, ...
  uint16_t arphrd_type = 0;  // ARPHRD_ETHER, ...
  uint32_t ifindex = 0;      // v2 only
  uint8_t address_length = 0;
  std::array<uint8_t, kMaxAddressLength> address{};
  uint16_t protocol = 0;  // the EtherType of the payload
};

// A frame's link layer, and where its network layer starts.
struct Link {
  std::optional<wire::EthernetHeader> eth;
  std::optional<CookedHeader> cooked;
  // VLAN tags, outermost first: those of eth, or those after a cooked
  // header.
  std::array<wire::VlanTag, wire::EthernetHeader::kMaxVlanTags> vlan_tags{};
  uint8_t vlan_count = 0;
  // The EtherType of the network layer (for DLT_IPV4 and DLT_IPV6, the one
  // they imply); nullopt for DLT_RAW, where the IP version decides.
  std::optional<uint16_t> ethertype;
  // The bytes after the link header (link padding included).
  std::span<const std::byte> network;

  // Whether the network layer is IPv4 or IPv6 as far as the link layer
  // says (raw IP types always are).
  bool CarriesIp() const;
};

// Parses the link header of `frame`; nullopt if the frame is too short
// for it.
std::optional<Link> ParseLink(LinkType type, std::span<const std::byte> frame);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_LINK_LAYER_H_
