// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Real rue traffic (testdata/rue_traffic.pcap, see testdata/README.md):
// every packet parses and its ICRC verifies.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "ruedump/ruedump.h"
#include "ruedump/test_pcap.h"

namespace rue::dump {
namespace {

const std::string kCapture =
    std::string(RUEDUMP_TESTDATA) + "/rue_traffic.pcap";

TEST(RueTrafficTest, EveryPacketIsCleanRoce) {
  const testing::RunResult r = testing::RunRuedump({"--check", kCapture});
  EXPECT_EQ(r.status, kExitOk) << r.out;
  EXPECT_TRUE(r.out.ends_with(
      "52 packets: 52 roce (52 icrc ok, 0 bad), 0 uet, 0 other, 0 malformed\n"))
      << r.out;
}

TEST(RueTrafficTest, OpcodesAndIpVersions) {
  const testing::RunResult r = testing::RunRuedump({"-j", kCapture});
  std::set<std::string> opcodes;
  int ipv6 = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    opcodes.insert(j["bth"]["opcode"].get<std::string>());
    if (j["ip"]["src"].get<std::string>().find(':') != std::string::npos)
      ++ipv6;
  }
  EXPECT_EQ(
      opcodes,
      (std::set<std::string>{
          "RC_ACKNOWLEDGE", "RC_ATOMIC_ACKNOWLEDGE", "RC_COMPARE_SWAP",
          "RC_FETCH_ADD", "RC_RDMA_READ_REQUEST", "RC_RDMA_READ_RESPONSE_FIRST",
          "RC_RDMA_READ_RESPONSE_LAST", "RC_RDMA_READ_RESPONSE_MIDDLE",
          "RC_RDMA_READ_RESPONSE_ONLY", "RC_RDMA_WRITE_FIRST",
          "RC_RDMA_WRITE_LAST", "RC_RDMA_WRITE_MIDDLE", "RC_RDMA_WRITE_ONLY",
          "RC_SEND_FIRST", "RC_SEND_LAST", "RC_SEND_MIDDLE", "RC_SEND_ONLY",
          "UD_SEND_ONLY"}));
  EXPECT_EQ(ipv6, 10);
}

TEST(RueTrafficTest, FirstPacket) {
  const testing::RunResult r = testing::RunRuedump({"-c", "1", kCapture});
  EXPECT_EQ(r.out,
            "1795351505.149723 10.11.0.2 > 10.11.0.1 udp 49408 > 4791 RoCEv2 "
            "RC_SEND_FIRST dqpn 0x10 psn 0xd8104d se=0 pad=0 payload=1024 "
            "icrc=0x5861534f ok\n");
}

}  // namespace
}  // namespace rue::dump
