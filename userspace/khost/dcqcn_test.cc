// SPDX-License-Identifier: GPL-2.0
//
// kernel/dcqcn.c, built unchanged for the host, against the DCQCN
// reaction point of Zhu et al. (SIGCOMM'15, section 3.1) in the variant
// ConnectX runs and mlx5 exposes (NVIDIA's "DCQCN CC parameters"): 10-bit
// alpha, gd 11, a monitor period between cuts, a bounded cut, optional
// target clamping.
//
// Expected values are worked out here from the formulas, not by running
// the code under test again: hand-computed integers (the derivation in a
// comment next to each), the real-valued formula within the documented
// rounding, or the formula stepped in the test where a sequence is long.
// Units as in the state: rates in kb/s, times in ns.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>

#include <gtest/gtest.h>

extern "C" {
#include "dcqcn.h"
}

namespace {

constexpr uint64_t kUs = 1000;         // ns
constexpr uint64_t kSec = 1000000000;  // ns
constexpr uint32_t kMbps = 1000;       // kb/s
constexpr uint32_t k100G = 100000 * kMbps;
constexpr uint32_t k40G = 40000 * kMbps;

// What the code calls RUE_DCQCN_MAX_EVENTS: timer events one advance()
// replays at most.
constexpr uint32_t kMaxEventsPerAdvance = 65536;

// ConnectX firmware defaults, as rue_cc_defaults() sets them.
rue_dcqcn_params ConnectXParams() {
  return {
      .dce_tcp_g = 1019,
      .dce_tcp_rtt = 1,
      .initial_alpha = 1023,
      .rate_reduce_monitor_period = 4,
      .rpg_gd = 11,
      .rpg_min_dec_fac = 50,
      .rpg_min_rate = 1,
      .rate_to_set_on_first_cnp = 0,
      .clamp_tgt_rate = 0,
      .clamp_tgt_rate_after_time_inc = 1,
      .rpg_time_reset = 300,
      .rpg_byte_reset = 32767,
      .rpg_threshold = 1,
      .rpg_ai_rate = 5,
      .rpg_hai_rate = 50,
  };
}

// The paper's deployment: F = 5, T = 55 us, B = 10 MB, g = 1/256 (alpha
// keeps 1020/1024), alpha starts at 1, R_AI = 40 Mb/s, R_HAI = 200 Mb/s
// (the authors' ns-3 config), RT = RC on every cut, one cut per 50 us
// (the NP's CNP interval N).
rue_dcqcn_params PaperParams() {
  return {
      .dce_tcp_g = 1020,
      .dce_tcp_rtt = 55,
      .initial_alpha = 1024,
      .rate_reduce_monitor_period = 50,
      .rpg_gd = 11,
      .rpg_min_dec_fac = 50,
      .rpg_min_rate = 1,
      .rate_to_set_on_first_cnp = 0,
      .clamp_tgt_rate = 1,
      .clamp_tgt_rate_after_time_inc = 0,
      .rpg_time_reset = 55,
      .rpg_byte_reset = 10000000,
      .rpg_threshold = 5,
      .rpg_ai_rate = 40,
      .rpg_hai_rate = 200,
  };
}

// Fast recovery as the header states it: RC = (RT + RC) / 2, rounded up.
uint32_t Avg(uint64_t rt, uint64_t rc) {
  return static_cast<uint32_t>((rt + rc + 1) / 2);
}

// RC after a cut by alpha (1/1024ths) with gd 11, as a real number:
// RC * (1 - alpha / 2).  The code truncates the cut, so its RC is this
// rounded up.
double CutReal(double rc, double alpha) {
  return rc * (1.0 - alpha / 2048.0);
}

// One flow: its state and its parameters.
class Flow {
 public:
  Flow(const rue_dcqcn_params& p, uint32_t max_kbps, uint64_t now = 0)
      : p_(p) {
    rue_dcqcn_init(&s_, max_kbps, now);
  }

  bool Cnp(uint64_t now) { return rue_dcqcn_cnp(&s_, &p_, now); }
  void Advance(uint64_t now) { rue_dcqcn_advance(&s_, &p_, now); }
  void Sent(uint32_t bytes) { rue_dcqcn_sent(&s_, &p_, bytes); }
  // n byte counter events' worth, one call per event.
  void SentEvents(int n) {
    for (int i = 0; i < n; i++) Sent(p_.rpg_byte_reset);
  }

  const rue_dcqcn& s() const { return s_; }

 private:
  rue_dcqcn_params p_;
  rue_dcqcn s_;
};

void ExpectSameState(const rue_dcqcn& a, const rue_dcqcn& b) {
  EXPECT_EQ(a.max_rate, b.max_rate);
  EXPECT_EQ(a.rc, b.rc);
  EXPECT_EQ(a.rt, b.rt);
  EXPECT_EQ(a.alpha, b.alpha);
  EXPECT_EQ(a.t_stage, b.t_stage);
  EXPECT_EQ(a.b_stage, b.b_stage);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.t_alpha, b.t_alpha);
  EXPECT_EQ(a.t_inc, b.t_inc);
  EXPECT_EQ(a.t_cut, b.t_cut);
  EXPECT_EQ(a.limited, b.limited);
  EXPECT_EQ(a.cut_pending, b.cut_pending);
  EXPECT_EQ(a.alpha_set, b.alpha_set);
}

