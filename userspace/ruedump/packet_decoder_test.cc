// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// DecodePacket() over the wire library's scapy goldens in every link type,
// over every opcode the wire library knows (built with its builder), and
// over broken, foreign and random frames.
#include "ruedump/packet_decoder.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>

#include "roce_goldens.h"
#include "rue/wire/roce_opcode.h"
#include "ruedump/format.h"
#include "ruedump/json_output.h"
#include "ruedump/test_pcap.h"
#include "ruedump/test_roce.h"
#include "ruedump/test_uet.h"
#include "ruedump/text_output.h"

namespace rue::dump {
namespace {

using nlohmann::json;
using testing::Bytes;
using wire::testing::RoceGolden;
using wire::testing::RoceGoldens;

constexpr LinkType kAllLinkTypes[] = {LinkType::kEthernet, LinkType::kRawIp,
                                      LinkType::kLinuxSll,
                                      LinkType::kLinuxSll2};

std::string HexText(uint64_t v, int digits = 1) {
  char text[24];
  std::snprintf(text, sizeof(text), "0x%0*llx", digits,
                static_cast<unsigned long long>(v));
  return text;
}

Packet MakePacket(const Bytes& frame) {
  Packet p;
  p.number = 1;
  p.seconds = 1700000000;
  p.micros = 42;
  p.wire_length = static_cast<uint32_t>(frame.size());
  p.bytes = frame;
  return p;
}

Decoded Decode(const Bytes& frame, LinkType type,
               Selection selection = Selection{}) {
  return DecodePacket(MakePacket(frame), type, selection);
}

json Json(const Decoded& d) {
  return json::parse(RenderJson(d.record, /*verbose=*/true));
}

// The golden's frame in a link type: Ethernet goldens as generated (VLAN
// tag included), the others wrapped.
Bytes GoldenFrame(const RoceGolden& g, LinkType type) {
  const Bytes bytes = testing::ToBytes(g.bytes);
  if (g.link == wire::LinkType::kEthernet) {
    if (type == LinkType::kEthernet) return bytes;
    return testing::Wrap(type, testing::StripEthernet(bytes));
  }
  return testing::Wrap(type, bytes);
}

void ExpectIpUdp(const json& j, const RoceGolden& g) {
  if (g.ipv4) {
    EXPECT_EQ(j["ip"]["src"], FormatIpv4(g.ipv4->src));
    EXPECT_EQ(j["ip"]["dst"], FormatIpv4(g.ipv4->dst));
    EXPECT_EQ(j["ip"]["ttl"], g.ipv4->ttl);
    EXPECT_EQ(j["ip"]["ce"], (g.ipv4->tos & 3) == 3);
  } else {
    EXPECT_EQ(j["ip"]["src"], FormatIpv6(g.ipv6->src));
    EXPECT_EQ(j["ip"]["dst"], FormatIpv6(g.ipv6->dst));
    EXPECT_EQ(j["ip"]["hop-limit"], g.ipv6->hop_limit);
  }
  EXPECT_EQ(j["udp"]["src-port"], g.udp.src_port);
  EXPECT_EQ(j["udp"]["dst-port"], 4791);
  EXPECT_EQ(j["udp"]["checksum"], HexText(g.udp.checksum, 4));
}

void ExpectBth(const json& bth, const wire::Bth& h) {
  EXPECT_EQ(bth["opcode"], wire::LookupOpcode(h.opcode).name);
  EXPECT_EQ(bth["opcode-value"], HexText(h.opcode, 2));
  EXPECT_EQ(bth["dest-qp"], HexText(h.dest_qp));
  EXPECT_EQ(bth["psn"], HexText(h.psn));
  EXPECT_EQ(bth["ack-req"], h.ack_req);
  EXPECT_EQ(bth["se"], h.se);
  EXPECT_EQ(bth["mig-req"], h.m);
  EXPECT_EQ(bth["pad-count"], h.pad_count);
  EXPECT_EQ(bth["tver"], h.tver);
  EXPECT_EQ(bth["pkey"], HexText(h.pkey, 4));
  EXPECT_EQ(bth["fecn"], h.fecn);
  EXPECT_EQ(bth["becn"], h.becn);
}

void ExpectExtHeaders(const json& j, const wire::RoceHeaders& h) {
  if (h.reth) {
    EXPECT_EQ(j["reth"]["va"], HexText(h.reth->va));
    EXPECT_EQ(j["reth"]["rkey"], HexText(h.reth->rkey));
    EXPECT_EQ(j["reth"]["dma-length"], h.reth->dma_length);
  }
  if (h.aeth) {
    EXPECT_EQ(j["aeth"]["msn"], HexText(h.aeth->msn));
    EXPECT_EQ(j["aeth"]["syndrome"], HexText(h.aeth->syndrome, 2));
  }
  if (h.deth) {
    EXPECT_EQ(j["deth"]["qkey"], HexText(h.deth->qkey));
    EXPECT_EQ(j["deth"]["src-qp"], HexText(h.deth->src_qp));
  }
  if (h.imm_dt) {
    EXPECT_EQ(j["immdt"]["imm"], HexText(h.imm_dt->imm, 8));
  }
  if (h.ieth) {
    EXPECT_EQ(j["ieth"]["rkey"], HexText(h.ieth->rkey));
  }
  if (h.atomic_eth) {
    EXPECT_EQ(j["atomic-eth"]["va"], HexText(h.atomic_eth->va));
    EXPECT_EQ(j["atomic-eth"]["rkey"], HexText(h.atomic_eth->rkey));
    EXPECT_EQ(j["atomic-eth"]["swap-add"], HexText(h.atomic_eth->swap_add));
    EXPECT_EQ(j["atomic-eth"]["compare"], HexText(h.atomic_eth->compare));
  }
  if (h.atomic_ack_eth) {
    EXPECT_EQ(j["atomic-ack-eth"]["original-data"],
              HexText(h.atomic_ack_eth->original_data));
  }
  const std::pair<const char*, bool> sections[] = {
      {"reth", h.reth.has_value()},
      {"aeth", h.aeth.has_value()},
      {"deth", h.deth.has_value()},
      {"immdt", h.imm_dt.has_value()},
      {"ieth", h.ieth.has_value()},
      {"atomic-eth", h.atomic_eth.has_value()},
      {"atomic-ack-eth", h.atomic_ack_eth.has_value()},
      {"cnp", h.cnp_reserved.has_value()},
  };
  for (const auto& [key, present] : sections)
    EXPECT_EQ(j.contains(key), present) << key;
}

TEST(PacketDecoderTest, GoldensInEveryLinkType) {
  for (const RoceGolden& g : RoceGoldens()) {
    for (LinkType type : kAllLinkTypes) {
      SCOPED_TRACE(g.name + " in " + std::string(LinkTypeName(type)));
      const Decoded d = Decode(GoldenFrame(g, type), type);
      ASSERT_EQ(d.verdict,
                g.icrc_ok ? Verdict::kRoceOk : Verdict::kRoceBadIcrc);
      const json j = Json(d);
      EXPECT_EQ(j["protocol"], "RoCEv2");
      EXPECT_EQ(j["time"], 1700000000.000042);
      ExpectIpUdp(j, g);
      ExpectBth(j["bth"], g.roce.bth);
      ExpectExtHeaders(j, g.roce);
      EXPECT_EQ(j["payload-length"], g.payload.size());
      EXPECT_EQ(j["pad-length"], g.pad_count);
      EXPECT_EQ(j["icrc"], HexText(g.icrc, 8));
      EXPECT_EQ(j["icrc-ok"], g.icrc_ok);
      EXPECT_EQ(j.contains("icrc-expected"), !g.icrc_ok);
      EXPECT_FALSE(j.contains("malformed"));
    }
  }
}

TEST(PacketDecoderTest, GoldenLinkHeaders) {
  const RoceGolden* vlan = nullptr;
  for (const RoceGolden& g : RoceGoldens())
    if (g.name == "rc_rdma_write_first_v4_vlan") vlan = &g;
  ASSERT_NE(vlan, nullptr);
  json j = Json(
      Decode(GoldenFrame(*vlan, LinkType::kEthernet), LinkType::kEthernet));
  EXPECT_EQ(j["eth"]["dst"], "02:00:00:00:00:02");
  EXPECT_EQ(j["eth"]["src"], "02:00:00:00:00:01");
  EXPECT_EQ(j["eth"]["ethertype"], "0x0800");
  EXPECT_EQ(j["vlan"]["id"], 100);
  EXPECT_EQ(j["vlan"]["pcp"], 3);
  EXPECT_EQ(j["vlan"]["tpid"], "0x8100");
  EXPECT_EQ(j["frame"], 1);
  EXPECT_EQ(j["link-type"], "EN10MB");

  j = Json(
      Decode(GoldenFrame(*vlan, LinkType::kLinuxSll2), LinkType::kLinuxSll2));
  EXPECT_FALSE(j.contains("eth"));
  EXPECT_EQ(j["sll"]["version"], 2);
  EXPECT_EQ(j["sll"]["packet-type"], "outgoing");
  EXPECT_EQ(j["sll"]["ifindex"], 7);
  EXPECT_EQ(j["sll"]["address"], "02:00:00:00:00:01");
  EXPECT_EQ(j["sll"]["protocol"], "0x0800");
  EXPECT_EQ(j["link-type"], "LINUX_SLL2");

  j = Json(
      Decode(GoldenFrame(*vlan, LinkType::kLinuxSll), LinkType::kLinuxSll));
  EXPECT_EQ(j["sll"]["version"], 1);
  EXPECT_FALSE(j["sll"].contains("ifindex"));
}

TEST(PacketDecoderTest, EveryKnownOpcode) {
  int known = 0;
  for (int op = 0; op < 256; ++op) {
    const wire::OpcodeInfo& info = wire::LookupOpcode(static_cast<uint8_t>(op));
    if (!info.known) continue;
    ++known;
    for (bool ipv6 : {false, true}) {
      SCOPED_TRACE(std::string(info.name) + (ipv6 ? " IPv6" : " IPv4"));
      const wire::RoceHeaders headers =
          testing::SampleHeaders(static_cast<uint8_t>(op));
      const std::size_t payload = info.has_payload ? 5 : 0;
      const Decoded d = Decode(testing::BuildRoceIp(headers, payload, ipv6),
                               LinkType::kRawIp);
      ASSERT_EQ(d.verdict, Verdict::kRoceOk);
      const json j = Json(d);
      wire::Bth bth = headers.bth;
      bth.pad_count = info.has_payload ? 3 : 0;
      ExpectBth(j["bth"], bth);
      ExpectExtHeaders(j, headers);
      EXPECT_EQ(j["payload-length"], payload);
      const std::string line = RenderLine(d.record);
      EXPECT_NE(line.find(" RoCEv2 " + std::string(info.name) + " "),
                std::string::npos)
          << line;
      EXPECT_NE(line.find(" ok\n"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(known, 24 + 12 + 2 + 1);  // RC, UC, UD, CNP
}

std::string MalformedReason(const Decoded& d) {
  EXPECT_EQ(d.verdict, Verdict::kMalformed);
  const json j = Json(d);
  return j.value("malformed", "");
}

Bytes SampleIp() {
  return testing::BuildRoceIp(testing::SampleHeaders(0x04), 16);
}

TEST(PacketDecoderTest, MalformedRoce) {
  Bytes checksum = SampleIp();
  checksum[10] ^= std::byte{1};
  EXPECT_EQ(MalformedReason(Decode(checksum, LinkType::kRawIp)),
            "bad_ip_checksum: IPv4 header checksum does not verify");

  Bytes opcode = SampleIp();
  opcode[28] = std::byte{0x1c};
  EXPECT_EQ(MalformedReason(Decode(opcode, LinkType::kRawIp)),
            "unknown_opcode: opcode 28");

  Bytes udp_length = SampleIp();
  udp_length[25] ^= std::byte{4};
  EXPECT_EQ(MalformedReason(Decode(udp_length, LinkType::kRawIp)).substr(0, 15),
            "bad_udp_length:");

  Bytes fragment = SampleIp();
  fragment[6] = std::byte{0x20};  // MF instead of DF
  fragment[10] = std::byte{0};
  fragment[11] = std::byte{0};
  {
    wire::InternetChecksum sum;
    sum.Add(std::span(fragment).first(20));
    fragment[10] = static_cast<std::byte>(sum.Value() >> 8);
    fragment[11] = static_cast<std::byte>(sum.Value() & 0xFF);
  }
  EXPECT_EQ(MalformedReason(Decode(fragment, LinkType::kRawIp)),
            "ip_fragment: IPv4 fragment");
}

TEST(PacketDecoderTest, MalformedKeepsTheHeadersItCouldRead) {
  Bytes ip = SampleIp();
  ip[28] = std::byte{0x1c};
  const Decoded d = Decode(testing::WrapEthernet(ip), LinkType::kEthernet);
  EXPECT_EQ(RenderLine(d.record),
            "1700000000.000042 192.0.2.1 > 192.0.2.2 udp 49153 > 4791 RoCEv2 "
            "malformed: unknown_opcode: opcode 28\n");
}

TEST(PacketDecoderTest, IpVersionMustMatchTheLinkLayer) {
  Bytes frame = testing::WrapEthernet(SampleIp());
  frame[12] = std::byte{0x86};
  frame[13] = std::byte{0xdd};
  EXPECT_EQ(MalformedReason(Decode(frame, LinkType::kEthernet)),
            "bad_ip_version: IP version 4 under EtherType 0x86dd");
}

TEST(PacketDecoderTest, IpVersionMustMatchTheLinkType) {
  EXPECT_EQ(Decode(SampleIp(), LinkType::kIpv4).verdict, Verdict::kRoceOk);
  EXPECT_EQ(MalformedReason(Decode(SampleIp(), LinkType::kIpv6)),
            "bad_ip_version: IP version 4 under EtherType 0x86dd");
}

TEST(PacketDecoderTest, CutByTheSnapLength) {
  const Bytes frame = testing::WrapEthernet(SampleIp());
  Packet p = MakePacket(frame);
  p.bytes = std::span(frame).first(50);
  const Decoded d = DecodePacket(p, LinkType::kEthernet, Selection{});
  EXPECT_EQ(MalformedReason(d),
            "truncated: IP packet: need 60 bytes, have 36 (capture cut at 50 "
            "of 74 bytes)");
}

TEST(PacketDecoderTest, Uet) {
  const Decoded d =
      Decode(testing::WrapEthernet(testing::BuildUetIp(4)), LinkType::kEthernet);
  ASSERT_EQ(d.verdict, Verdict::kUet);
  EXPECT_EQ(RenderLine(d.record),
            "1700000000.000042 192.0.2.1 > 192.0.2.2 udp 49153 > 4793 UET "
            "RUD_REQ next=REQ_STD psn=0x10 spdcid=0x11 dpdcid=0x22 clear=0 ar "
            "SES SEND hdr=std msg=0x1 rlen=4 job=0x42 pid=0x5 ri=0x7 gen=0 "
            "som eom offset=0x0 init=0x0 key=0x0 hdata=0x0 payload=4\n");
  const auto j = Json(d);
  EXPECT_EQ(j["pds"]["type"], "RUD_REQ");
  EXPECT_EQ(j["pds"]["psn"], "0x10");
  EXPECT_EQ(j["pds"]["clear-psn-offset"], 0);
  EXPECT_EQ(j["pds"]["ar"], true);
  EXPECT_EQ(j["pds"]["retx"], false);
  EXPECT_EQ(j["ses"]["opcode"], "SEND");
  EXPECT_EQ(j["ses"]["request-length"], 4);
  EXPECT_EQ(j["payload-length"], 4);

  Bytes bad = testing::BuildUetIp(4);
  bad[25] ^= std::byte{1};
  EXPECT_EQ(MalformedReason(Decode(bad, LinkType::kRawIp)).substr(0, 15),
            "bad_udp_length:");
  // Zero bytes after UDP: PDS type 0.
  EXPECT_EQ(MalformedReason(
                Decode(testing::BuildUdpIp(4793, 44), LinkType::kRawIp)),
            "unknown_opcode: PDS type 0 is reserved");
  // A reserved next header: the prologue 0x1188 (RUD_REQ, REQ_STD, AR)
  // becomes 0x1388 (next_hdr 7).  The UDP checksum is zero, so nothing
  // else changes.
  Bytes reserved = testing::BuildUetIp(0);
  ASSERT_EQ(reserved[28], std::byte{0x11});
  reserved[28] = std::byte{0x13};
  EXPECT_EQ(MalformedReason(Decode(reserved, LinkType::kRawIp)),
            "unknown_opcode: PDS next header 7 is reserved");
}

TEST(PacketDecoderTest, Selection) {
  const Bytes roce = SampleIp();
  const Bytes uet = testing::BuildUetIp(8);
  const Selection roce_only{true, false};
  const Selection uet_only{false, true};
  EXPECT_EQ(Decode(roce, LinkType::kRawIp, roce_only).verdict,
            Verdict::kRoceOk);
  EXPECT_EQ(Decode(uet, LinkType::kRawIp, roce_only).verdict, Verdict::kOther);
  EXPECT_EQ(Decode(roce, LinkType::kRawIp, uet_only).verdict, Verdict::kOther);
  EXPECT_EQ(Decode(uet, LinkType::kRawIp, uet_only).verdict, Verdict::kUet);
}

TEST(PacketDecoderTest, OtherTrafficIsSkipped) {
  Bytes arp = testing::WrapEthernet(SampleIp());
  arp[12] = std::byte{0x08};
  arp[13] = std::byte{0x06};
  Bytes tcp = SampleIp();
  tcp[9] = std::byte{6};
  const Bytes dns = testing::BuildUdpIp(53, 20);
  const Bytes sport_only = [] {
    Bytes b = testing::BuildUdpIp(1234, 20);
    b[20] = std::byte{0x12};  // source port 4791
    b[21] = std::byte{0xb7};
    return b;
  }();
  for (const Bytes* b :
       std::initializer_list<const Bytes*>{&tcp, &dns, &sport_only}) {
    const Decoded d = Decode(*b, LinkType::kRawIp);
    EXPECT_EQ(d.verdict, Verdict::kOther);
    EXPECT_TRUE(d.record.sections.empty());
  }
  EXPECT_EQ(Decode(arp, LinkType::kEthernet).verdict, Verdict::kOther);
  EXPECT_EQ(Decode(Bytes(), LinkType::kEthernet).verdict, Verdict::kOther);
  EXPECT_EQ(Decode(Bytes(), LinkType::kRawIp).verdict, Verdict::kOther);
}

// Every truncation of every golden, in every link type: malformed (once it
// is recognisably RoCEv2) or other, never a crash.
TEST(PacketDecoderTest, EveryTruncation) {
  for (const RoceGolden& g : RoceGoldens()) {
    for (LinkType type : kAllLinkTypes) {
      const Bytes frame = GoldenFrame(g, type);
      for (std::size_t n = 0; n < frame.size(); ++n) {
        Packet p = MakePacket(frame);
        p.bytes = std::span(frame).first(n);
        const Decoded d = DecodePacket(p, type, Selection{});
        ASSERT_TRUE(d.verdict == Verdict::kMalformed ||
                    d.verdict == Verdict::kOther)
            << g.name << " " << n;
      }
    }
  }
}

// Random frames and randomly corrupted goldens: whatever the verdict, the
// decoder returns and the record renders.
TEST(PacketDecoderTest, RandomFrames) {
  std::mt19937 rng(4791);
  std::uniform_int_distribution<int> byte(0, 255);
  const std::vector<RoceGolden>& goldens = RoceGoldens();
  for (int i = 0; i < 20000; ++i) {
    const LinkType type = kAllLinkTypes[i % std::size(kAllLinkTypes)];
    Bytes frame;
    if (i % 3 == 0) {
      frame.resize(static_cast<std::size_t>(byte(rng)));
      for (std::byte& b : frame) b = static_cast<std::byte>(byte(rng));
    } else {
      frame = GoldenFrame(goldens[i % goldens.size()], type);
      const int flips = 1 + byte(rng) % 4;
      for (int f = 0; f < flips; ++f) {
        frame[static_cast<std::size_t>(rng() % frame.size())] =
            static_cast<std::byte>(byte(rng));
      }
    }
    const Decoded d = Decode(frame, type);
    RenderLine(d.record);
    RenderVerbose(d.record);
    RenderJson(d.record, true);
  }
}

}  // namespace
}  // namespace rue::dump
