// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Ethernet II header (IEEE 802.3) with up to two 802.1Q/802.1ad VLAN tags.
// RoCEv2 commonly runs on a tagged VLAN so that PFC can use the PCP bits.
#ifndef RUE_WIRE_ETHERNET_H_
#define RUE_WIRE_ETHERNET_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"

namespace rue::wire {

inline constexpr uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr uint16_t kEtherTypeIpv6 = 0x86DD;
inline constexpr uint16_t kEtherTypeVlan = 0x8100;      // 802.1Q C-tag
inline constexpr uint16_t kEtherTypeQinQ = 0x88A8;      // 802.1ad S-tag

using MacAddress = std::array<uint8_t, 6>;

// One VLAN tag: TPID then TCI (PCP:3, DEI:1, VID:12).
struct VlanTag {
  static constexpr std::size_t kSize = 4;
  static constexpr uint16_t kPcpShift = 13;
  static constexpr uint16_t kPcpMask = 0x7;
  static constexpr uint16_t kDeiMask = 0x1000;
  static constexpr uint16_t kVidMask = 0x0FFF;

  uint16_t tpid = kEtherTypeVlan;
  uint8_t pcp = 0;
  bool dei = false;
  uint16_t vid = 0;

  bool operator==(const VlanTag&) const = default;
};

struct EthernetHeader {
  // Size without VLAN tags; WireSize() includes them.
  static constexpr std::size_t kSize = 14;
  static constexpr std::size_t kMaxVlanTags = 2;

  MacAddress dst{};
  MacAddress src{};
  // Tags in wire order (outermost first); only the first vlan_count count.
  std::array<VlanTag, kMaxVlanTags> vlan_tags{};
  uint8_t vlan_count = 0;
  // The EtherType after the tags (the payload's protocol).
  uint16_t ethertype = 0;

  std::size_t WireSize() const {
    return kSize + static_cast<std::size_t>(vlan_count) * VlanTag::kSize;
  }

  // Reads the addresses and up to kMaxVlanTags tags.  A frame with more
  // tags is returned with the innermost TPID as ethertype.
  static std::optional<EthernetHeader> Parse(Reader& r) {
    EthernetHeader h;
    for (uint8_t& b : h.dst) r.ReadU8(&b);
    for (uint8_t& b : h.src) r.ReadU8(&b);
    uint16_t type = 0;
    r.ReadU16(&type);
    while (r.ok() && h.vlan_count < kMaxVlanTags &&
           (type == kEtherTypeVlan || type == kEtherTypeQinQ)) {
      uint16_t tci = 0;
      r.ReadU16(&tci);
      VlanTag& tag = h.vlan_tags[h.vlan_count++];
      tag.tpid = type;
      tag.pcp = static_cast<uint8_t>((tci >> VlanTag::kPcpShift) &
                                     VlanTag::kPcpMask);
      tag.dei = (tci & VlanTag::kDeiMask) != 0;
      tag.vid = tci & VlanTag::kVidMask;
      r.ReadU16(&type);
    }
    h.ethertype = type;
    if (!r.ok()) return std::nullopt;
    return h;
  }

  bool Write(Writer& w) const {
    if (vlan_count > kMaxVlanTags) {
      w.Fail();
      return false;
    }
    for (uint8_t b : dst) w.WriteU8(b);
    for (uint8_t b : src) w.WriteU8(b);
    for (uint8_t i = 0; i < vlan_count; ++i) {
      const VlanTag& tag = vlan_tags[i];
      if (tag.pcp > VlanTag::kPcpMask || tag.vid > VlanTag::kVidMask) {
        w.Fail();
        return false;
      }
      w.WriteU16(tag.tpid);
      w.WriteU16(static_cast<uint16_t>((tag.pcp << VlanTag::kPcpShift) |
                                       (tag.dei ? VlanTag::kDeiMask : 0) |
                                       tag.vid));
    }
    w.WriteU16(ethertype);
    return w.ok();
  }

  bool operator==(const EthernetHeader&) const = default;
};

}  // namespace rue::wire

#endif  // RUE_WIRE_ETHERNET_H_
