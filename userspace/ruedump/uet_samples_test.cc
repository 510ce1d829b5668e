// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The UET sample captures in testdata/ (made by an independent encoder, see
// testdata/README.md): every frame is read and reported as UET.
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

TEST(UetSamplesTest, EveryFrameIsUet) {
  for (const Sample& s : kSamples) {
    SCOPED_TRACE(s.file);
    const testing::RunResult r = RunRuedump({"--check", kDir + "/" + s.file});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const std::vector<std::string> lines = Lines(r.out);
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(s.frames + 1));
    for (int i = 0; i < s.frames; ++i) {
      EXPECT_NE(lines[i].find(" > 4793 UET len="), std::string::npos)
          << lines[i];
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
      EXPECT_EQ(j["uet"]["length"].get<int>() + 8, j["udp"]["length"]);
    }
  }
}

// The first frame of uet_ses.pcap, as tcpdump shows it: 192.168.1.1.8675 >
// 192.168.1.2.4793, UDP length 56 (64 with the header).
TEST(UetSamplesTest, FirstSesFrame) {
  const testing::RunResult r = RunRuedump({"-c", "1", kDir + "/uet_ses.pcap"});
  EXPECT_EQ(r.out,
            "1795341473.087399 192.168.1.1 > 192.168.1.2 udp 8675 > 4793 UET "
            "len=56\n");
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