// The numbers most tests start from: 100 Gb/s, ConnectX defaults, the
// first CNP at t = 0.  alpha = initial_alpha = 1023, and the cut is
// floor(1e8 * 1023 / 2048) = floor(49951171.875) = 49951171, so
// RC = 1e8 * (1 - 1023/2048) = 50048828.125 rounded up: 50048829.
constexpr uint32_t kRc1 = 50048829;

// ---------------------------------------------------------------------
// Initial state

TEST(DcqcnInitTest, FullRateNotLimited) {
  Flow f(ConnectXParams(), k100G, 7 * kUs);

  EXPECT_EQ(f.s().max_rate, k100G);
  EXPECT_EQ(f.s().rc, k100G);
  EXPECT_EQ(f.s().rt, k100G);
  EXPECT_FALSE(f.s().limited);
  EXPECT_FALSE(f.s().alpha_set);
  EXPECT_FALSE(f.s().cut_pending);
  EXPECT_EQ(f.s().t_stage, 0u);
  EXPECT_EQ(f.s().b_stage, 0u);
  EXPECT_EQ(f.s().bytes, 0u);
}

TEST(DcqcnInitTest, TimeAndBytesAloneChangeNothing) {
  Flow f(ConnectXParams(), k100G);

  f.Advance(10 * kSec);
  f.Sent(100000000);
  f.Advance(20 * kSec);

  EXPECT_EQ(f.s().rc, k100G);
  EXPECT_EQ(f.s().rt, k100G);
  EXPECT_FALSE(f.s().limited);
  EXPECT_FALSE(f.s().alpha_set);
  EXPECT_EQ(f.s().alpha, 0u);
  EXPECT_EQ(f.s().t_stage, 0u);
  EXPECT_EQ(f.s().b_stage, 0u);
  EXPECT_EQ(f.s().bytes, 0u);
}

// ---------------------------------------------------------------------
// Cuts

TEST(DcqcnCutTest, FirstCnpSetsInitialAlphaAndCutsByHalfAlpha) {
  Flow f(ConnectXParams(), k100G);

  EXPECT_TRUE(f.Cnp(0));

  EXPECT_TRUE(f.s().alpha_set);
  EXPECT_EQ(f.s().alpha, 1023u);
  EXPECT_EQ(f.s().rc, kRc1);
  EXPECT_NEAR(f.s().rc, CutReal(k100G, 1023), 1.0);
  // clamp_tgt_rate 0, and no timer increase yet: RT stays
  EXPECT_EQ(f.s().rt, k100G);
  EXPECT_TRUE(f.s().limited);
  EXPECT_FALSE(f.s().cut_pending);
}

TEST(DcqcnCutTest, InitialAlphaAboveOneIsOne) {
  rue_dcqcn_params p = ConnectXParams();
  p.initial_alpha = 5000;
  Flow f(p, k100G);

  f.Cnp(0);

  // alpha = 1: the cut is RC / 2 exactly
  EXPECT_EQ(f.s().alpha, 1024u);
  EXPECT_EQ(f.s().rc, k100G / 2);
}

// Second CNP at 2 us, inside the 4 us monitor period:
//   alpha at 2 us: two decays, 1023 -> 1018 -> 1013 (1023*1019/1024 =
//   1018.004, 1018*1019/1024 = 1013.03), then the CNP: 1013*1019/1024 =
//   1008.05 -> 1008, + (1024 - 1019) = 1013.
//   alpha at 4 us: 1013 -> 1008 -> 1003 (1008*1019/1024 = 1003.08).
//   cut at 4 us: 50048829 * (1 - 1003/2048) = 25537610.5 -> 25537611.
constexpr uint32_t kRc2At4Us = 25537611;

TEST(DcqcnCutTest, CnpWithinMonitorPeriodCutsWhenItEnds) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  EXPECT_FALSE(f.Cnp(2 * kUs));
  EXPECT_EQ(f.s().rc, kRc1);
  EXPECT_EQ(f.s().alpha, 1013u);
  EXPECT_TRUE(f.s().cut_pending);

  f.Advance(4 * kUs - 1);
  EXPECT_EQ(f.s().rc, kRc1);
  EXPECT_TRUE(f.s().cut_pending);

  f.Advance(4 * kUs);
  EXPECT_EQ(f.s().alpha, 1003u);
  EXPECT_EQ(f.s().rc, kRc2At4Us);
  EXPECT_NEAR(f.s().rc, CutReal(kRc1, 1003), 1.0);
  EXPECT_FALSE(f.s().cut_pending);
  EXPECT_EQ(f.s().t_cut, 4 * kUs);
  EXPECT_EQ(f.s().rt, k100G);
  // The cut restarted the timer at 4 us: one increase event at 304 us.
  f.Advance(304 * kUs - 1);
  EXPECT_EQ(f.s().t_stage, 0u);
  f.Advance(304 * kUs);
  EXPECT_EQ(f.s().t_stage, 1u);
  EXPECT_EQ(f.s().rc, Avg(k100G, kRc2At4Us));
}

