// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/pfc_fuzz.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "rue/wire/pfc.h"

namespace rue::pfc_inject {
namespace {

constexpr wire::MacAddress kSrc = {0x02, 0, 0, 0, 0, 0x01};
constexpr wire::MacAddress kRx = {0x02, 0, 0, 0, 0, 0x02};
constexpr Receiver kReceiver{kRx, 0x28};  // PFC on priorities 3 and 5

std::vector<std::byte> Frame(const wire::PfcFrame& f, std::size_t size = 60) {
  const auto bytes = wire::EncodePfcFrame(f);
  std::vector<std::byte> out(bytes.begin(), bytes.end());
  out.resize(size);
  return out;
}

wire::PfcFrame Pfc(uint16_t vector) {
  wire::PfcFrame f;
  f.src = kSrc;
  f.priority_enable_vector = vector;
  return f;
}

Expected CountOne(const std::vector<std::byte>& frame) {
  Expected e;
  Count(frame, kReceiver, &e);
  return e;
}

TEST(PfcFuzzCount, PausesTheEnabledPrioritiesWithPfcOn) {
  Expected want;
  want.pause[3] = 1;
  want.pause[5] = 1;
  EXPECT_EQ(CountOne(Frame(Pfc(0x28))), want);
  // the reserved byte is ignored on receipt
  EXPECT_EQ(CountOne(Frame(Pfc(0xff28))), want);
  // longer frames are read as far as the PFC fields go
  EXPECT_EQ(CountOne(Frame(Pfc(0x28), 1514)), want);
}

TEST(PfcFuzzCount, OtherPrioritiesMakeTheFrameIgnoredOnce) {
  Expected want;
  want.ignored = 1;
  want.pause[3] = 1;
  EXPECT_EQ(CountOne(Frame(Pfc(0x0f))), want);
  want = {};
  want.ignored = 1;
  EXPECT_EQ(CountOne(Frame(Pfc(0x01))), want);
  // a frame that enables nothing moves nothing
  EXPECT_EQ(CountOne(Frame(Pfc(0))), Expected{});
}

TEST(PfcFuzzCount, DestinationFirstThenLengthThenOpcode) {
  wire::PfcFrame f = Pfc(0x08);
  f.dst = kRx;  // the receiver's own address counts as the reserved one
  Expected pause3;
  pause3.pause[3] = 1;
  EXPECT_EQ(CountOne(Frame(f)), pause3);
  Expected ignored;
  ignored.ignored = 1;
  f.dst = {0x02, 9, 9, 9, 9, 9};
  EXPECT_EQ(CountOne(Frame(f, 20)), ignored);  // elsewhere, even a runt
  Expected malformed;
  malformed.malformed = 1;
  EXPECT_EQ(CountOne(Frame(Pfc(0x08), 59)), malformed);
  EXPECT_EQ(CountOne(Frame(Pfc(0x08), 14)), malformed);
  f = Pfc(0x08);
  f.opcode = wire::kMacControlOpcodePause;
  EXPECT_EQ(CountOne(Frame(f)), ignored);
  f.opcode = 0x0203;
  EXPECT_EQ(CountOne(Frame(f)), malformed);
}

TEST(PfcFuzzFrame, SameSeedSameFrames) {
  std::mt19937_64 a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto fa = FuzzFrame(a, kSrc, kRx);
    EXPECT_EQ(fa, FuzzFrame(b, kSrc, kRx));
    differs |= fa != FuzzFrame(c, kSrc, kRx);
  }
  EXPECT_TRUE(differs);
}

// Every kind of frame the receiver must tell apart comes up, and every
// frame is a MAC Control frame from kSrc that veth would carry.
TEST(PfcFuzzFrame, CoversEveryOutcome) {
  std::mt19937_64 rng(1);
  Expected all;
  std::set<std::size_t> sizes;
  uint64_t to_rx = 0, reserved_bits = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::vector<std::byte> f = FuzzFrame(rng, kSrc, kRx);
    ASSERT_GE(f.size(), wire::PfcFrame::kEthernetSize);
    ASSERT_LE(f.size(), kFuzzMaxFrame);
    EXPECT_EQ(f[12], std::byte{0x88});
    EXPECT_EQ(f[13], std::byte{0x08});
    EXPECT_TRUE(
        std::equal(kSrc.begin(), kSrc.end(), f.begin() + 6,
                   [](uint8_t m, std::byte b) { return std::byte{m} == b; }));
    to_rx +=
        std::equal(kRx.begin(), kRx.end(), f.begin(),
                   [](uint8_t m, std::byte b) { return std::byte{m} == b; });
    if (f.size() >= 60 && f[16] != std::byte{0}) ++reserved_bits;
    sizes.insert(f.size());
    Count(f, kReceiver, &all);
  }
  EXPECT_GT(all.malformed, 100u);
  EXPECT_GT(all.ignored, 100u);
  for (std::size_t p = 0; p < wire::kPfcPriorities; ++p)
    EXPECT_EQ(all.pause[p] > 0, p == 3 || p == 5) << p;
  EXPECT_GT(all.pause[3], 500u);
  EXPECT_GT(to_rx, 100u);
  EXPECT_GT(reserved_bits, 100u);
  EXPECT_TRUE(sizes.count(60) && sizes.count(14));
  EXPECT_GT(*sizes.rbegin(), 1000u);
}

TEST(PfcFuzzText, OneLine) {
  Expected e;
  e.malformed = 3;
  e.ignored = 4;
  e.pause[3] = 5;
  EXPECT_EQ(ExpectedText(e), "malformed=3 ignored=4 pause=0,0,0,5,0,0,0,0");
}

}  // namespace
}  // namespace rue::pfc_inject
