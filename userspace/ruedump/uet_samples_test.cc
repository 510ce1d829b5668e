// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The UET sample captures in testdata/ (made by an independent encoder, see
// testdata/README.md): every frame decodes, with the field values the
// generator scripts passed.
#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ruedump/test_pcap.h"

namespace rue::dump {
namespace {

using testing::RunRuedump;

const std::string kDir = RUEDUMP_TESTDATA;

struct Sample {
  std::string file;
  int frames;
};

constexpr int kPdsFrames = 19;
constexpr int kSesFrames = 17;

const Sample kSamples[] = {{"uet_pds.pcap", kPdsFrames},
                           {"uet_ses.pcap", kSesFrames}};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string Summary(int uet) {
  const std::string n = std::to_string(uet);
  return n + " packets: 0 roce (0 icrc ok, 0 bad), " + n +
         " uet, 0 other, 0 malformed";
}

// What each frame carries, in the words ruedump prints (the PDS type, and
// the next header or control type), from the generator scripts.
const char* const kPdsKinds[] = {
    "RUD_REQ next=REQ_STD",    "RUD_REQ next=REQ_STD",
    "RUD_CC_REQ next=REQ_STD", "RUD_CC_REQ next=REQ_STD",
    "ROD_REQ next=REQ_STD",    "ROD_REQ next=REQ_STD",
    "ROD_CC_REQ next=REQ_STD", "ROD_CC_REQ next=REQ_STD",
    "ACK next=RSP",            "ACK_CC next=RSP",
    "ACK_CC next=RSP",         "ACK_CCX next=RSP",
    "NACK next=RSP",           "NACK_CCX next=RSP",
    "CTRL CREDIT_REQ",         "CTRL NEGOTIATION",
    "UUD_REQ next=REQ_STD",    "RUDI_REQ next=REQ_STD",
    "RUDI_RESP next=RSP"};
const char* const kSesKinds[] = {
    "SES READ hdr=std",         "SES WRITE hdr=std",
    "SES DEFERRABLE_SEND hdr=std", "SES DEFERRABLE_RTR hdr=std",
    "SES ATOMIC hdr=std",       "SES ATOMIC hdr=std",
    "SES WRITE hdr=medium",     "SES ATOMIC hdr=medium",
    "SES ATOMIC hdr=medium",    "SES READ hdr=small",
    "SES ATOMIC hdr=small",     "SES ATOMIC hdr=small",
    "SES RESPONSE_W_DATA hdr=rsp", "SES RESPONSE_W_DATA hdr=data",
    "SES RESPONSE_W_DATA hdr=data-small", "SES RENDEZVOUS_TSEND hdr=std",
    "SES NO_OP hdr=medium"};

TEST(UetSamplesTest, EveryFrameIsDecoded) {
  for (const Sample& s : kSamples) {
    SCOPED_TRACE(s.file);
    const char* const* kinds = s.frames == kPdsFrames ? kPdsKinds : kSesKinds;
    const testing::RunResult r = RunRuedump({"--check", kDir + "/" + s.file});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(s.frames + 1));
    for (int i = 0; i < s.frames; ++i) {
      EXPECT_NE(lines[i].find(std::string(" > 4793 UET ")), std::string::npos)
          << lines[i];
      EXPECT_NE(lines[i].find(kinds[i]), std::string::npos)
          << i + 1 << ": " << lines[i];
      EXPECT_EQ(lines[i].find("malformed"), std::string::npos) << lines[i];
    }
    EXPECT_EQ(lines.back(), Summary(s.frames));
  }
}

TEST(UetSamplesTest, Json) {
  for (const Sample& s : kSamples) {
    SCOPED_TRACE(s.file);
    const testing::RunResult r = RunRuedump({"-jv", kDir + "/" + s.file});
    EXPECT_EQ(r.status, 0) << r.err;
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(s.frames));
    for (int i = 0; i < s.frames; ++i) {
      const nlohmann::json j = nlohmann::json::parse(lines[i]);
      EXPECT_EQ(j["frame"], i + 1);
      EXPECT_EQ(j["protocol"], "UET");
      EXPECT_EQ(j["udp"]["dst-port"], 4793);
      EXPECT_EQ(j["header-length"].get<int>() +
                    j["payload-length"].get<int>() + 8,
                j["udp"]["length"]);
    }
  }
}

// Field values the generator scripts passed, as ruedump shows them.
nlohmann::json Frame(const std::string& file, int frame) {
  const testing::RunResult r = RunRuedump({"-jv", kDir + "/" + file});
  const std::vector<std::string> lines = Lines(r.out);
  return nlohmann::json::parse(lines.at(frame - 1));
}

