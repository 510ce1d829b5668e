// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/link_fields.h"

#include <span>
#include <string>

#include "ruedump/format.h"

namespace rue::dump {
namespace {

using wire::EthernetHeader;
using wire::VlanTag;

struct FrameView {
  const Packet& packet;
  LinkType link_type;
};

constexpr Field<FrameView> kFrameFields[] = {
    {"frame", "", Style::kLabel, Level::kDetail,
     [](const FrameView& f) { return Number(f.packet.number); }},
    {"time", "", Style::kBare, Level::kBrief,
     [](const FrameView& f) {
       return Seconds(f.packet.seconds, f.packet.micros);
     }},
    {"captured-length", "", Style::kLabel, Level::kDetail,
     [](const FrameView& f) { return Number(f.packet.bytes.size()); }},
    {"wire-length", "", Style::kLabel, Level::kDetail,
     [](const FrameView& f) { return Number(f.packet.wire_length); }},
    {"link-type", "", Style::kLabel, Level::kDetail,
     [](const FrameView& f) {
       return Text(std::string(LinkTypeName(f.link_type)));
     }},
};

constexpr Field<EthernetHeader> kEthernetFields[] = {
    {"dst", "", Style::kLabel, Level::kDetail,
     [](const EthernetHeader& h) { return Text(FormatMac(h.dst)); }},
    {"src", "", Style::kLabel, Level::kDetail,
     [](const EthernetHeader& h) { return Text(FormatMac(h.src)); }},
    {"ethertype", "", Style::kLabel, Level::kDetail,
     [](const EthernetHeader& h) { return Hex(h.ethertype, 4); }},
};

// Linux's PACKET_* values (linux/if_packet.h).
std::string PacketTypeName(uint16_t type) {
  switch (type) {
    case 0:
      return "host";
    case 1:
      return "broadcast";
    case 2:
      return "multicast";
    case 3:
      return "otherhost";
    case 4:
      return "outgoing";
    default:
      return std::to_string(type);
  }
}

constexpr Field<CookedHeader> kCookedFields[] = {
    {"version", "", Style::kLabel, Level::kDetail,
     [](const CookedHeader& h) { return Number(h.version); }},
    {"packet-type", "", Style::kLabel, Level::kDetail,
     [](const CookedHeader& h) { return Text(PacketTypeName(h.packet_type)); }},
    {"ifindex", "", Style::kLabel, Level::kDetail,
     [](const CookedHeader& h) { return Number(h.ifindex); },
     [](const CookedHeader& h) { return h.version >= 2; }},
    {"arphrd-type", "", Style::kLabel, Level::kDetail,
     [](const CookedHeader& h) { return Number(h.arphrd_type); }},
    {"address", "", Style::kLabel, Level::kDetail,
     [](const CookedHeader& h) {
       return Text(
           FormatLinkAddress(std::span(h.address).first(h.address_length)));
     }},
    {"protocol", "", Style::kLabel, Level::kDetail,
     [](const CookedHeader& h) { return Hex(h.protocol, 4); }},
};

constexpr Field<VlanTag> kVlanFields[] = {
    {"id", "vlan", Style::kLabel, Level::kBrief,
     [](const VlanTag& t) { return Number(t.vid); }},
    {"pcp", "", Style::kLabel, Level::kBrief,
     [](const VlanTag& t) { return Number(t.pcp); }},
    {"dei", "", Style::kLabel, Level::kDetail,
     [](const VlanTag& t) { return Bool(t.dei); }},
    {"tpid", "", Style::kLabel, Level::kDetail,
     [](const VlanTag& t) { return Hex(t.tpid, 4); }},
};

constexpr SectionName kVlanNames[] = {
    {"vlan", "VLAN", false},
    {"inner-vlan", "VLAN (inner)", false},
};

}  // namespace

Section FrameSection(const Packet& packet, LinkType link_type) {
  return MakeSection(FrameView{packet, link_type}, {"", "Frame", false},
                     kFrameFields);
}

std::vector<Section> LinkSections(const Link& link) {
  std::vector<Section> sections;
  if (link.eth) {
    sections.push_back(
        MakeSection(*link.eth, {"eth", "Ethernet", false}, kEthernetFields));
  }
  if (link.cooked) {
    sections.push_back(MakeSection(
        *link.cooked,
        {"sll",
         link.cooked->version == 1 ? "Linux cooked v1" : "Linux cooked v2",
         false},
        kCookedFields));
  }
  for (uint8_t i = 0; i < link.vlan_count && i < std::size(kVlanNames); ++i)
    sections.push_back(
        MakeSection(link.vlan_tags[i], kVlanNames[i], kVlanFields));
  return sections;
}

}  // namespace rue::dump
