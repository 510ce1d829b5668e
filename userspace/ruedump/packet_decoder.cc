// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/packet_decoder.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rue/wire/roce_packet.h"
#include "rue/wire/udp_frame.h"
#include "rue/wire/uet.h"
#include "ruedump/ip_fields.h"
#include "ruedump/ip_peek.h"
#include "ruedump/link_fields.h"
#include "ruedump/roce_fields.h"
#include "ruedump/uet_decoder.h"

namespace rue::dump {
namespace {

enum class Protocol : uint8_t { kRoce, kUet };

std::optional<Protocol> ProtocolOf(uint16_t dst_port, Selection selection) {
  if (dst_port == wire::kRoceV2UdpPort && selection.roce)
    return Protocol::kRoce;
  if (dst_port == wire::kUetUdpPort && selection.uet) return Protocol::kUet;
  return std::nullopt;
}

Section ProtocolSection(Protocol protocol) {
  Cell cell{"protocol", "protocol", Style::kBare, Level::kBrief,
            Text(protocol == Protocol::kRoce ? "RoCEv2" : "UET")};
  return Section{"", "Protocol", false, {std::move(cell)}};
}

void AppendAll(Record& record, std::vector<Section> sections) {
  for (Section& s : sections) record.sections.push_back(std::move(s));
}

// The headers as far as the lenient look found them.
Record HeaderRecord(const Packet& packet, LinkType link_type, const Link& link,
                    const IpUdpPeek& peek, Protocol protocol) {
  Record record;
  record.sections.push_back(FrameSection(packet, link_type));
  AppendAll(record, LinkSections(link));
  record.sections.push_back(peek.ipv4 ? Ipv4Section(*peek.ipv4)
                                      : Ipv6Section(*peek.ipv6));
  record.sections.push_back(UdpSection(peek.udp));
  record.sections.push_back(ProtocolSection(protocol));
  return record;
}

std::string Reason(const Packet& packet, const wire::Error& error) {
  std::string reason =
      std::string(wire::ErrorCodeName(error.code)) + ": " + error.message;
  if (packet.bytes.size() < packet.wire_length) {
    reason += " (capture cut at " + std::to_string(packet.bytes.size()) +
              " of " + std::to_string(packet.wire_length) + " bytes)";
  }
  return reason;
}

Decoded Malformed(Record record, const Packet& packet,
                  const wire::Error& error) {
  Cell cell{"malformed", "malformed:", Style::kLabel, Level::kBrief,
            Text(Reason(packet, error))};
  record.sections.push_back(Section{"", "Error", false, {std::move(cell)}});
  return Decoded{Verdict::kMalformed, std::move(record)};
}

// The link layer named the network protocol; the IP header must agree.
std::optional<wire::Error> CheckIpVersion(const Link& link,
                                          const IpUdpPeek& peek) {
  if (!link.ethertype) return std::nullopt;
  const uint16_t want = peek.ipv4 ? wire::kEtherTypeIpv4 : wire::kEtherTypeIpv6;
  if (*link.ethertype == want) return std::nullopt;
  return wire::Error{wire::ErrorCode::kBadIpVersion,
                     "IP version " + std::to_string(peek.ipv4 ? 4 : 6) +
                         " under EtherType " + Hex(*link.ethertype, 4).text};
}

Decoded DecodeRoce(Record record, const Packet& packet, const Link& link) {
  wire::Result<wire::RoceFrame> frame =
      wire::ParseRoceFrame(link.network, wire::LinkType::kIp);
  if (!frame.ok())
    return Malformed(std::move(record), packet,
                     wire::Error{frame.code(), frame.message()});
  AppendAll(record, RoceSections(*frame));
  return Decoded{frame->icrc_ok ? Verdict::kRoceOk : Verdict::kRoceBadIcrc,
                 std::move(record)};
}

Decoded DecodeUetPacket(Record record, const Packet& packet, const Link& link) {
  wire::Result<wire::UdpFrame> frame =
      wire::ParseUdpFrame(link.network, wire::LinkType::kIp);
  if (!frame.ok())
    return Malformed(std::move(record), packet,
                     wire::Error{frame.code(), frame.message()});
  wire::Result<std::vector<Section>> uet = DecodeUet(frame->udp_payload);
  if (!uet.ok())
    return Malformed(std::move(record), packet,
                     wire::Error{uet.code(), uet.message()});
  AppendAll(record, std::move(uet.value()));
  return Decoded{Verdict::kUet, std::move(record)};
}

}  // namespace

Decoded DecodePacket(const Packet& packet, LinkType link_type,
                     Selection selection) {
  const std::optional<Link> link = ParseLink(link_type, packet.bytes);
  if (!link || !link->CarriesIp()) return Decoded{};
  const std::optional<IpUdpPeek> peek = PeekIpUdp(link->network);
  if (!peek) return Decoded{};
  const std::optional<Protocol> protocol =
      ProtocolOf(peek->udp.dst_port, selection);
  if (!protocol) return Decoded{};

  Record record = HeaderRecord(packet, link_type, *link, *peek, *protocol);
  if (std::optional<wire::Error> error = CheckIpVersion(*link, *peek))
    return Malformed(std::move(record), packet, *error);
  if (*protocol == Protocol::kRoce)
    return DecodeRoce(std::move(record), packet, *link);
  return DecodeUetPacket(std::move(record), packet, *link);
}

}  // namespace rue::dump