// make_uet_pds.py: MakeRudRequestSynCc(retrans=1, clear_psn_offset=0x1234,
// psn=0x98765432, spdcid=0x3456, use_rsv_pdc=1, psn_offset=0x876,
// ccc_id=0x77, credit_target=0x887766) + the standard READ request.
TEST(UetSamplesTest, PdsRequestFields) {
  const nlohmann::json j = Frame("uet_pds.pcap", 4);
  EXPECT_EQ(j["pds"]["type"], "RUD_CC_REQ");
  EXPECT_EQ(j["pds"]["clear-psn-offset"], 0x1234);
  EXPECT_EQ(j["pds"]["psn"], "0x98765432");
  EXPECT_EQ(j["pds"]["spdcid"], "0x3456");
  EXPECT_EQ(j["pds"]["pdc-info"], "0x8");
  EXPECT_EQ(j["pds"]["psn-offset"], "0x876");
  EXPECT_FALSE(j["pds"].contains("dpdcid"));
  EXPECT_EQ(j["pds"]["syn"], true);
  EXPECT_EQ(j["pds"]["retx"], true);
  EXPECT_EQ(j["pds"]["ar"], false);
  EXPECT_EQ(j["pds"]["ccc-id"], "0x77");
  EXPECT_EQ(j["pds"]["credit-target"], 0x887766);
  EXPECT_EQ(j["ses"]["opcode"], "READ");
  EXPECT_EQ(j["ses"]["message-id"], "0x1234");
  EXPECT_EQ(j["ses"]["job-id"], "0xabcdef");
  EXPECT_EQ(j["ses"]["pid-on-fep"], "0x678");
  EXPECT_EQ(j["ses"]["resource-index"], "0x9ab");
  EXPECT_EQ(j["ses"]["ri-generation"], 0x77);
  EXPECT_EQ(j["ses"]["header-data"], "0xaabbddddeeff0011");
  EXPECT_EQ(j["ses"]["request-length"], 0x99887766u);
}

// MakeAckCcNscc(ecn_marked=1, retrans=1, request=1 (clear), cack_psn=
// 0x2468ace0, ack_psn_offset=0x2121, mpr=0x87, sack_psn_offset=0x6789,
// sack_bitmap=0x123456789abcdef0, service_time=0x99aa, restore_cwnd=1,
// rcv_cwnd_pend=0x7f, rcvd_bytes=0x887766, ooo_count=0x8765) + RSP.
TEST(UetSamplesTest, AckCcFields) {
  const nlohmann::json j = Frame("uet_pds.pcap", 10);
  EXPECT_EQ(j["pds"]["type"], "ACK_CC");
  EXPECT_EQ(j["pds"]["cack-psn"], "0x2468ace0");
  EXPECT_EQ(j["pds"]["ack-psn-offset"], 0x2121);
  EXPECT_EQ(j["pds"]["ecn-marked"], true);
  EXPECT_EQ(j["pds"]["request"], "clear");
  EXPECT_EQ(j["pds"]["cc-type"], "NSCC");
  EXPECT_EQ(j["pds"]["mpr"], 0x87);
  EXPECT_EQ(j["pds"]["sack-psn-offset"], 0x6789);
  EXPECT_EQ(j["pds"]["sack-bitmap"], "0x123456789abcdef0");
  EXPECT_EQ(j["pds"]["service-time"], 0x99aa);
  EXPECT_EQ(j["pds"]["restore-cwnd"], true);
  EXPECT_EQ(j["pds"]["rcv-cwnd-pend"], 0x7f);
  EXPECT_EQ(j["pds"]["rcvd-bytes"], 0x887766);
  EXPECT_EQ(j["pds"]["ooo-count"], 0x8765);
  EXPECT_EQ(j["ses"]["opcode"], "RESPONSE");
  EXPECT_EQ(j["ses"]["return-code"], "AT_PERM");
  EXPECT_EQ(j["ses"]["list"], 3);
  EXPECT_EQ(j["ses"]["modified-length"], 0x9abcdef);
  // The credit variant: credit=0x123456; a negative SACK offset (0x9988).
  const nlohmann::json c = Frame("uet_pds.pcap", 11);
  EXPECT_EQ(c["pds"]["cc-type"], "CREDIT");
  EXPECT_EQ(c["pds"]["credit"], 0x123456);
  EXPECT_EQ(c["pds"]["sack-psn-offset"], -26232);
}

