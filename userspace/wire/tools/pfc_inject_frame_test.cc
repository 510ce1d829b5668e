// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/pfc_inject_frame.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/pfc.h"
#include "rue/wire/result.h"
#include "test_util.h"
#include "tools/inject_common.h"
#include "tools/command_line_test_util.h"

namespace rue::pfc_inject {
namespace {

using Parsed = cli11::testing::Parsed<Options>;
using wire::testing::ToU8;

constexpr wire::MacAddress kIfaceMac = {0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee};

// The frame pfc_inject would send for `args` after -i veth0, the
// interface's MAC being kIfaceMac; empty (and a test failure) if it would
// refuse.
std::vector<std::byte> Build(std::vector<std::string> args) {
  args.insert(args.begin(), {"-i", "veth0"});
  Parsed p = cli11::testing::ParseWords(ParseOptions, args);
  EXPECT_TRUE(p.options) << p.error;
  if (!p.options) return {};
  return BuildFrame(*p.options, p.options->src_mac.value_or(kIfaceMac));
}

// What --dry-run prints (without the newline).
std::string DryRun(std::vector<std::string> args) {
  args.push_back("--dry-run");
  return inject::HexString(Build(args));
}

std::string Describe(std::vector<std::string> args) {
  args.insert(args.begin(), {"-i", "veth0"});
  Parsed p = cli11::testing::ParseWords(ParseOptions, args);
  EXPECT_TRUE(p.options) << p.error;
  return p.options ? pfc_inject::Describe(*p.options) : "";
}

// scapy 2.5.0, as in ../pfc_test.cc:
// raw(Ether(dst='01:80:c2:00:00:01', src='02:00:00:00:00:01')/
//     MACControlClassBasedFlowControl(c3_enabled=1, c3_pause_time=0xffff))
const std::string kScapyXoff3 =
    "0180c2000001"  // dst
    "020000000001"  // src
    "8808" "0101"   // MAC Control, PFC
    "0008"          // priority 3
    "000000000000ffff0000000000000000"  // time[0..7]
    "0000000000000000000000000000000000000000000000000000";  // pad

// raw(Ether(dst='01:80:c2:00:00:01', src='a0:36:9f:12:34:56')/
//     MACControlClassBasedFlowControl(c0_enabled=1, c0_pause_time=0x1234,
//         c5_enabled=1, c5_pause_time=1, c7_enabled=1, c7_pause_time=0))
const std::string kScapyThree =
    "0180c2000001a0369f1234568808010100a1"
    "12340000000000000000000100000000"
    "0000000000000000000000000000000000000000000000000000";

TEST(PfcInjectFrameTest, XoffMatchesScapy) {
  EXPECT_EQ(DryRun({"--src-mac", "02:00:00:00:00:01", "--prio", "3=65535"}),
            kScapyXoff3);
  EXPECT_EQ(DryRun({"--src-mac", "02:00:00:00:00:01", "--prio", "3=0xffff"}),
            kScapyXoff3);
}

TEST(PfcInjectFrameTest, SeveralPrioritiesAndXonMatchScapy) {
  EXPECT_EQ(DryRun({"--src-mac", "a0:36:9f:12:34:56", "--xon", "7", "--prio",
                    "5=1", "--prio", "0=4660"}),
            kScapyThree);
}

TEST(PfcInjectFrameTest, SourceDefaultsToTheInterfaceMac) {
  const std::vector<std::byte> frame = Build({"--prio", "3=1"});
  wire::Result<wire::PfcFrame> f = wire::ParsePfcFrame(frame);
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(f->src, kIfaceMac);
  EXPECT_EQ(f->dst, wire::kMacControlAddress);
}

TEST(PfcInjectFrameTest, NoPriorityEnablesNothing) {
  const std::vector<std::byte> frame = Build({});
  ASSERT_EQ(frame.size(), 60u);
  wire::Result<wire::PfcFrame> f = wire::ParsePfcFrame(frame);
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(f->priority_enable_vector, 0);
  EXPECT_EQ(f->time, (std::array<uint16_t, 8>{}));
}

TEST(PfcInjectFrameTest, EveryPriorityAndQuanta) {
  for (int p = 0; p < 8; ++p) {
    for (int quanta : {0, 1, 0x100, 0xffff}) {
      const std::vector<std::byte> frame =
          Build({"--prio", std::to_string(p) + "=" + std::to_string(quanta)});
      wire::Result<wire::PfcFrame> f = wire::ParsePfcFrame(frame);
      ASSERT_TRUE(f.ok()) << f.message();
      EXPECT_EQ(f->priority_enable_vector, 1 << p);
      for (int q = 0; q < 8; ++q) EXPECT_EQ(f->time[q], q == p ? quanta : 0);
    }
  }
}

TEST(PfcInjectFrameTest, OpcodeEtherTypeAndReservedBits) {
  EXPECT_EQ(wire::ParsePfcFrame(Build({"--prio", "3=1", "--opcode", "1"}))
                .code(),
            wire::ErrorCode::kWrongMacControlOpcode);
  EXPECT_EQ(
      wire::ParsePfcFrame(Build({"--prio", "3=1", "--ethertype", "0x8100"}))
          .code(),
      wire::ErrorCode::kWrongEtherType);
  const std::vector<std::byte> reserved =
      Build({"--prio", "3=1", "--reserved-bits"});
  EXPECT_EQ(static_cast<uint8_t>(reserved[16]), 0xff);
  EXPECT_EQ(static_cast<uint8_t>(reserved[17]), 0x08);
  EXPECT_EQ(wire::ParsePfcFrame(reserved).code(),
            wire::ErrorCode::kReservedBitsSet);
  // Only the field asked for changes.
  std::vector<std::byte> want = Build({"--prio", "3=1"});
  want[12] = std::byte{0x08};
  want[13] = std::byte{0x00};
  EXPECT_EQ(Build({"--prio", "3=1", "--ethertype", "0x0800"}), want);
}

TEST(PfcInjectFrameTest, TruncateSendsAPrefix) {
  const std::vector<std::byte> full = Build({"--prio", "3=65535"});
  for (std::size_t len : {14u, 20u, 34u, 59u, 60u}) {
    const std::vector<std::byte> cut =
        Build({"--prio", "3=65535", "--truncate", std::to_string(len)});
    ASSERT_EQ(cut.size(), len);
    EXPECT_EQ(ToU8(cut), ToU8(std::span(full).first(len)));
    EXPECT_EQ(wire::ParsePfcFrame(cut).ok(), len == 60) << len;
  }
}

TEST(PfcInjectFrameTest, RawHexIsSentAsGiven) {
  EXPECT_EQ(DryRun({"--raw-hex", "0180c2000001 020000000001 8808 0001 ffff"}),
            "0180c2000001020000000001880800" "01ffff");
}

TEST(PfcInjectFrameTest, Describe) {
  EXPECT_EQ(Describe({"--prio", "3=65535"}),
            "PFC enable 0x0008 time[3]=65535");
  EXPECT_EQ(Describe({"--xon", "4", "--prio", "3=100"}),
            "PFC enable 0x0018 time[3]=100 time[4]=0");
  EXPECT_EQ(Describe({}), "PFC enable 0x0000");
  EXPECT_EQ(Describe({"--prio", "0=1", "--reserved-bits", "--opcode", "1",
                      "--ethertype", "0x0800"}),
            "PFC enable 0xff01 time[0]=1, EtherType 0x0800, opcode 0x0001");
  EXPECT_EQ(Describe({"--raw-hex", "0180c2000001020000000001 8808"}), "raw");
}

}  // namespace
}  // namespace rue::pfc_inject