// The cut a CNP left pending happens at the end of the monitor period
// (4 us here) with alpha as it was then (1003), however late advance()
// is called: advance(10 us) must not cut with alpha decayed to 10 us
// (973, RC 26270748) but leave RC = 25537611.  cc.c calls advance() only
// when the QP transmits, so an idle QP's pending cut may be replayed late.
TEST(DcqcnCutTest, PendingCutUsesAlphaOfPeriodEnd) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);
  f.Cnp(2 * kUs);

  f.Advance(10 * kUs);

  EXPECT_EQ(f.s().rc, kRc2At4Us);
  // alpha itself is independent of the cut: 6 more decays after 4 us
  EXPECT_EQ(f.s().alpha, 973u);
}

// Looked at late, the pending cut still dates from the period's end: the
// timer restarts at 4 us, not at the time of the advance().
TEST(DcqcnCutTest, LatePendingCutIsDatedAtPeriodEnd) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);
  f.Cnp(2 * kUs);

  f.Advance(10 * kUs);

  EXPECT_FALSE(f.s().cut_pending);
  EXPECT_LT(f.s().rc, kRc1);
  EXPECT_EQ(f.s().t_cut, 4 * kUs);
  EXPECT_EQ(f.s().t_inc, 4 * kUs);
  f.Advance(304 * kUs - 1);
  EXPECT_EQ(f.s().t_stage, 0u);
  f.Advance(304 * kUs);
  EXPECT_EQ(f.s().t_stage, 1u);
}

TEST(DcqcnCutTest, CnpAfterMonitorPeriodCutsAtOnce) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  // alpha at 4 us: 1023 -> 1018 -> 1013 -> 1008 -> 1003, then the CNP:
  // 1003*1019/1024 = 998.1 -> 998, + 5 = 1003.
  EXPECT_TRUE(f.Cnp(4 * kUs));

  EXPECT_EQ(f.s().alpha, 1003u);
  EXPECT_EQ(f.s().rc, kRc2At4Us);
  EXPECT_EQ(f.s().t_cut, 4 * kUs);
  EXPECT_FALSE(f.s().cut_pending);
}

// alpha = alpha * g / 1024 + (1024 - g), no decay in between (the alpha
// period is longer than the gap between the CNPs).
TEST(DcqcnCutTest, SecondCnpRaisesAlphaByOneMinusG) {
  rue_dcqcn_params p = ConnectXParams();
  p.initial_alpha = 512;
  p.dce_tcp_rtt = 1000;
  Flow f(p, k100G);
  f.Cnp(0);
  // 1e8 * (1 - 512/2048) = 75000000 exactly
  ASSERT_EQ(f.s().rc, 75000000u);

  EXPECT_TRUE(f.Cnp(5 * kUs));

  // 512 * 1019 / 1024 = 509.5 -> 509, + 5 = 514
  EXPECT_EQ(f.s().alpha, 514u);
  EXPECT_NEAR(f.s().alpha, 512.0 * 1019 / 1024 + 5, 1.0);
  // 75000000 * (1 - 514/2048) = 56176757.8 -> 56176758
  EXPECT_EQ(f.s().rc, 56176758u);
}

// Several CNPs inside one period: alpha takes each, one cut at the end.
TEST(DcqcnCutTest, OneCutPerMonitorPeriod) {
  rue_dcqcn_params p = ConnectXParams();
  p.dce_tcp_rtt = 1000;  // no decay: alpha moves only on CNPs
  p.initial_alpha = 512;
  Flow f(p, k100G);
  f.Cnp(0);

  EXPECT_FALSE(f.Cnp(1 * kUs));
  EXPECT_FALSE(f.Cnp(2 * kUs));
  EXPECT_FALSE(f.Cnp(3 * kUs));
  EXPECT_EQ(f.s().rc, 75000000u);

  // 512 -> 514 -> 516 -> 518 (514*1019/1024 = 511.5, 516*1019/1024 =
  // 513.5, each truncated, + 5)
  EXPECT_EQ(f.s().alpha, 518u);
  f.Advance(4 * kUs);
  // 75000000 * (1 - 518/2048) = 56030273.4 -> 56030274
  EXPECT_EQ(f.s().rc, 56030274u);
  f.Advance(100 * kUs);
  EXPECT_EQ(f.s().rc, 56030274u);
}

TEST(DcqcnCutTest, MinDecFacBoundsOneCut) {
  rue_dcqcn_params p = ConnectXParams();
  // gd 10: a cut of RC * alpha, nearly all of it; 50 % stays
  p.rpg_gd = 10;
  Flow f10(p, k100G);
  f10.Cnp(0);
  EXPECT_EQ(f10.s().rc, k100G / 2);

  // gd 9: the cut would be twice RC
  p.rpg_gd = 9;
  Flow f9(p, k100G);
  f9.Cnp(0);
  EXPECT_EQ(f9.s().rc, k100G / 2);

  // no bound: 1e8 * (1 - 1023/1024) = 97656.25 -> 97657
  p.rpg_min_dec_fac = 0;
  p.rpg_gd = 10;
  Flow f0(p, k100G);
  f0.Cnp(0);
  EXPECT_EQ(f0.s().rc, 97657u);

  // 80 %: the usual half cut is too deep
  p.rpg_min_dec_fac = 80;
  p.rpg_gd = 11;
  Flow f80(p, k100G);
  f80.Cnp(0);
  EXPECT_EQ(f80.s().rc, 80000000u);
}

