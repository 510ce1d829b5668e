// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/link_layer.h"

#include <pcap/dlt.h>

#include <algorithm>

#include "rue/wire/reader.h"

namespace rue::dump {
namespace {

using wire::Reader;

std::optional<CookedHeader> ParseSll(Reader& r) {
  CookedHeader h;
  uint16_t address_length = 0;
  r.ReadU16(&h.packet_type);
  r.ReadU16(&h.arphrd_type);
  r.ReadU16(&address_length);
  for (uint8_t& b : h.address) r.ReadU8(&b);
  r.ReadU16(&h.protocol);
  if (!r.ok()) return std::nullopt;
  h.version = 1;
  h.address_length = static_cast<uint8_t>(
      std::min<uint16_t>(address_length, CookedHeader::kMaxAddressLength));
  return h;
}

std::optional<CookedHeader> ParseSll2(Reader& r) {
  CookedHeader h;
  uint16_t reserved = 0;
  uint8_t packet_type = 0;
  r.ReadU16(&h.protocol);
  r.ReadU16(&reserved);
  r.ReadU32(&h.ifindex);
  r.ReadU16(&h.arphrd_type);
  r.ReadU8(&packet_type);
  r.ReadU8(&h.address_length);
  for (uint8_t& b : h.address) r.ReadU8(&b);
  if (!r.ok()) return std::nullopt;
  h.version = 2;
  h.packet_type = packet_type;
  h.address_length =
      std::min<uint8_t>(h.address_length, CookedHeader::kMaxAddressLength);
  return h;
}

bool IsVlanTpid(uint16_t type) {
  return type == wire::kEtherTypeVlan || type == wire::kEtherTypeQinQ;
}

// The VLAN tags that may follow a cooked header (when the kernel did not
// strip them); leaves the final EtherType in link->ethertype.
bool ParseTagsAfterCooked(Reader& r, Link* link) {
  uint16_t type = link->cooked->protocol;
  while (r.ok() && link->vlan_count < link->vlan_tags.size() &&
         IsVlanTpid(type)) {
    uint16_t tci = 0;
    r.ReadU16(&tci);
    wire::VlanTag& tag = link->vlan_tags[link->vlan_count++];
    tag.tpid = type;
    tag.pcp = static_cast<uint8_t>((tci >> wire::VlanTag::kPcpShift) &
                                   wire::VlanTag::kPcpMask);
    tag.dei = (tci & wire::VlanTag::kDeiMask) != 0;
    tag.vid = tci & wire::VlanTag::kVidMask;
    r.ReadU16(&type);
  }
  link->ethertype = type;
  return r.ok();
}

std::optional<Link> ParseEthernet(Reader& r) {
  Link link;
  link.eth = wire::EthernetHeader::Parse(r);
  if (!link.eth) return std::nullopt;
  link.vlan_tags = link.eth->vlan_tags;
  link.vlan_count = link.eth->vlan_count;
  link.ethertype = link.eth->ethertype;
  return link;
}

std::optional<Link> ParseCooked(LinkType type, Reader& r) {
  Link link;
  link.cooked = type == LinkType::kLinuxSll ? ParseSll(r) : ParseSll2(r);
  if (!link.cooked || !ParseTagsAfterCooked(r, &link)) return std::nullopt;
  return link;
}

}  // namespace

std::optional<LinkType> LinkTypeFromDlt(int dlt) {
  switch (dlt) {
    case DLT_EN10MB:
      return LinkType::kEthernet;
    case DLT_RAW:
      return LinkType::kRawIp;
    case DLT_IPV4:
      return LinkType::kIpv4;
    case DLT_IPV6:
      return LinkType::kIpv6;
    case DLT_LINUX_SLL:
      return LinkType::kLinuxSll;
    case DLT_LINUX_SLL2:
      return LinkType::kLinuxSll2;
    default:
      return std::nullopt;
  }
}

std::string_view LinkTypeName(LinkType type) {
  switch (type) {
    case LinkType::kEthernet:
      return "EN10MB";
    case LinkType::kRawIp:
      return "RAW";
    case LinkType::kIpv4:
      return "IPV4";
    case LinkType::kIpv6:
      return "IPV6";
    case LinkType::kLinuxSll:
      return "LINUX_SLL";
    case LinkType::kLinuxSll2:
      return "LINUX_SLL2";
  }
  return "?";
}

bool Link::CarriesIp() const {
  return !ethertype || *ethertype == wire::kEtherTypeIpv4 ||
         *ethertype == wire::kEtherTypeIpv6;
}

std::optional<Link> ParseLink(LinkType type, std::span<const std::byte> frame) {
  Reader r(frame);
  std::optional<Link> link;
  switch (type) {
    case LinkType::kEthernet:
      link = ParseEthernet(r);
      break;
    case LinkType::kLinuxSll:
    case LinkType::kLinuxSll2:
      link = ParseCooked(type, r);
      break;
    case LinkType::kRawIp:
      link.emplace();
      break;
    case LinkType::kIpv4:
      link.emplace();
      link->ethertype = wire::kEtherTypeIpv4;
      break;
    case LinkType::kIpv6:
      link.emplace();
      link->ethertype = wire::kEtherTypeIpv6;
      break;
  }
  if (!link) return std::nullopt;
  link->network = r.Rest();
  return link;
}

}  // namespace rue::dump
