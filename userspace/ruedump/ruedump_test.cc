// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ruedump end to end: capture files written with libpcap's dump API (from
// the wire library's builder and its scapy goldens), read by Run(); output
// and exit status checked.
#include "ruedump/ruedump.h"

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "roce_goldens.h"
#include "ruedump/hex_dump.h"
#include "ruedump/record.h"
#include "ruedump/test_pcap.h"
#include "ruedump/test_roce.h"
#include "ruedump/test_uet.h"

namespace rue::dump {
namespace {

using testing::Bytes;
using testing::PcapRecord;
using testing::RunResult;
using testing::RunRuedump;
using wire::testing::RoceGolden;
using wire::testing::RoceGoldens;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// A capture of these frames, one microsecond apart.
std::string Capture(const std::string& name, int dlt,
                    const std::vector<Bytes>& frames, int snaplen = 65535) {
  std::vector<PcapRecord> records;
  for (const Bytes& frame : frames) {
    records.push_back(PcapRecord{frame, 1700000000,
                                 static_cast<int64_t>(records.size() + 1)});
  }
  const std::string path = testing::TempPath(name);
  EXPECT_TRUE(testing::WritePcap(path, dlt, records, snaplen));
  return path;
}

// The goldens as IP packets (Ethernet ones stripped), optionally without
// the one with a wrong ICRC (the last).
std::vector<Bytes> GoldenIpPackets(bool with_bad_icrc) {
  std::vector<Bytes> packets;
  for (const RoceGolden& g : RoceGoldens()) {
    if (!g.icrc_ok && !with_bad_icrc) continue;
    const Bytes bytes = testing::ToBytes(g.bytes);
    packets.push_back(g.link == wire::LinkType::kEthernet
                          ? testing::StripEthernet(bytes)
                          : bytes);
  }
  return packets;
}

std::vector<Bytes> WrapAll(LinkType type, const std::vector<Bytes>& ips) {
  std::vector<Bytes> frames;
  for (const Bytes& ip : ips) frames.push_back(testing::Wrap(type, ip));
  return frames;
}

std::string Summary(int packets, int ok, int bad, int uet, int other,
                    int malformed) {
  using std::to_string;
  return to_string(packets) + " packets: " + to_string(ok + bad) + " roce (" +
         to_string(ok) + " icrc ok, " + to_string(bad) + " bad), " +
         to_string(uet) + " uet, " + to_string(other) + " other, " +
         to_string(malformed) + " malformed\n";
}

// RC RDMA WRITE FIRST, 1024 bytes of payload, as in ruedump(8).
Bytes WriteFirst() {
  return testing::BuildRoceIp(testing::SampleHeaders(0x06), 1024);
}

constexpr char kWriteFirstLine[] =
    "1700000000.000001 192.0.2.1 > 192.0.2.2 udp 49153 > 4791 RoCEv2 "
    "RC_RDMA_WRITE_FIRST dqpn 0x10 psn 0x1a2b3c ackreq se=0 pad=0 RETH "
    "va=0x7f0012345000 rkey=0x1234 len=65536 payload=1024 icrc=0xf07bb890 "
    "ok\n";

// The text line of every golden, in RoceGoldens() order.  (Cross-checked
// field by field against tshark 4.0's infiniband dissector.)
const char* const kGoldenLines[] = {
    "1700000000.000001 192.0.2.1 > 192.0.2.2 udp 49153 > 4791 RoCEv2 "
    "RC_SEND_ONLY dqpn 0x11 psn 0x1 ackreq se=0 pad=0 payload=16 "
    "icrc=0xa292f6b8 ok",
    "1700000000.000002 192.0.2.1 > 192.0.2.2 udp 49154 > 4791 RoCEv2 "
    "RC_SEND_ONLY dqpn 0x12 psn 0xffffff se=1 pad=3 payload=1 "
    "icrc=0x9dfba3f9 ok",
    "1700000000.000003 192.0.2.1 > 192.0.2.2 udp 49155 > 4791 RoCEv2 "
    "RC_SEND_ONLY_WITH_IMMEDIATE dqpn 0x13 psn 0x100 ackreq se=1 pad=3 "
    "ImmDt imm=0xdeadbeef payload=5 icrc=0x7485d6bb ok",
    "1700000000.000004 2001:db8::1 > 2001:db8::2 udp 49156 > 4791 "
    "RoCEv2 RC_SEND_FIRST dqpn 0x104 psn 0x200 se=0 pad=0 payload=32 "
    "icrc=0x058fe16a ok",
    "1700000000.000005 2001:db8::1 > 2001:db8::2 udp 49156 > 4791 "
    "RoCEv2 RC_SEND_MIDDLE dqpn 0x104 psn 0x201 se=0 pad=0 payload=32 "
    "icrc=0xdca3abe0 ok",
    "1700000000.000006 2001:db8::1 > 2001:db8::2 udp 49156 > 4791 "
    "RoCEv2 RC_SEND_LAST dqpn 0x104 psn 0x202 ackreq se=0 pad=1 "
    "payload=7 icrc=0xeb787953 ok",
    "1700000000.000007 192.0.2.1 > 192.0.2.2 udp 49157 > 4791 RoCEv2 "
    "RC_RDMA_WRITE_ONLY dqpn 0x20 psn 0x10 ackreq se=0 pad=2 RETH "
    "va=0x7f0012345678 rkey=0x1234 len=10 payload=10 icrc=0xc1b3f642 ok",
    "1700000000.000008 192.0.2.1 > 192.0.2.2 udp 49158 > 4791 RoCEv2 "
    "RC_RDMA_WRITE_FIRST dqpn 0x21 psn 0x20 se=0 pad=0 RETH "
    "va=0x100000000 rkey=0xcafe0001 len=4096 payload=64 icrc=0x1b31e060 "
    "ok",
    "1700000000.000009 2001:db8::1 > 2001:db8::2 udp 49159 > 4791 "
    "RoCEv2 RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE dqpn 0x22 psn 0x30 ackreq "
    "se=0 pad=1 RETH va=0xffff800000001000 rkey=0xabcdef len=3 ImmDt "
    "imm=0x01020304 payload=3 icrc=0x0cc4742f ok",
    "1700000000.000010 192.0.2.1 > 192.0.2.2 udp 49160 > 4791 RoCEv2 "
    "RC_RDMA_READ_REQUEST dqpn 0x23 psn 0x40 ackreq se=0 pad=0 RETH "
    "va=0x555500000000 rkey=0x42 len=8192 payload=0 icrc=0xf8287f39 ok",
    "1700000000.000011 192.0.2.1 > 192.0.2.2 udp 49161 > 4791 RoCEv2 "
    "RC_RDMA_READ_RESPONSE_ONLY dqpn 0x24 psn 0x40 se=0 pad=3 AETH ACK "
    "credits=31 msn=0x7 payload=13 icrc=0xe5708d3f ok",
    "1700000000.000012 2001:db8::1 > 2001:db8::2 udp 49162 > 4791 "
    "RoCEv2 RC_RDMA_READ_RESPONSE_FIRST dqpn 0x25 psn 0x50 se=0 pad=0 "
    "AETH ACK credits=31 msn=0x8 payload=64 icrc=0x0ac9bd19 ok",
    "1700000000.000013 2001:db8::1 > 2001:db8::2 udp 49162 > 4791 "
    "RoCEv2 RC_RDMA_READ_RESPONSE_LAST dqpn 0x25 psn 0x51 se=0 pad=3 "
    "AETH ACK credits=31 msn=0x9 payload=9 icrc=0x28f9854f ok",
    "1700000000.000014 192.0.2.1 > 192.0.2.2 udp 49163 > 4791 RoCEv2 "
    "RC_ACKNOWLEDGE dqpn 0x26 psn 0x60 se=0 pad=0 AETH ACK credits=31 "
    "msn=0x102 payload=0 icrc=0x4152970f ok",
    "1700000000.000015 192.0.2.1 > 192.0.2.2 udp 49163 > 4791 RoCEv2 "
    "RC_ACKNOWLEDGE dqpn 0x26 psn 0x61 se=0 pad=0 AETH NAK "
    "code=PSN_SEQUENCE_ERROR msn=0x102 payload=0 icrc=0x4f6e0e75 ok",
    "1700000000.000016 2001:db8::1 > 2001:db8::2 udp 49163 > 4791 "
    "RoCEv2 RC_ACKNOWLEDGE dqpn 0x26 psn 0x62 se=0 pad=0 AETH RNR_NAK "
    "timer=14 msn=0x103 payload=0 icrc=0x2da49c27 ok",
    "1700000000.000017 192.0.2.1 > 192.0.2.2 udp 49164 > 4791 RoCEv2 "
    "RC_ATOMIC_ACKNOWLEDGE dqpn 0x27 psn 0x70 se=0 pad=0 AETH ACK "
    "credits=0 msn=0x10 AtomicAckETH orig=0x123456789abcdef payload=0 "
    "icrc=0x2ed5381c ok",
    "1700000000.000018 2001:db8::1 > 2001:db8::2 udp 49165 > 4791 "
    "RoCEv2 RC_COMPARE_SWAP dqpn 0x28 psn 0x80 ackreq se=0 pad=0 "
    "AtomicETH va=0x7fff00000008 rkey=0x101 swap-add=0x1111111111111111 "
    "compare=0x2222222222222222 payload=0 icrc=0x5a7bd00c ok",
    "1700000000.000019 192.0.2.1 > 192.0.2.2 udp 49166 > 4791 RoCEv2 "
    "RC_FETCH_ADD dqpn 0x29 psn 0x90 ackreq se=0 pad=0 AtomicETH "
    "va=0x7fff00000010 rkey=0x102 swap-add=0x1 compare=0x0 payload=0 "
    "icrc=0x3a5b7ae8 ok",
    "1700000000.000020 192.0.2.1 > 192.0.2.2 udp 49167 > 4791 RoCEv2 "
    "RC_SEND_ONLY_WITH_INVALIDATE dqpn 0x2a psn 0xa0 ackreq se=0 pad=2 "
    "IETH rkey=0xbeef01 payload=6 icrc=0xf480ffaa ok",
    "1700000000.000021 192.0.2.1 > 192.0.2.2 udp 49168 > 4791 RoCEv2 "
    "UD_SEND_ONLY dqpn 0x1 psn 0x5 se=0 pad=1 DETH qkey=0x80010000 "
    "sqpn=0x33 payload=11 icrc=0x4966fe9f ok",
    "1700000000.000022 2001:db8::1 > 2001:db8::2 udp 49169 > 4791 "
    "RoCEv2 UD_SEND_ONLY_WITH_IMMEDIATE dqpn 0x1 psn 0x6 se=0 pad=0 "
    "DETH qkey=0x11 sqpn=0x34 ImmDt imm=0x00000000 payload=0 "
    "icrc=0xc6c0a581 ok",
    "1700000000.000023 192.0.2.1 > 192.0.2.2 udp 49170 > 4791 RoCEv2 "
    "CNP dqpn 0xd2 psn 0x0 se=0 pad=0 becn payload=0 icrc=0x5a40939e ok",
    "1700000000.000024 2001:db8::1 > 2001:db8::2 udp 49171 > 4791 "
    "RoCEv2 CNP dqpn 0x1234 psn 0x0 se=0 pad=0 becn payload=0 "
    "icrc=0x4f458675 ok",
    "1700000000.000025 192.0.2.1 > 192.0.2.2 ce udp 49172 > 4791 RoCEv2 "
    "RC_SEND_ONLY dqpn 0x15 psn 0x2 se=0 pad=2 fecn payload=2 "
    "icrc=0xf8b5d3f7 ok",
    "1700000000.000026 192.0.2.1 > 192.0.2.2 udp 49173 > 4791 RoCEv2 "
    "RC_ACKNOWLEDGE dqpn 0x26 psn 0x63 se=0 pad=0 AETH ACK credits=31 "
    "msn=0x104 payload=0 icrc=0x4264fe20 ok",
    "1700000000.000027 192.0.2.1 > 192.0.2.2 udp 49174 > 4791 RoCEv2 "
    "RC_SEND_ONLY dqpn 0x16 psn 0x3 se=0 pad=0 payload=4 "
    "icrc=0xdeadbeef BAD (expected 0xde788597)",
};

TEST(RuedumpTest, RdmaWriteFirst) {
  const RunResult r = RunRuedump(
      {Capture("w.pcap", DLT_EN10MB, {testing::WrapEthernet(WriteFirst())})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out, kWriteFirstLine);
  EXPECT_EQ(r.err, Summary(1, 1, 0, 0, 0, 0));
}

TEST(RuedumpTest, GoldenLinesInEveryLinkType) {
  std::string want;
  for (const char* line : kGoldenLines) want += std::string(line) + "\n";
  ASSERT_EQ(std::size(kGoldenLines), RoceGoldens().size());
  for (LinkType type : {LinkType::kEthernet, LinkType::kRawIp,
                        LinkType::kLinuxSll, LinkType::kLinuxSll2}) {
    SCOPED_TRACE(LinkTypeName(type));
    const RunResult r = RunRuedump({Capture(
        "g.pcap", testing::DltOf(type), WrapAll(type, GoldenIpPackets(true)))});
    EXPECT_EQ(r.status, kExitOk);
    EXPECT_EQ(r.out, want);
  }
}

TEST(RuedumpTest, Ipv4AndIpv6LinkTypes) {
  const Bytes v4 = WriteFirst();
  const Bytes v6 = testing::BuildRoceIp(testing::SampleHeaders(0x11), 0, true);
  RunResult r = RunRuedump({"--check", Capture("4.pcap", DLT_IPV4, {v4})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(Lines(r.out).at(0) + "\n", kWriteFirstLine);
  r = RunRuedump({"--check", Capture("6.pcap", DLT_IPV6, {v6})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            "1700000000.000001 2001:db8::1 > 2001:db8::2 udp 49153 > 4791 "
            "RoCEv2 RC_ACKNOWLEDGE dqpn 0x10 psn 0x1a2b3c ackreq se=0 pad=0 "
            "AETH ACK credits=31 msn=0x5 payload=0 icrc=0x5f927c05 ok\n" +
                Summary(1, 1, 0, 0, 0, 0));
}

TEST(RuedumpTest, GoldenJson) {
  const RunResult r = RunRuedump(
      {"-j", Capture("j.pcap", DLT_LINUX_SLL,
                     WrapAll(LinkType::kLinuxSll, GoldenIpPackets(true)))});
  EXPECT_EQ(r.status, kExitOk);
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), RoceGoldens().size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const RoceGolden& g = RoceGoldens()[i];
    SCOPED_TRACE(g.name);
    const nlohmann::json j = nlohmann::json::parse(lines[i]);
    EXPECT_EQ(j["protocol"], "RoCEv2");
    EXPECT_EQ(j["bth"]["opcode"], wire::LookupOpcode(g.roce.bth.opcode).name);
    EXPECT_EQ(j["bth"]["psn"].get<std::string>(), Hex(g.roce.bth.psn).text);
    EXPECT_EQ(j["icrc-ok"], g.icrc_ok);
    EXPECT_EQ(j["payload-length"], g.payload.size());
    // Brief: no detail fields.
    EXPECT_FALSE(j.contains("frame"));
    EXPECT_FALSE(j.contains("sll"));
    EXPECT_FALSE(j["bth"].contains("pkey"));
  }
}

TEST(RuedumpTest, JsonOfOnePacket) {
  const std::string path =
      Capture("j1.pcap", DLT_EN10MB, {testing::WrapEthernet(WriteFirst())});
  RunResult r = RunRuedump({"-j", path});
  EXPECT_EQ(r.out,
            R"({"time":1700000000.000001,"ip":{"src":"192.0.2.1",)"
            R"("dst":"192.0.2.2","ce":false},"udp":{"src-port":49153,)"
            R"("dst-port":4791},"protocol":"RoCEv2","bth":{"opcode":)"
            R"("RC_RDMA_WRITE_FIRST","dest-qp":"0x10","psn":"0x1a2b3c",)"
            R"("ack-req":true,"se":false,"pad-count":0,"fecn":false,)"
            R"("becn":false},"reth":{"va":"0x7f0012345000","rkey":"0x1234",)"
            R"("dma-length":65536},"payload-length":1024,)"
            R"("icrc":"0xf07bb890","icrc-ok":true})"
            "\n");
  r = RunRuedump({"-jv", path});
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["frame"], 1);
  EXPECT_EQ(j["captured-length"], 1098);
  EXPECT_EQ(j["wire-length"], 1098);
  EXPECT_EQ(j["link-type"], "EN10MB");
  EXPECT_EQ(j["eth"]["src"], "02:00:00:00:00:01");
  EXPECT_EQ(j["ip"]["ttl"], 64);
  EXPECT_EQ(j["ip"]["flags"], "DF");
  EXPECT_EQ(j["udp"]["length"], 1064);
  EXPECT_EQ(j["bth"]["pkey"], "0xffff");
  EXPECT_EQ(j["bth"]["opcode-value"], "0x06");
  EXPECT_EQ(j["pad-length"], 0);
}

TEST(RuedumpTest, Check) {
  RunResult r = RunRuedump(
      {"--check", Capture("ok.pcap", DLT_RAW, GoldenIpPackets(false))});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(Lines(r.out).back() + "\n", Summary(26, 26, 0, 0, 0, 0));
  EXPECT_EQ(r.err, "");

  r = RunRuedump(
      {"--check", Capture("bad.pcap", DLT_RAW, GoldenIpPackets(true))});
  EXPECT_EQ(r.status, kExitCheckFailed);
  EXPECT_EQ(Lines(r.out).back() + "\n", Summary(27, 26, 1, 0, 0, 0));

  // Without --check, a bad ICRC is shown, not an error.
  r = RunRuedump({Capture("bad2.pcap", DLT_RAW, GoldenIpPackets(true))});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.err, Summary(27, 26, 1, 0, 0, 0));
}

TEST(RuedumpTest, CheckJsonSummary) {
  const RunResult r =
      RunRuedump({"--check", "-j", Capture("c.pcap", DLT_RAW, {WriteFirst()})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(Lines(r.out).back(),
            R"({"summary":{"packets":1,"roce":1,"icrc-ok":1,"icrc-bad":0,)"
            R"("uet":0,"other":0,"malformed":0}})");
}

TEST(RuedumpTest, FlippedIcrcByteFailsTheCheck) {
  Bytes icrc = WriteFirst();
  icrc.back() ^= std::byte{0x01};
  Bytes payload = WriteFirst();
  payload[100] ^= std::byte{0x80};
  const RunResult r = RunRuedump(
      {"--check", Capture("f.pcap", DLT_RAW, {WriteFirst(), icrc, payload})});
  EXPECT_EQ(r.status, kExitCheckFailed);
  const std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_TRUE(lines[0].ends_with(" icrc=0xf07bb890 ok"));
  EXPECT_TRUE(lines[1].ends_with(" icrc=0xf17bb890 BAD (expected 0xf07bb890)"))
      << lines[1];
  EXPECT_TRUE(lines[2].ends_with(" BAD (expected 0xffb1f1ea)")) << lines[2];
  EXPECT_EQ(lines[3] + "\n", Summary(3, 1, 2, 0, 0, 0));
}

TEST(RuedumpTest, CutBySnapLength) {
  const std::vector<Bytes> frames = {
      testing::WrapEthernet(WriteFirst()),
      testing::WrapEthernet(testing::BuildUdpIp(4793, 200))};
  RunResult r =
      RunRuedump({"--check", Capture("s.pcap", DLT_EN10MB, frames, 128)});
  EXPECT_EQ(r.status, kExitCheckFailed);
  EXPECT_EQ(r.out,
            "1700000000.000001 192.0.2.1 > 192.0.2.2 udp 49153 > 4791 RoCEv2 "
            "malformed: truncated: IP packet: need 1084 bytes, have 114 "
            "(capture cut at 128 of 1098 bytes)\n"
            "1700000000.000002 192.0.2.1 > 192.0.2.2 udp 49153 > 4793 UET "
            "malformed: truncated: IP packet: need 228 bytes, have 114 "
            "(capture cut at 128 of 242 bytes)\n" +
                Summary(2, 0, 0, 0, 0, 2));
  // Cut before the UDP destination port: not recognisable, so "other".
  r = RunRuedump({"--check", Capture("s2.pcap", DLT_EN10MB, frames, 36)});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out, Summary(2, 0, 0, 0, 2, 0));
}

// DNS, TCP and ARP between a RoCEv2 and a UET packet.
std::vector<Bytes> MixedFrames() {
  Bytes tcp = testing::BuildUdpIp(4791, 20);
  tcp[9] = std::byte{6};
  Bytes arp = testing::WrapEthernet(testing::BuildUdpIp(4791, 20));
  arp[12] = std::byte{0x08};
  arp[13] = std::byte{0x06};
  return {testing::WrapEthernet(testing::BuildUdpIp(53, 30)),
          testing::WrapEthernet(WriteFirst()), testing::WrapEthernet(tcp), arp,
          testing::WrapEthernet(testing::BuildUetIp(0))};
}

TEST(RuedumpTest, OtherTrafficIsSkipped) {
  const RunResult r =
      RunRuedump({"--check", Capture("m.pcap", DLT_EN10MB, MixedFrames())});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out,
            "1700000000.000002 192.0.2.1 > 192.0.2.2 udp 49153 > 4791 RoCEv2 "
            "RC_RDMA_WRITE_FIRST dqpn 0x10 psn 0x1a2b3c ackreq se=0 pad=0 "
            "RETH va=0x7f0012345000 rkey=0x1234 len=65536 payload=1024 "
            "icrc=0xf07bb890 ok\n"
            "1700000000.000005 192.0.2.1 > 192.0.2.2 udp 49153 > 4793 UET "
            "RUD_REQ next=REQ_STD psn=0x10 spdcid=0x11 dpdcid=0x22 clear=0 ar "
            "SES SEND hdr=std msg=0x1 rlen=0 job=0x42 pid=0x5 ri=0x7 gen=0 "
            "som eom offset=0x0 init=0x0 key=0x0 hdata=0x0 payload=0\n" +
                Summary(5, 1, 0, 1, 3, 0));
}

TEST(RuedumpTest, Filter) {
  const std::string path = Capture("m.pcap", DLT_EN10MB, MixedFrames());
  RunResult r = RunRuedump({"-F", "uet", path});
  EXPECT_EQ(Lines(r.out).size(), 1u);
  EXPECT_NE(r.out.find(" UET RUD_REQ next=REQ_STD "), std::string::npos);
  EXPECT_EQ(r.err, Summary(5, 0, 0, 1, 4, 0));
  r = RunRuedump({"-F", "roce", path});
  EXPECT_EQ(Lines(r.out).size(), 1u);
  EXPECT_NE(r.out.find(" RoCEv2 "), std::string::npos);
  EXPECT_EQ(r.err, Summary(5, 1, 0, 0, 4, 0));
}

TEST(RuedumpTest, Count) {
  const std::string path = Capture("m.pcap", DLT_EN10MB, MixedFrames());
  // The first packet shown is the second read.
  RunResult r = RunRuedump({"-c", "1", path});
  EXPECT_EQ(Lines(r.out).size(), 1u);
  EXPECT_EQ(r.err, Summary(2, 1, 0, 0, 1, 0));
  r = RunRuedump({"-c", "2", path});
  EXPECT_EQ(Lines(r.out).size(), 2u);
  r = RunRuedump({"-c", "9", path});
  EXPECT_EQ(Lines(r.out).size(), 2u);
  EXPECT_EQ(r.err, Summary(5, 1, 0, 1, 3, 0));
}

TEST(RuedumpTest, HexDump) {
  wire::RoceHeaders cnp = testing::SampleHeaders(0x81);
  cnp.bth.ack_req = false;
  cnp.bth.becn = true;
  const Bytes ip = testing::BuildRoceIp(cnp, 0);
  const std::string path = Capture("x.pcap", DLT_RAW, {ip});
  RunResult r = RunRuedump({"-x", path});
  EXPECT_EQ(r.out,
            "1700000000.000001 192.0.2.1 > 192.0.2.2 udp 49153 > 4791 RoCEv2 "
            "CNP dqpn 0x10 psn 0x1a2b3c se=0 pad=0 becn payload=0 "
            "icrc=0xded31015 ok\n"
            "  0x0000:  4500 003c 1234 4000 4011 a479 c000 0201  "
            "E..<.4@.@..y....\n"
            "  0x0010:  c000 0202 c001 12b7 0028 0000 8100 ffff  "
            ".........(......\n"
            "  0x0020:  4000 0010 001a 2b3c 0000 0000 0000 0000  "
            "@.....+<........\n"
            "  0x0030:  0000 0000 0000 0000 1510 d3de            "
            "............\n");
  r = RunRuedump({"-jx", path});
  EXPECT_EQ(nlohmann::json::parse(r.out)["hex"], HexString(ip));
}

TEST(RuedumpTest, Verbose) {
  const RunResult r =
      RunRuedump({"-v", Capture("v.pcap", DLT_LINUX_SLL2,
                                {testing::WrapCooked(2, WriteFirst())})});
  EXPECT_EQ(r.out, std::string(kWriteFirstLine) +
                       "  Frame\n"
                       "    frame            1\n"
                       "    time             1700000000.000001\n"
                       "    captured-length  1104\n"
                       "    wire-length      1104\n"
                       "    link-type        LINUX_SLL2\n"
                       "  Linux cooked v2\n"
                       "    version          2\n"
                       "    packet-type      outgoing\n"
                       "    ifindex          7\n"
                       "    arphrd-type      1\n"
                       "    address          02:00:00:00:00:01\n"
                       "    protocol         0x0800\n"
                       "  IPv4\n"
                       "    src              192.0.2.1\n"
                       "    dst              192.0.2.2\n"
                       "    ce               0\n"
                       "    version          4\n"
                       "    header-length    20\n"
                       "    dscp             0\n"
                       "    ecn              Not-ECT\n"
                       "    total-length     1084\n"
                       "    id               0x1234\n"
                       "    flags            DF\n"
                       "    fragment-offset  0\n"
                       "    ttl              64\n"
                       "    protocol         17\n"
                       "    checksum         0xa079\n"
                       "  UDP\n"
                       "    src-port         49153\n"
                       "    dst-port         4791\n"
                       "    length           1064\n"
                       "    checksum         0x0000\n"
                       "  Protocol\n"
                       "    protocol         RoCEv2\n"
                       "  BTH\n"
                       "    opcode           RC_RDMA_WRITE_FIRST\n"
                       "    opcode-value     0x06\n"
                       "    dest-qp          0x10\n"
                       "    psn              0x1a2b3c\n"
                       "    ack-req          1\n"
                       "    se               0\n"
                       "    pad-count        0\n"
                       "    fecn             0\n"
                       "    becn             0\n"
                       "    mig-req          0\n"
                       "    tver             0\n"
                       "    pkey             0xffff\n"
                       "    resv6            0x00\n"
                       "    resv7            0x00\n"
                       "  RETH\n"
                       "    va               0x7f0012345000\n"
                       "    rkey             0x1234\n"
                       "    dma-length       65536\n"
                       "  Payload and ICRC\n"
                       "    payload-length   1024\n"
                       "    pad-length       0\n"
                       "    icrc             0xf07bb890\n"
                       "    icrc-ok          ok\n"
                       "\n");
}

TEST(RuedumpTest, VlanTags) {
  const Bytes frame = testing::WrapEthernet(
      WriteFirst(), {wire::VlanTag{wire::kEtherTypeQinQ, 5, false, 100},
                     wire::VlanTag{wire::kEtherTypeVlan, 3, false, 200}});
  RunResult r = RunRuedump({"--check", Capture("q.pcap", DLT_EN10MB, {frame})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(Lines(r.out).at(0).starts_with(
      "1700000000.000001 vlan 100 pcp 5 vlan 200 pcp 3 192.0.2.1 > "))
      << r.out;
  const Bytes cooked = testing::WrapCooked(
      1, WriteFirst(), {wire::VlanTag{wire::kEtherTypeVlan, 2, false, 7}});
  r = RunRuedump({"--check", Capture("q1.pcap", DLT_LINUX_SLL, {cooked})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(Lines(r.out).at(0).starts_with(
      "1700000000.000001 vlan 7 pcp 2 192.0.2.1 > "))
      << r.out;
}

// Random bytes and corrupted goldens in every link type: never a crash;
// every packet counted once.
TEST(RuedumpTest, Garbage) {
  std::mt19937 rng(4793);
  for (LinkType type : {LinkType::kEthernet, LinkType::kRawIp,
                        LinkType::kLinuxSll, LinkType::kLinuxSll2}) {
    std::vector<Bytes> frames = WrapAll(type, GoldenIpPackets(false));
    for (Bytes& frame : frames) {
      frame[rng() % frame.size()] = static_cast<std::byte>(rng());
    }
    for (int i = 0; i < 200; ++i) {
      Bytes frame(rng() % 200);
      for (std::byte& b : frame) b = static_cast<std::byte>(rng());
      frames.push_back(frame);
    }
    const RunResult r = RunRuedump(
        {"-v", "-x", Capture("r.pcap", testing::DltOf(type), frames)});
    EXPECT_EQ(r.status, kExitOk);
    const std::string packets = std::to_string(frames.size()) + " packets: ";
    EXPECT_TRUE(r.err.starts_with(packets)) << r.err;
  }
}

TEST(RuedumpTest, EmptyCapture) {
  const RunResult r =
      RunRuedump({"--check", Capture("e.pcap", DLT_EN10MB, {})});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_EQ(r.out, Summary(0, 0, 0, 0, 0, 0));
}

TEST(RuedumpTest, UnreadableFiles) {
  RunResult r = RunRuedump({"/nonexistent/x.pcap"});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "ruedump: /nonexistent/x.pcap: No such file or directory\n");

  const std::string text = testing::TempPath("text.pcap");
  std::ofstream(text) << "not a capture file\n";
  r = RunRuedump({text});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_TRUE(r.err.starts_with("ruedump: " + text + ": ")) << r.err;

  r = RunRuedump({Capture("null.pcap", DLT_NULL, {WriteFirst()})});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_NE(r.err.find("link type 0 is not supported"), std::string::npos)
      << r.err;
}

// A file cut in its last record: the packets before it are shown, then
// the error; exit status 1 even without --check.
TEST(RuedumpTest, CaptureFileCutShort) {
  const std::string path =
      Capture("cut.pcap", DLT_RAW, {WriteFirst(), WriteFirst()});
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 10);
  const RunResult r = RunRuedump({path});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_EQ(r.out, kWriteFirstLine);
  EXPECT_NE(r.err.find(Summary(1, 1, 0, 0, 0, 0)), std::string::npos);
  EXPECT_NE(r.err.find("ruedump: " + path + ": truncated dump file"),
            std::string::npos)
      << r.err;
}

TEST(RuedumpTest, CommandLine) {
  RunResult r = RunRuedump({"-q", "x"});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "ruedump: unknown option '-q'\nTry 'ruedump --help'.\n");
  r = RunRuedump({});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_EQ(r.err,
            "ruedump: no capture file given (use - for standard input)\n"
            "Try 'ruedump --help'.\n");
  r = RunRuedump({"--help"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(r.out.starts_with("Usage: ruedump "));
  r = RunRuedump({"-V"});
  EXPECT_EQ(r.status, kExitOk);
  EXPECT_TRUE(r.out.starts_with("ruedump (rue) "));
}

}  // namespace
}  // namespace rue::dump