TEST(DcqcnCutTest, MinRateFloorsTheCut) {
  // 1.5 Mb/s: 1500 * (1 - 1023/2048) = 750.7, below 1 Mb/s
  Flow f(ConnectXParams(), 1500);
  f.Cnp(0);
  EXPECT_EQ(f.s().rc, 1000u);
  EXPECT_TRUE(f.s().limited);
}

TEST(DcqcnCutTest, RepeatedCutsStopAtMinRate) {
  Flow f(ConnectXParams(), k100G);
  uint32_t prev = k100G;

  // about halving every 4 us: 1e8 kb/s takes 17 cuts to reach 1 Mb/s
  for (int i = 0; i < 40; i++) {
    f.Cnp(i * 4 * kUs);
    ASSERT_GE(f.s().rc, 1000u) << "cut " << i;
    ASSERT_LE(f.s().rc, prev) << "cut " << i;
    prev = f.s().rc;
  }
  EXPECT_EQ(f.s().rc, 1000u);
}

TEST(DcqcnCutTest, MinRateAboveMaxRateKeepsMaxRate) {
  Flow f(ConnectXParams(), 500);  // 0.5 Mb/s, under rpg_min_rate
  f.Cnp(0);
  EXPECT_EQ(f.s().rc, 500u);
}

TEST(DcqcnCutTest, RateToSetOnFirstCnp) {
  rue_dcqcn_params p = ConnectXParams();
  p.rate_to_set_on_first_cnp = 10000;  // 10 Gb/s
  Flow f(p, k100G);

  f.Cnp(0);
  EXPECT_EQ(f.s().rc, 10000u * kMbps);
  EXPECT_EQ(f.s().alpha, 1023u);
  EXPECT_TRUE(f.s().limited);

  // Later CNPs cut as usual (alpha 1003 at 4 us, as above):
  // 1e7 * (1 - 1003/2048) = 5102539.06 -> 5102540
  f.Cnp(4 * kUs);
  EXPECT_EQ(f.s().rc, 5102540u);
}

TEST(DcqcnCutTest, RateToSetOnFirstCnpWithinBounds) {
  rue_dcqcn_params p = ConnectXParams();
  p.rate_to_set_on_first_cnp = 200000;  // above the line rate
  Flow high(p, k100G);
  high.Cnp(0);
  EXPECT_EQ(high.s().rc, k100G);

  p.rate_to_set_on_first_cnp = 10;
  p.rpg_min_rate = 20;
  Flow low(p, k100G);
  low.Cnp(0);
  EXPECT_EQ(low.s().rc, 20u * kMbps);
}

// A flow that recovered fully within the monitor period still has its
// second CNP wait for the period's end ("at most one cut per period",
// "a CNP within rate_reduce_monitor_period of the last cut is
// remembered and cuts when the period ends").
//
// Even a flow that recovered fully within the period waits it out: 2000
// -> 1001 at 0, back to 2000 after ten byte counter events, then a CNP
// at 2 us must not cut at once (Cnp() returns false, RC stays 2000 until
// the cut at 4 us).
TEST(DcqcnCutTest, RecoveredFlowStillWaitsOutMonitorPeriod) {
  Flow f(ConnectXParams(), 2000);
  f.Cnp(0);
  // 2000 * (1 - 1023/2048) = 1000.98 -> 1001
  ASSERT_EQ(f.s().rc, 1001u);
  // gap 999 -> 499 -> 249 -> 124 -> 62 -> 31 -> 15 -> 7 -> 3 -> 1 -> 0
  f.SentEvents(10);
  ASSERT_FALSE(f.s().limited);

  EXPECT_FALSE(f.Cnp(2 * kUs));
  EXPECT_EQ(f.s().rc, 2000u);
  f.Advance(4 * kUs);
  EXPECT_LT(f.s().rc, 2000u);
}

// ---------------------------------------------------------------------
// Target clamping

// The same history under three settings: cut at 0, one byte counter
// event, cut at 4 us, one timer event (at 304 us), cut at 304 us.
//   after the byte event: RC = (1e8 + 50048829 + 1) / 2 = 75024415
//   cut at 4 us (alpha 1003): 75024415 * (1 - 1003/2048) -> 38281501
//   timer event: RC = (RT + 38281501 + 1) / 2, RT = 1e8 without clamping
struct ClampCase {
  const char* name;
  uint32_t clamp_tgt_rate;
  uint32_t after_time_inc;
  uint32_t rt_after_cut2;  // RT = RC before the cut, or unchanged
  uint32_t rt_after_cut3;
};

void PrintTo(const ClampCase& c, std::ostream* os) { *os << c.name; }

class DcqcnClampTest : public ::testing::TestWithParam<ClampCase> {};

TEST_P(DcqcnClampTest, TargetRate) {
  const ClampCase& c = GetParam();
  rue_dcqcn_params p = ConnectXParams();
  p.clamp_tgt_rate = c.clamp_tgt_rate;
  p.clamp_tgt_rate_after_time_inc = c.after_time_inc;
  Flow f(p, k100G);

  f.Cnp(0);
  EXPECT_EQ(f.s().rt, k100G);  // RC was the line rate
  f.SentEvents(1);
  ASSERT_EQ(f.s().rc, 75024415u);
  f.Cnp(4 * kUs);
  EXPECT_EQ(f.s().rt, c.rt_after_cut2);
  ASSERT_EQ(f.s().rc, 38281501u);
  f.Advance(304 * kUs);
  ASSERT_EQ(f.s().t_stage, 1u);
  uint32_t rc3 = Avg(f.s().rt, 38281501);
  ASSERT_EQ(f.s().rc, rc3);
  f.Cnp(304 * kUs);
  EXPECT_EQ(f.s().rt, c.rt_after_cut3 ? c.rt_after_cut3 : rc3);
}

