// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/ip_fields.h"

#include <string>

#include "ruedump/format.h"

namespace rue::dump {
namespace {

using wire::Ipv4Header;
using wire::Ipv6Header;
using wire::UdpHeader;

constexpr uint8_t kEcnMask = 0x3;
constexpr uint8_t kEcnCe = 0x3;
constexpr int kDscpShift = 2;

// RFC 3168 codepoint names.
std::string EcnName(uint8_t traffic_class) {
  switch (traffic_class & kEcnMask) {
    case 0:
      return "Not-ECT";
    case 1:
      return "ECT(1)";
    case 2:
      return "ECT(0)";
    default:
      return "CE";
  }
}

std::string Ipv4FlagNames(uint8_t flags) {
  std::string names;
  if (flags & Ipv4Header::kFlagDontFragment) names = "DF";
  if (flags & Ipv4Header::kFlagMoreFragments)
    names += names.empty() ? "MF" : ",MF";
  return names.empty() ? "none" : names;
}

constexpr Field<Ipv4Header> kIpv4Fields[] = {
    {"src", "", Style::kBare, Level::kBrief,
     [](const Ipv4Header& h) { return Text(FormatIpv4(h.src)); }},
    {"dst", ">", Style::kLabel, Level::kBrief,
     [](const Ipv4Header& h) { return Text(FormatIpv4(h.dst)); }},
    {"ce", "", Style::kFlag, Level::kBrief,
     [](const Ipv4Header& h) { return Bool((h.tos & kEcnMask) == kEcnCe); }},
    {"version", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.version); }},
    {"header-length", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.HeaderLength()); }},
    {"dscp", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.tos >> kDscpShift); }},
    {"ecn", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Text(EcnName(h.tos)); }},
    {"total-length", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.total_length); }},
    {"id", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Hex(h.identification, 4); }},
    {"flags", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Text(Ipv4FlagNames(h.flags)); }},
    {"fragment-offset", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.fragment_offset); }},
    {"ttl", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.ttl); }},
    {"protocol", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Number(h.protocol); }},
    {"checksum", "", Style::kLabel, Level::kDetail,
     [](const Ipv4Header& h) { return Hex(h.header_checksum, 4); }},
};

constexpr Field<Ipv6Header> kIpv6Fields[] = {
    {"src", "", Style::kBare, Level::kBrief,
     [](const Ipv6Header& h) { return Text(FormatIpv6(h.src)); }},
    {"dst", ">", Style::kLabel, Level::kBrief,
     [](const Ipv6Header& h) { return Text(FormatIpv6(h.dst)); }},
    {"ce", "", Style::kFlag, Level::kBrief,
     [](const Ipv6Header& h) {
       return Bool((h.traffic_class & kEcnMask) == kEcnCe);
     }},
    {"version", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Number(h.version); }},
    {"dscp", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Number(h.traffic_class >> kDscpShift); }},
    {"ecn", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Text(EcnName(h.traffic_class)); }},
    {"flow-label", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Hex(h.flow_label, 5); }},
    {"payload-length", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Number(h.payload_length); }},
    {"next-header", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Number(h.next_header); }},
    {"hop-limit", "", Style::kLabel, Level::kDetail,
     [](const Ipv6Header& h) { return Number(h.hop_limit); }},
};

constexpr Field<UdpHeader> kUdpFields[] = {
    {"src-port", "udp", Style::kLabel, Level::kBrief,
     [](const UdpHeader& h) { return Number(h.src_port); }},
    {"dst-port", ">", Style::kLabel, Level::kBrief,
     [](const UdpHeader& h) { return Number(h.dst_port); }},
    {"length", "", Style::kLabel, Level::kDetail,
     [](const UdpHeader& h) { return Number(h.length); }},
    {"checksum", "", Style::kLabel, Level::kDetail,
     [](const UdpHeader& h) { return Hex(h.checksum, 4); }},
};

}  // namespace

Section Ipv4Section(const Ipv4Header& header) {
  return MakeSection(header, {"ip", "IPv4", false}, kIpv4Fields);
}

Section Ipv6Section(const Ipv6Header& header) {
  return MakeSection(header, {"ip", "IPv6", false}, kIpv6Fields);
}

Section UdpSection(const UdpHeader& header) {
  return MakeSection(header, {"udp", "UDP", false}, kUdpFields);
}

}  // namespace rue::dump