// MakeNack(RUDI, PDC_MODE_MISMATCH, vendor_code=0x87,
// nak_psn_pkt_id=0x99887766, payload=0x56789abc); the CTRL frame the
// script wrote with 12 bytes (ruedump reads 16, see Documentation/uet.md).
TEST(UetSamplesTest, NackAndCtrlFields) {
  const nlohmann::json n = Frame("uet_pds.pcap", 13);
  EXPECT_EQ(n["pds"]["nack-code"], "PDC_MODE_MISMATCH");
  EXPECT_EQ(n["pds"]["rudi"], true);
  EXPECT_EQ(n["pds"]["pkt-id"], "0x99887766");
  EXPECT_EQ(n["pds"]["vendor-code"], "0x87");
  EXPECT_EQ(n["pds"]["payload"], "0x56789abc");
  const nlohmann::json c = Frame("uet_pds.pcap", 15);
  EXPECT_EQ(c["pds"]["ctl-type"], "CREDIT_REQ");
  EXPECT_EQ(c["pds"]["isrod"], true);
  EXPECT_EQ(c["pds"]["probe-opaque"], "0x9876");
  EXPECT_EQ(c["pds"]["psn"], "0xcdef0123");
  EXPECT_EQ(c["pds"]["dpdcid"], "0xfedc");
  EXPECT_EQ(c["header-length"], 16);
  EXPECT_EQ(c["payload-length"], 8);
}

// make_uet_ses.py frame 2 (SOM clear: payload_length=0x345,
// message_offset=0x77665544), frame 6 (ATOMIC with CSWAP_GE operands),
// frame 15 (RSP_DATA_SMALL: job_id=223344, payload_length=0x3456,
// original_request_psn=0x1234).
TEST(UetSamplesTest, SesFields) {
  const nlohmann::json w = Frame("uet_ses.pcap", 2);
  EXPECT_EQ(w["ses"]["som"], false);
  EXPECT_EQ(w["ses"]["payload-length"], 0x345);
  EXPECT_EQ(w["ses"]["message-offset"], "0x77665544");
  EXPECT_FALSE(w["ses"].contains("header-data"));
  const nlohmann::json a = Frame("uet_ses.pcap", 6);
  EXPECT_EQ(a["atomic"]["atomic-code"], "0x11");
  EXPECT_EQ(a["atomic"]["compare"], "0x98765432987654322345678923456789");
  EXPECT_EQ(a["atomic"]["swap"], "0x0123456789abcdeffedcba0987654321");
  const nlohmann::json d = Frame("uet_ses.pcap", 15);
  EXPECT_EQ(d["ses"]["job-id"], "0x36870");
  EXPECT_EQ(d["ses"]["payload-length"], 0x3456);
  EXPECT_EQ(d["ses"]["original-request-psn"], "0x1234");
}

// The first frame of uet_ses.pcap, as a line.
TEST(UetSamplesTest, FirstSesFrame) {
  const testing::RunResult r = RunRuedump({"-c", "1", kDir + "/uet_ses.pcap"});
  EXPECT_EQ(r.out,
            "1795341473.087399 192.168.1.1 > 192.168.1.2 udp 8675 > 4793 UET "
            "RUD_REQ next=REQ_STD psn=0x98765432 spdcid=0x3456 dpdcid=0x9abc "
            "clear=4660 retx SES READ hdr=std msg=0x1234 rlen=2575857510 "
            "job=0xabcdef pid=0x678 ri=0x9ab gen=119 som eom rel dc "
            "offset=0xfedcba9876543210 init=0xfedcba98 "
            "key=0x1122334455667788 hdata=0xaabbddddeeff0011 payload=0\n");
}

// The same frames with a Linux cooked v2 header instead of Ethernet.
TEST(UetSamplesTest, AsCookedCapture) {
  for (const Sample& s : kSamples) {
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t* in = pcap_open_offline((kDir + "/" + s.file).c_str(), errbuf);
    ASSERT_NE(in, nullptr) << errbuf;
    std::vector<testing::PcapRecord> records;
    pcap_pkthdr* h;
    const u_char* data;
    while (pcap_next_ex(in, &h, &data) == 1) {
      const auto* bytes = reinterpret_cast<const std::byte*>(data);
      records.push_back(testing::PcapRecord{
          testing::WrapCooked(
              2, testing::StripEthernet(std::span(bytes, h->caplen))),
          h->ts.tv_sec, h->ts.tv_usec});
    }
    pcap_close(in);
    const std::string path = testing::TempPath(s.file);
    ASSERT_TRUE(testing::WritePcap(path, DLT_LINUX_SLL2, records));
    const testing::RunResult r = RunRuedump({"--check", path});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(Lines(r.out).back(), Summary(s.frames));
  }
}

}  // namespace
}  // namespace rue::dump