INSTANTIATE_TEST_SUITE_P(
    Settings, DcqcnClampTest,
    ::testing::Values(
        // neither: RT never follows RC
        ClampCase{"Never", 0, 0, k100G, k100G},
        // clamp_tgt_rate: RT = RC on every cut (0: "RC before the cut")
        ClampCase{"EveryCut", 1, 0, 75024415, 0},
        // ConnectX default: only the cut after the timer event clamps
        ClampCase{"AfterTimeInc", 0, 1, k100G, 0}),
    [](const ::testing::TestParamInfo<ClampCase>& info) {
      return std::string(info.param.name);
    });

// ---------------------------------------------------------------------
// alpha

// Each dce_tcp_rtt without a CNP: alpha = floor(alpha * g / 1024), the
// truncation at each step, so after n periods alpha is at most
// 1023 * (1019/1024)^n and at least that minus n.
TEST(DcqcnAlphaTest, DecaysByGEveryRtt) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  f.Advance(1 * kUs - 1);
  EXPECT_EQ(f.s().alpha, 1023u);
  f.Advance(1 * kUs);
  EXPECT_EQ(f.s().alpha, 1018u);  // 1042437 / 1024 = 1018.004
  f.Advance(2 * kUs + 500);
  EXPECT_EQ(f.s().alpha, 1013u);  // 1037342 / 1024 = 1013.03
  f.Advance(3 * kUs);
  EXPECT_EQ(f.s().alpha, 1008u);  // 1032247 / 1024 = 1008.05

  // 100 periods: the real-valued 1023 * (1019/1024)^100 is 627.04, the
  // truncations take it to 590.
  f.Advance(100 * kUs);
  double real = 1023 * std::pow(1019.0 / 1024, 100);
  EXPECT_EQ(f.s().alpha, 590u);
  EXPECT_LE(f.s().alpha, real);
  EXPECT_GE(f.s().alpha, real - 100);
}

TEST(DcqcnAlphaTest, DecaysToZeroAndTheNextCnpAddsOneMinusG) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  // Below 205, alpha * 5/1024 < 1: it loses exactly 1 per period, and
  // it takes 466 periods from 1023 to 0.
  f.Advance(465 * kUs);
  EXPECT_EQ(f.s().alpha, 1u);
  f.Advance(466 * kUs);
  EXPECT_EQ(f.s().alpha, 0u);
  f.Advance(10 * kSec);
  EXPECT_EQ(f.s().alpha, 0u);

  f.Cnp(10 * kSec);
  EXPECT_EQ(f.s().alpha, 5u);
}

// The paper's g = 1/256: alpha keeps 1020/1024, from alpha = 1.
TEST(DcqcnAlphaTest, PaperGain) {
  Flow f(PaperParams(), k40G);
  f.Cnp(0);
  EXPECT_EQ(f.s().alpha, 1024u);

  f.Advance(55 * kUs);
  EXPECT_EQ(f.s().alpha, 1020u);  // 1024 * 1020 / 1024
  f.Advance(110 * kUs);
  EXPECT_EQ(f.s().alpha, 1016u);  // 1020 * 1020 / 1024 = 1016.02
  // a CNP: 1016 * 1020 / 1024 = 1012.03 -> 1012, + 4
  f.Cnp(120 * kUs);
  EXPECT_EQ(f.s().alpha, 1016u);
}

// The alpha period restarts at each CNP: "if no CNP within K".
TEST(DcqcnAlphaTest, CnpRestartsAlphaPeriod) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  // decays at 1, 2, 3, 4 us (1003), then the CNP at 4.5 us: 1003 *
  // 1019 / 1024 = 998.1 -> 998, + 5 = 1003
  f.Cnp(4 * kUs + 500);
  EXPECT_EQ(f.s().alpha, 1003u);
  f.Advance(5 * kUs + 499);
  EXPECT_EQ(f.s().alpha, 1003u);
  f.Advance(5 * kUs + 500);
  EXPECT_EQ(f.s().alpha, 998u);
}

// ---------------------------------------------------------------------
// Increase

// Paper parameters, 40 Gb/s.  Cut at 0: alpha 1, RC 2e7, RT 4e7.  Cut at
// 50 us: RT = RC = 2e7, alpha = 1024*1020/1024 + 4 = 1024, RC = 1e7.
// The timer restarts at 50 us, so its events fall at 105, 160, 215...
Flow PaperFlowAfterTwoCuts() {
  Flow f(PaperParams(), k40G);
  f.Cnp(0);
  EXPECT_EQ(f.s().rc, 20000000u);
  EXPECT_EQ(f.s().rt, k40G);
  f.Cnp(50 * kUs);
  EXPECT_EQ(f.s().alpha, 1024u);
  EXPECT_EQ(f.s().rt, 20000000u);
  EXPECT_EQ(f.s().rc, 10000000u);
  return f;
}

