// SPDX-License-Identifier: GPL-2.0
#include "rueperf/report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace rue::perf {
namespace {

Report BwReport() {
  Report r;
  r.device = "rue0";
  r.params.op = Op::kWrite;
  r.params.size = 65536;
  r.params.depth = 16;
  r.params.iters = 1000;
  r.throughput = ComputeThroughput(1000, 65536, 500'000'000);
  return r;
}

TEST(Report, TextBandwidth) {
  EXPECT_EQ(RenderText(BwReport()),
            "device rue0 transport rc op write test bw size 65536 depth 16 "
            "peers 1 iters 1000 verify off\n"
            "    messages 1000 bytes 65536000 seconds 0.500 bw-gbps 1.049 "
            "bw-mbyte-s 131.072 rate-mmsg-s 0.002\n");
}

TEST(Report, JsonBandwidth) {
  auto j = nlohmann::json::parse(RenderJson(BwReport(), false));
  EXPECT_EQ(j["device"], "rue0");
  EXPECT_EQ(j["transport"], "rc");
  EXPECT_EQ(j["op"], "write");
  EXPECT_EQ(j["size"], 65536);
  EXPECT_EQ(j["iters"], 1000);
  EXPECT_EQ(j["verify"], false);
  EXPECT_EQ(j["messages"], 1000);
  EXPECT_DOUBLE_EQ(j["bw-mbyte-s"].get<double>(), 131.072);
  EXPECT_FALSE(j.contains("job"));
  EXPECT_FALSE(j.contains("duration-s"));
  EXPECT_FALSE(j.contains("lat-avg-us"));
  EXPECT_FALSE(j.contains("verified"));
  EXPECT_FALSE(j.contains("server-received"));
}

// Text and JSON come from one list: the same keys, in the same order.
TEST(Report, TextAndJsonAgree) {
  Report r = BwReport();
  r.params.transport = Transport::kRud;
  r.params.job = 9;
  r.params.op = Op::kSend;
  r.params.test = perf::Test::kLat;
  r.params.iters = 0;
  r.params.duration_ms = 1500;
  r.params.verify = true;
  std::vector<uint64_t> s = {1000, 3000};
  r.latency = SummarizeLatency(s, 2);
  r.received = 2;
  r.verified = 4;
  r.verify_errors = 1;
  auto j = nlohmann::ordered_json::parse(RenderJson(r, false));
  std::string text = RenderText(r);
  size_t pos = 0;
  for (const auto& [key, value] : j.items()) {
    size_t at = text.find(key + " ", pos);
    ASSERT_NE(at, std::string::npos) << key;
    pos = at + key.size();
  }
  EXPECT_EQ(j["job"], 9);
  EXPECT_DOUBLE_EQ(j["duration-s"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(j["lat-avg-us"].get<double>(), 1.0);
  EXPECT_EQ(j["server-received"], 2);
  EXPECT_EQ(j["verified"], 4);
  EXPECT_EQ(j["verify-errors"], 1);
  EXPECT_FALSE(j.contains("iters"));
  EXPECT_NE(text.find("verify on"), std::string::npos);
}

TEST(Report, PrettyJson) {
  std::string out = RenderJson(BwReport(), true);
  EXPECT_NE(out.find("\n    \"device\": \"rue0\""), std::string::npos);
  EXPECT_EQ(RenderJson(BwReport(), false).find('\n'),
            RenderJson(BwReport(), false).size() - 1);
}

}  // namespace
}  // namespace rue::perf