uint64_t PaperTimerEvent(int k) { return (50 + 55 * k) * kUs; }

TEST(DcqcnIncreaseTest, FastRecoveryHalvesTheGapFTimes) {
  Flow f = PaperFlowAfterTwoCuts();

  // F = 5 events, each RC = (RT + RC) / 2: the gap to RT goes
  // 1e7 -> 5e6 -> 2.5e6 -> 1.25e6 -> 625000 -> 312500.
  const uint32_t want[] = {15000000, 17500000, 18750000, 19375000, 19687500};
  for (int k = 1; k <= 5; k++) {
    f.Advance(PaperTimerEvent(k) - 1);
    EXPECT_EQ(f.s().t_stage, static_cast<uint32_t>(k - 1));
    f.Advance(PaperTimerEvent(k));
    EXPECT_EQ(f.s().t_stage, static_cast<uint32_t>(k));
    EXPECT_EQ(f.s().rc, want[k - 1]) << "event " << k;
    EXPECT_EQ(f.s().rt, 20000000u) << "event " << k;
  }
}

TEST(DcqcnIncreaseTest, AdditiveIncreaseOnceOneCounterReachesF) {
  Flow f = PaperFlowAfterTwoCuts();
  f.Advance(PaperTimerEvent(5));
  ASSERT_EQ(f.s().rc, 19687500u);

  // t_stage = 5 = F: RT += 40 Mb/s, then RC = (RT + RC) / 2:
  //   (20040000 + 19687500 + 1) / 2 = 19863750
  //   (20080000 + 19863750 + 1) / 2 = 19971875
  //   (20120000 + 19971875 + 1) / 2 = 20045938
  f.Advance(PaperTimerEvent(6));
  EXPECT_EQ(f.s().rt, 20040000u);
  EXPECT_EQ(f.s().rc, 19863750u);
  f.Advance(PaperTimerEvent(7));
  EXPECT_EQ(f.s().rt, 20080000u);
  EXPECT_EQ(f.s().rc, 19971875u);
  f.Advance(PaperTimerEvent(8));
  EXPECT_EQ(f.s().rt, 20120000u);
  EXPECT_EQ(f.s().rc, 20045938u);
}

TEST(DcqcnIncreaseTest, HyperIncreaseWhenBothCountersReachF) {
  Flow f = PaperFlowAfterTwoCuts();

  // Five byte counter events (10 MB each): fast recovery, b_stage 5.
  f.SentEvents(5);
  ASSERT_EQ(f.s().b_stage, 5u);
  ASSERT_EQ(f.s().rc, 19687500u);
  ASSERT_EQ(f.s().rt, 20000000u);

  // Five timer events with t_stage < F <= b_stage: additive.
  f.Advance(PaperTimerEvent(5));
  ASSERT_EQ(f.s().t_stage, 5u);
  EXPECT_EQ(f.s().rt, 20000000u + 5 * 40000);
  EXPECT_EQ(f.s().rc, 20151485u);  // stepped by hand, as above

  // Both at F: RT += i * 200 Mb/s, i = min(t_stage, b_stage) - F + 1.
  struct Step {
    bool timer;
    uint32_t i;
  };
  const Step steps[] = {
      {true, 1},   // t 5, b 5
      {true, 1},   // t 6, b 5
      {false, 1},  // t 7, b 5
      {true, 2},   // t 7, b 6
      {false, 2},  // t 8, b 6
      {false, 3},  // t 8, b 7
  };
  uint32_t rt = f.s().rt;
  uint32_t rc = f.s().rc;
  int k = 5;
  for (const Step& step : steps) {
    if (step.timer)
      f.Advance(PaperTimerEvent(++k));
    else
      f.SentEvents(1);
    rt += step.i * 200 * kMbps;
    rc = Avg(rt, rc);
    EXPECT_EQ(f.s().rt, rt) << "t " << f.s().t_stage << " b " << f.s().b_stage;
    EXPECT_EQ(f.s().rc, rc) << "t " << f.s().t_stage << " b " << f.s().b_stage;
  }
  EXPECT_EQ(f.s().rt, 22200000u);
  EXPECT_EQ(f.s().rc, 21727367u);
}

// ConnectX's F = 1: fast recovery only while both counters are 0,
// additive once either has counted an event, hyper once both have.
TEST(DcqcnIncreaseTest, ConnectXThresholdOne) {
  rue_dcqcn_params p = ConnectXParams();
  p.clamp_tgt_rate = 1;
  Flow f(p, k100G);
  f.Cnp(0);
  f.Cnp(4 * kUs);
  ASSERT_EQ(f.s().rt, kRc1);
  ASSERT_EQ(f.s().rc, kRc2At4Us);

  f.Advance(304 * kUs);  // t 0, b 0: fast recovery
  EXPECT_EQ(f.s().rt, kRc1);
  EXPECT_EQ(f.s().rc, 37793220u);  // (50048829 + 25537611 + 1) / 2
  f.Advance(604 * kUs);  // t 1, b 0: additive, + 5 Mb/s
  EXPECT_EQ(f.s().rt, 50053829u);
  EXPECT_EQ(f.s().rc, 43923525u);
  f.SentEvents(1);  // t 2, b 0: additive
  EXPECT_EQ(f.s().rt, 50058829u);
  EXPECT_EQ(f.s().rc, 46991177u);
  f.SentEvents(1);  // t 2, b 1: hyper, i = 1, + 50 Mb/s
  EXPECT_EQ(f.s().rt, 50108829u);
  EXPECT_EQ(f.s().rc, 48550003u);
  f.Advance(904 * kUs);  // t 2, b 2: hyper, i = 2
  EXPECT_EQ(f.s().rt, 50208829u);
  EXPECT_EQ(f.s().rc, 49379416u);
}

TEST(DcqcnIncreaseTest, TargetNeverAboveMaxRate) {
  rue_dcqcn_params p = PaperParams();
  p.rpg_hai_rate = 100000;  // 100 Gb/s a step, more than the line rate
  p.rpg_threshold = 0;      // hyper from the start
  Flow f(p, k40G);
  f.Cnp(0);

  f.SentEvents(1);
  EXPECT_EQ(f.s().rt, k40G);
  EXPECT_LE(f.s().rc, k40G);
}

// ---------------------------------------------------------------------
// Byte counter

TEST(DcqcnByteCounterTest, EveryByteResetBytesIsOneEvent) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  f.Sent(32766);
  EXPECT_EQ(f.s().b_stage, 0u);
  EXPECT_EQ(f.s().bytes, 32766u);
  EXPECT_EQ(f.s().rc, kRc1);

  f.Sent(2);  // 32768: one event, 1 byte carried over
  EXPECT_EQ(f.s().b_stage, 1u);
  EXPECT_EQ(f.s().bytes, 1u);
  EXPECT_EQ(f.s().rc, 75024415u);  // (1e8 + 50048829 + 1) / 2

  f.Sent(3 * 32767);  // three events at once, still 1 over
  EXPECT_EQ(f.s().b_stage, 4u);
  EXPECT_EQ(f.s().bytes, 1u);
  // RT is the line rate already (additive increase clamps it): the gap
  // 24975585 halves three times, rounding RC up: 3121948
  EXPECT_EQ(f.s().rt, k100G);
  EXPECT_EQ(f.s().rc, k100G - 3121948);

  for (int i = 0; i < 32766; i++) f.Sent(1);
  EXPECT_EQ(f.s().b_stage, 5u);
  EXPECT_EQ(f.s().bytes, 0u);
}

TEST(DcqcnByteCounterTest, CutRestartsTheCounters) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);
  f.Sent(32767 + 32766);
  f.Advance(300 * kUs);
  ASSERT_EQ(f.s().b_stage, 1u);
  ASSERT_EQ(f.s().t_stage, 1u);

  f.Cnp(301 * kUs);
  EXPECT_EQ(f.s().bytes, 0u);
  EXPECT_EQ(f.s().b_stage, 0u);
  EXPECT_EQ(f.s().t_stage, 0u);
  EXPECT_EQ(f.s().t_inc, 301 * kUs);

  f.Sent(1);
  EXPECT_EQ(f.s().b_stage, 0u);
  f.Advance(600 * kUs);  // 299 us after the cut: no timer event yet
  EXPECT_EQ(f.s().t_stage, 0u);
  f.Advance(601 * kUs);
  EXPECT_EQ(f.s().t_stage, 1u);
}

// ---------------------------------------------------------------------
// Recovery

TEST(DcqcnRecoveryTest, UnlimitedOnceBackAtMaxRate) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  // RT is the line rate; each event halves the gap 49951171 (rounding
  // RC up), which takes 26 events to close (2^25 < 49951171 < 2^26).
  f.SentEvents(25);
  EXPECT_TRUE(f.s().limited);
  EXPECT_EQ(f.s().rc, k100G - 1);
  f.SentEvents(1);
  EXPECT_FALSE(f.s().limited);
  EXPECT_EQ(f.s().rc, k100G);
  EXPECT_EQ(f.s().rt, k100G);
  EXPECT_EQ(f.s().bytes, 0u);

  // Bytes and time do nothing now.
  rue_dcqcn before = f.s();
  f.Sent(32767);
  f.Sent(1000);
  EXPECT_EQ(f.s().bytes, 0u);
  EXPECT_EQ(f.s().b_stage, before.b_stage);
  EXPECT_EQ(f.s().t_stage, before.t_stage);
  f.Advance(10 * kSec);
  EXPECT_EQ(f.s().rc, k100G);
  EXPECT_EQ(f.s().t_stage, before.t_stage);
}

TEST(DcqcnRecoveryTest, LongIdleGapRecoversInOneAdvance) {
  Flow f(ConnectXParams(), k100G);
  f.Cnp(0);

  // 26 timer events, 7.8 ms; ask 10 s later
  f.Advance(10 * kSec);
  EXPECT_FALSE(f.s().limited);
  EXPECT_EQ(f.s().rc, k100G);
  EXPECT_EQ(f.s().rt, k100G);
  EXPECT_EQ(f.s().t_stage, 26u);
  EXPECT_EQ(f.s().t_inc, 10 * kSec);
}

// Down to the minimum rate with RT clamped there too: climbing back
// takes additive increases of 5 Mb/s, about 20000 timer events (6 s).
TEST(DcqcnRecoveryTest, FromMinRateInOneAdvance) {
  rue_dcqcn_params p = ConnectXParams();
  p.clamp_tgt_rate = 1;
  Flow f(p, k100G);
  for (int i = 0; i < 40; i++) f.Cnp(i * 4 * kUs);
  ASSERT_EQ(f.s().rc, 1000u);
  ASSERT_LE(f.s().rt, 2000u);

  f.Advance(100 * kSec);
  EXPECT_FALSE(f.s().limited);
  EXPECT_EQ(f.s().rc, k100G);
  EXPECT_EQ(f.s().rt, k100G);
  // one fast recovery, 20000 additive increases to bring RT from 1 Mb/s
  // to the line rate (RC trails RT by about one step, 5000), then the
  // last gap of about 5000 halves away in some 13 more events.
  EXPECT_GE(f.s().t_stage, 20001u);
  EXPECT_LE(f.s().t_stage, 20020u);
}

// A flow that cannot recover (no increase steps, RT below the line
// rate): one advance() over an enormous gap replays a bounded number of
// events and leaves RC at RT.
TEST(DcqcnRecoveryTest, LongGapIsBounded) {
  rue_dcqcn_params p = ConnectXParams();
  p.clamp_tgt_rate = 1;
  p.rpg_ai_rate = 0;
  p.rpg_hai_rate = 0;
  Flow f(p, k100G);
  f.Cnp(0);
  f.Cnp(4 * kUs);
  ASSERT_EQ(f.s().rt, kRc1);

  f.Advance(UINT64_C(1) << 62);
  EXPECT_TRUE(f.s().limited);
  EXPECT_EQ(f.s().rt, kRc1);
  EXPECT_EQ(f.s().rc, kRc1);
  EXPECT_EQ(f.s().t_stage, kMaxEventsPerAdvance);
  EXPECT_EQ(f.s().alpha, 0u);
}

// ---------------------------------------------------------------------
// Time

TEST(DcqcnTimeTest, SameTimeChangesNothing) {
  Flow f(ConnectXParams(), k100G);
  rue_dcqcn before = f.s();
  f.Advance(0);
  ExpectSameState(f.s(), before);

  f.Cnp(0);
  before = f.s();
  f.Advance(0);
  ExpectSameState(f.s(), before);

  f.Cnp(2 * kUs);  // pending
  before = f.s();
  f.Advance(2 * kUs);
  f.Advance(2 * kUs);
  ExpectSameState(f.s(), before);

  f.Advance(700 * kUs);  // the pending cut, two timer events, alpha
  before = f.s();
  f.Advance(700 * kUs);
  ExpectSameState(f.s(), before);
}

// Looking more often does not change the outcome (no pending cut here:
// PendingCutUsesAlphaOfPeriodEnd covers the one with).
TEST(DcqcnTimeTest, StepSizeDoesNotMatter) {
  Flow once(ConnectXParams(), k100G);
  Flow often(ConnectXParams(), k100G);
  once.Cnp(0);
  often.Cnp(0);

  once.Advance(5 * kSec / 1000);
  for (uint64_t t = 0; t <= 5 * kSec / 1000; t += 7 * kUs + 3)
    often.Advance(t);
  often.Advance(5 * kSec / 1000);

  ExpectSameState(once.s(), often.s());
}

// ---------------------------------------------------------------------
// Invariants over random histories

void CheckInvariants(const rue_dcqcn& s, const rue_dcqcn_params& p,
                     int step) {
  uint32_t min_rate = std::min<uint64_t>(uint64_t{p.rpg_min_rate} * kMbps,
                                         s.max_rate);
  ASSERT_LE(s.rt, s.max_rate) << "step " << step;
  ASSERT_LE(s.rc, s.rt) << "step " << step;
  ASSERT_GE(s.rc, min_rate) << "step " << step;
  ASSERT_LE(s.alpha, 1024u) << "step " << step;
  ASSERT_LT(s.bytes, p.rpg_byte_reset) << "step " << step;
  if (!s.limited) {
    ASSERT_EQ(s.rc, s.max_rate) << "step " << step;
    ASSERT_EQ(s.bytes, 0u) << "step " << step;
  }
}

void RandomHistory(const rue_dcqcn_params& p, uint32_t max_rate,
                   uint64_t seed) {
  std::mt19937_64 rng(seed);
  Flow f(p, max_rate);
  uint64_t now = 0;

  for (int step = 0; step < 20000; step++) {
    switch (rng() % 4) {
      case 0:
        f.Cnp(now);
        break;
      case 1:
        f.Sent(static_cast<uint32_t>(rng() % (2 * p.rpg_byte_reset)));
        break;
      case 2:
        f.Advance(now);
        break;
      default:
        // mostly short gaps, now and then a long one
        now += (rng() % 8) ? rng() % (2 * kUs) : rng() % (2000 * kUs);
        break;
    }
    CheckInvariants(f.s(), p, step);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(DcqcnInvariantTest, RandomHistoriesConnectX) {
  RandomHistory(ConnectXParams(), k100G, 1);
  RandomHistory(ConnectXParams(), 1500, 2);
}

TEST(DcqcnInvariantTest, RandomHistoriesPaper) {
  rue_dcqcn_params p = PaperParams();
  p.rpg_byte_reset = 30000;  // events often enough to matter
  p.rpg_time_reset = 5;
  RandomHistory(p, k40G, 3);
}

}  // namespace
