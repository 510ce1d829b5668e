// SPDX-License-Identifier: GPL-2.0
//
// kernel/nscc.c, built unchanged for the host, against NSCC as the UEC
// htsim model runs it (shared/reference/uet.md section 3): the quadrant
// rule, proportional and fair increase applied as inc / cwnd, eta once per
// base RTT, multiplicative decrease at most once per base RTT, quick
// adapt, and the bounds.
//
// Expected values come from the real-valued formulas, worked out here
// (the code keeps fractions in 1/1024, so they agree within a documented
// tolerance), or from hand-computed integers where the code is exact.
// Units: bytes, microseconds for RTTs, nanoseconds for the clock.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

extern "C" {
#include "nscc.h"
}

namespace {

constexpr uint64_t kUs = 1000;        // ns
constexpr uint64_t kMs = 1000 * kUs;  // ns
constexpr uint64_t kSec = 1000 * kMs;  // ns

constexpr uint32_t kMss = 4096;
// The module parameters' defaults (uet_cc_max_pkts, uet_cc_target_us).
constexpr uint32_t kMaxCwnd = 256 * kMss;  // 1 MiB
constexpr uint32_t kTarget = 500;          // us
constexpr uint32_t kBase = 100;            // us, the RTT of the tests' path

// htsim's scaling_factor_a: BDP / (100 Gb/s * 12 us), BDP = maxwnd / 1.5.
constexpr double kA = kMaxCwnd / 1.5 / 150000.0;  // 4.66
// Per RTT (a window's worth of bytes acked), in bytes:
constexpr double kProp = 4 * kMss * kA;     // proportional, at no delay
constexpr double kFair = 5 * kMss * kA;     // fair
constexpr double kEta = 0.15 * kMss * kA;   // eta, once per base RTT
// The code rounds a down to 1/1024 (4772/1024 for 4.66033): 0.004%, and
// truncates each step; 0.2% covers both.
constexpr double kTol = 0.002;

class Nscc : public ::testing::Test {
 protected:
  void SetUp() override { rue_nscc_cfg_default(&cfg_, kMss); }

  // A PDC starting at @cwnd bytes, and one ACK that sets its base RTT.
  void Start(uint32_t cwnd) {
    cfg_.init_cwnd = cwnd;
    rue_nscc_init(&cc_, &cfg_);
    ASSERT_EQ(rue_nscc_cwnd(&cc_), cwnd);
    EXPECT_EQ(Ack(0, kBase, false), 0u);
    ASSERT_EQ(cc_.base_rtt_us, kBase);
  }

  unsigned Ack(uint32_t bytes, uint32_t rtt_us, bool ecn) {
    return rue_nscc_on_ack(&cc_, &cfg_, bytes, rtt_us, ecn, now_);
  }
  unsigned Loss() { return rue_nscc_on_loss(&cc_, &cfg_, now_); }
  uint32_t Cwnd() const { return rue_nscc_cwnd(&cc_); }
  double AvgDelayUs() const {
    return cc_.avg_delay / double(1 << RUE_NSCC_AVG_SHIFT);
  }

  // Average delay above @us through ECN-marked ACKs without data, each
  // nanoseconds apart (no period ends).  The first of them with the
  // average over the target decreases the window (the test puts it back),
  // and the next decrease is a base RTT away.
  void RaiseAvgDelay(double us) {
    uint32_t cwnd = Cwnd();
    for (int i = 0; i < 200 && AvgDelayUs() <= us; i++) {
      Ack(0, kBase + 40000, true);
      now_ += 1;
    }
    ASSERT_GT(AvgDelayUs(), us);
    cc_.cwnd = cwnd;
  }

  rue_nscc_cfg cfg_{};
  rue_nscc cc_{};
  // Far from zero, as ktime_get_ns() after boot.
  uint64_t now_ = 1000 * kSec;
};

TEST_F(Nscc, DefaultsFollowTheModuleParameters) {
  EXPECT_EQ(cfg_.mss, kMss);
  EXPECT_EQ(cfg_.max_cwnd, kMaxCwnd);
  EXPECT_EQ(cfg_.min_cwnd, kMss);
  EXPECT_EQ(cfg_.init_cwnd, kMaxCwnd);  // flows start at the full window
  EXPECT_EQ(cfg_.target_us, kTarget);
  EXPECT_TRUE(cfg_.enabled);

  rue_nscc_init(&cc_, &cfg_);
  EXPECT_EQ(rue_nscc_cwnd(&cc_), kMaxCwnd);
}

TEST_F(Nscc, DefaultsClampTheMss) {
  rue_nscc_cfg_default(&cfg_, 0);
  EXPECT_EQ(cfg_.mss, 64u);
  EXPECT_EQ(cfg_.min_cwnd, 64u);
  EXPECT_EQ(cfg_.max_cwnd, 256u * 64);
  rue_nscc_cfg_default(&cfg_, std::numeric_limits<uint32_t>::max());
  EXPECT_EQ(cfg_.mss, 65536u);
  EXPECT_EQ(cfg_.max_cwnd, 256u * 65536);  // 16 MiB, under the 64 MiB cap
}

TEST_F(Nscc, InitClampsTheStartingWindow) {
  cfg_.init_cwnd = 1;
  rue_nscc_init(&cc_, &cfg_);
  EXPECT_EQ(Cwnd(), kMss);
  cfg_.init_cwnd = kMaxCwnd * 2;
  rue_nscc_init(&cc_, &cfg_);
  EXPECT_EQ(Cwnd(), kMaxCwnd);
}

// rue.uet_cc=0: the window is the ceiling and nothing moves it.
TEST_F(Nscc, DisabledKeepsTheMaximum) {
  cfg_.enabled = false;
  cfg_.init_cwnd = 8 * kMss;
  rue_nscc_init(&cc_, &cfg_);
  EXPECT_EQ(Cwnd(), kMaxCwnd);
  for (int i = 0; i < 100; i++) {
    EXPECT_EQ(Ack(16384, kBase + 40000, true), 0u);
    EXPECT_EQ(Loss(), 0u);
    now_ += 10 * kMs;
  }
  EXPECT_EQ(Cwnd(), kMaxCwnd);
}

// No ECN, delay under the target: proportional increase, in proportion
// to target - delay.  8 MSS acked apply it at once: cwnd += inc / cwnd.
TEST_F(Nscc, NoEcnLowDelayIncreasesProportionally) {
  constexpr uint32_t kCwnd = 16 * kMss;
  constexpr uint32_t kAcked = 8 * kMss;
  Start(kCwnd);
  EXPECT_EQ(Ack(kAcked, kBase, false), unsigned(RUE_NSCC_EV_INCREASE));
  double want = kCwnd + kProp * kAcked / kCwnd;  // + 38180
  EXPECT_NEAR(Cwnd(), want, want * kTol);

  // Half the target's worth of delay: half the increase.
  Start(kCwnd);
  EXPECT_EQ(Ack(kAcked, kBase + kTarget / 2, false),
            unsigned(RUE_NSCC_EV_INCREASE));
  want = kCwnd + kProp * 0.5 * kAcked / kCwnd;  // + 19090
  EXPECT_NEAR(Cwnd(), want, want * kTol);
}

// No ECN, delay at or over the target: fair increase, whatever the delay.
TEST_F(Nscc, NoEcnHighDelayIncreasesFairly) {
  constexpr uint32_t kCwnd = 16 * kMss;
  constexpr uint32_t kAcked = 8 * kMss;
  const double want = kCwnd + kFair * kAcked / kCwnd;  // + 47726
  for (uint32_t delay : {kTarget, 3 * kTarget, 3 * kTarget + 499}) {
    Start(kCwnd);
    EXPECT_EQ(Ack(kAcked, kBase + delay, false),
              unsigned(RUE_NSCC_EV_INCREASE))
        << delay;
    EXPECT_NEAR(Cwnd(), want, want * kTol) << delay;
  }
}

// ECN, delay under the target: hold (htsim would re-path).
TEST_F(Nscc, EcnLowDelayHolds) {
  Start(64 * kMss);
  RaiseAvgDelay(kTarget);  // a decrease would be allowed
  uint32_t before = Cwnd();
  for (int i = 0; i < 10; i++)
    EXPECT_EQ(Ack(8 * kMss, kBase + kTarget - 1, true), 0u);
  EXPECT_EQ(Cwnd(), before);
}

// ECN and delay over the target: cwnd *= max(1 - 0.8 (avg - t) / avg,
// 0.5), with the average delay (not this ACK's).
TEST_F(Nscc, EcnHighDelayDecreasesMultiplicatively) {
  constexpr uint32_t kCwnd = 64 * kMss;
  Start(kCwnd);
  // A moderately high average: the factor is above the 0.5 floor.
  for (int i = 0; i < 200 && AvgDelayUs() <= 600; i++)
    Ack(0, kBase + 700, false);  // no ECN: counts as base / 4, stays low
  EXPECT_LT(AvgDelayUs(), kTarget);
  EXPECT_EQ(Cwnd(), kCwnd);  // 0 bytes: nothing owed, no period passed

  // ECN with delay 700: the average moves 1/16 of the way per ACK, and
  // there is no decrease while it is at or under the target.
  unsigned ev = 0;
  int acks = 0;
  while (!(ev & RUE_NSCC_EV_DECREASE) && acks < 100) {
    double avg_before = AvgDelayUs();
    ev = Ack(0, kBase + 700, true);
    acks++;
    double avg = AvgDelayUs();
    if (!(ev & RUE_NSCC_EV_DECREASE)) {
      EXPECT_LE(avg, kTarget + 1.0 / 256) << acks;
      continue;
    }
    // one EWMA step of gain 1/16 towards 700, within 1/256 us
    EXPECT_NEAR(avg, avg_before + (700 - avg_before) / 16, 2.0 / 256);
    double f = std::max(1 - 0.8 * (avg - kTarget) / avg, 0.5);
    EXPECT_GT(f, 0.5);
    EXPECT_NEAR(Cwnd(), kCwnd * f, kCwnd * f * kTol);
  }
  EXPECT_TRUE(ev & RUE_NSCC_EV_DECREASE);
  EXPECT_EQ(ev & RUE_NSCC_EV_INCREASE, 0u);
}

// The ACKs that decide carry a delay between the target and 4 * target
// (quick adapt's threshold): the decrease is the average delay's.
constexpr uint32_t kHigh = kBase + 2 * kTarget;

// The first ECN-marked ACK with a delay of 40 ms takes the average to
// 2.5 ms: 1 - 0.8 * 2000 / 2500 = 0.36, floored to 0.5.
TEST_F(Nscc, DecreaseIsAtMostHalf) {
  Start(64 * kMss);
  EXPECT_EQ(Ack(0, kBase + 40000, true), unsigned(RUE_NSCC_EV_DECREASE));
  EXPECT_NEAR(AvgDelayUs(), 2500, 1);
  EXPECT_EQ(Cwnd(), 32 * kMss);  // exactly: 512/1024
}

// Not twice within a base RTT, whatever the ACKs say.
TEST_F(Nscc, DecreaseAtMostOncePerBaseRtt) {
  // All within the first quick adapt period (2 * target): the 40 ms
  // delays do not make quick adapt look.
  constexpr uint32_t kRtt = kBase + 40000;
  Start(256 * kMss);
  ASSERT_EQ(Ack(0, kRtt, true), unsigned(RUE_NSCC_EV_DECREASE));
  uint32_t cut = Cwnd();
  ASSERT_EQ(cut, 128 * kMss);
  const uint64_t cut_at = now_;
  for (uint64_t t = 1; t < kBase * kUs; t += 7 * kUs) {
    now_ = cut_at + t;
    EXPECT_EQ(Ack(0, kRtt, true), 0u) << t;
  }
  now_ = cut_at + kBase * kUs - 1;
  EXPECT_EQ(Ack(0, kRtt, true), 0u);
  EXPECT_EQ(Cwnd(), cut);
  ASSERT_GT(AvgDelayUs(), kTarget * 0.8 / 0.3);  // still floored: 0.5
  // A base RTT on: the decrease, and eta, due as well.
  now_ = cut_at + kBase * kUs;
  EXPECT_EQ(Ack(0, kRtt, true),
            unsigned(RUE_NSCC_EV_DECREASE | RUE_NSCC_EV_INCREASE));
  EXPECT_NEAR(Cwnd(), 64 * kMss + kEta, 1);
}

// The increase owed is applied once 8 MSS were acked, or once a base RTT
// passed, the latter with eta.
TEST_F(Nscc, IncreaseAppliedEvery8MssOrBaseRttWithEta) {
  constexpr uint32_t kCwnd = 32 * kMss;
  Start(kCwnd);
  // 7 MSS within a base RTT: owed, not applied.
  for (int i = 0; i < 7; i++) {
    EXPECT_EQ(Ack(kMss, kBase, false), 0u) << i;
    now_ += kUs;
  }
  EXPECT_EQ(Cwnd(), kCwnd);
  // The 8th applies all eight.
  EXPECT_EQ(Ack(kMss, kBase, false), unsigned(RUE_NSCC_EV_INCREASE));
  double want = kCwnd + kProp * 8 * kMss / kCwnd;
  EXPECT_NEAR(Cwnd(), want, want * kTol);

  // One MSS, then a base RTT later an empty ACK: its increase, and eta.
  uint32_t before = Cwnd();
  EXPECT_EQ(Ack(kMss, kBase, false), 0u);
  now_ += kBase * kUs;
  EXPECT_EQ(Ack(0, kBase, false), unsigned(RUE_NSCC_EV_INCREASE));
  want = before + kProp * kMss / before + kEta;
  EXPECT_NEAR(Cwnd(), want, want * kTol);
}

// Eta comes once per base RTT in every quadrant: ECN at low delay too.
TEST_F(Nscc, EtaProbesWhileHolding) {
  Start(64 * kMss);
  uint32_t before = Cwnd();
  now_ += kBase * kUs;
  EXPECT_EQ(Ack(kMss, kBase, true), unsigned(RUE_NSCC_EV_INCREASE));
  EXPECT_NEAR(Cwnd(), before + kEta, 1.0);
  EXPECT_EQ(Ack(kMss, kBase, true), 0u);  // not again before a base RTT
}

TEST_F(Nscc, FloorAndCeilingHold) {
  Start(4 * kMss);
  // Losses and decreases, far apart in time: never below one packet.
  for (int i = 0; i < 50; i++) {
    now_ += kSec;
    Loss();
    EXPECT_GE(Cwnd(), kMss);
    Ack(0, kBase + 40000, true);
    EXPECT_GE(Cwnd(), kMss);
  }
  EXPECT_EQ(Cwnd(), kMss);

  // Huge clean ACKs: never above the ceiling, and no INCREASE once there.
  for (int i = 0; i < 50; i++) {
    now_ += kMs;
    Ack(kMaxCwnd, kBase, false);
    EXPECT_LE(Cwnd(), kMaxCwnd);
  }
  EXPECT_EQ(Cwnd(), kMaxCwnd);
  now_ += kMs;
  EXPECT_EQ(Ack(kMaxCwnd, kBase, false), 0u);
  EXPECT_EQ(Cwnd(), kMaxCwnd);
}

// A period of base RTT + target ends; the first ACK after it sees a delay
// beyond 4 * target while less than max_cwnd / 8 got through: the window
// becomes what got through.
TEST_F(Nscc, QuickAdaptOnLargeDelay) {
  Start(kMaxCwnd);
  const uint64_t t0 = now_;
  // The first period is 2 * target long (no base RTT when it started);
  // every period ends on an ACK: make one end, with a small delay.
  now_ = t0 + 2 * kTarget * kUs;
  EXPECT_EQ(Ack(kMss, kBase, false), 0u);
  EXPECT_EQ(Cwnd(), kMaxCwnd);
  // Now a period of base + target = 600 us starts.  3 MSS within it.
  for (int i = 0; i < 3; i++) {
    now_ += 100 * kUs;
    EXPECT_EQ(Ack(kMss, kBase + 100, false) & RUE_NSCC_EV_QUICK_ADAPT, 0u);
  }
  // Over 4 * target, but the period is not over: no quick adapt.
  now_ += 100 * kUs;
  EXPECT_EQ(Ack(kMss, kBase + 4 * kTarget + 1, false) &
                RUE_NSCC_EV_QUICK_ADAPT,
            0u);
  // Period over (600 us); delay over 4 * target; 5 MSS got through.
  now_ += 200 * kUs;
  EXPECT_EQ(Ack(kMss, kBase + 4 * kTarget + 1, false),
            unsigned(RUE_NSCC_EV_QUICK_ADAPT));
  EXPECT_EQ(Cwnd(), 5 * kMss);

  // The ECN echoes of the old window's packets are not acted on: those
  // of a window's worth (1 MiB) of bytes, counted from the quick adapt.
  RaiseAvgDelay(10 * kTarget);  // as marks of a long queue would
  for (uint32_t acked = 0; acked + 16384 < kMaxCwnd; acked += 16384) {
    now_ += 1;
    EXPECT_EQ(Ack(16384, kHigh, true), 0u) << acked;
  }
  EXPECT_EQ(Cwnd(), 5 * kMss);
  // ... and the one that completes the window is acted on.
  now_ += 1;
  EXPECT_TRUE(Ack(16384, kHigh, true) & RUE_NSCC_EV_DECREASE);
  EXPECT_LT(Cwnd(), 5 * kMss);
}

TEST_F(Nscc, NoQuickAdaptWhenEnoughGotThrough) {
  Start(kMaxCwnd);
  now_ += 2 * kTarget * kUs;
  Ack(0, kBase, false);  // the first period ends here
  // 32 MSS = max_cwnd / 8 in the next 600 us: not a stall.
  for (int i = 0; i < 32; i++) {
    now_ += 10 * kUs;
    Ack(kMss, kBase, false);
  }
  now_ += 600 * kUs;
  EXPECT_EQ(Ack(0, kBase + 4 * kTarget + 1, false) & RUE_NSCC_EV_QUICK_ADAPT,
            0u);
  EXPECT_EQ(Cwnd(), kMaxCwnd);
}

// A loss within a period halves the window (once per base RTT), and asks
// quick adapt to look when the period ends.
TEST_F(Nscc, LossHalvesThenQuickAdapts) {
  Start(kMaxCwnd);
  now_ += 2 * kTarget * kUs;
  Ack(0, kBase, false);  // a 600 us period starts
  now_ += 10 * kUs;
  EXPECT_EQ(Loss(), unsigned(RUE_NSCC_EV_DECREASE));
  EXPECT_EQ(Cwnd(), kMaxCwnd / 2);
  now_ += kBase * kUs - 1;
  EXPECT_EQ(Loss(), 0u);  // within a base RTT of the last
  EXPECT_EQ(Cwnd(), kMaxCwnd / 2);
  now_ += 1;
  EXPECT_EQ(Loss(), unsigned(RUE_NSCC_EV_DECREASE));
  EXPECT_EQ(Cwnd(), kMaxCwnd / 4);

  // Two MSS got through; at the period's end, a low-delay ACK: the loss
  // makes it a quick adapt all the same.
  now_ += 100 * kUs;
  Ack(kMss, kBase, false);
  now_ += 400 * kUs;
  EXPECT_EQ(Ack(kMss, kBase, false), unsigned(RUE_NSCC_EV_QUICK_ADAPT));
  EXPECT_EQ(Cwnd(), 2 * kMss);

  // The loss asked for one look only: the next period ends without one.
  now_ += 600 * kUs;
  EXPECT_EQ(Ack(kMss, kBase, false) & RUE_NSCC_EV_QUICK_ADAPT, 0u);
}

// An RTO after silence: a period has long ended and nothing got through:
// down to one packet at once.
TEST_F(Nscc, RtoAfterSilenceQuickAdaptsToOnePacket) {
  Start(kMaxCwnd);
  now_ += 2 * kTarget * kUs;
  Ack(0, kBase, false);
  now_ += 8 * kMs;
  EXPECT_EQ(Loss(), unsigned(RUE_NSCC_EV_QUICK_ADAPT));
  EXPECT_EQ(Cwnd(), kMss);
}

// A spurious RTO: the window its quick adapt took comes back, and the
// look at the period's end the loss asked for is cancelled.
TEST_F(Nscc, UndoRestoresWhatASpuriousRtoCut) {
  Start(64 * kMss);
  now_ += 2 * kTarget * kUs;
  Ack(0, kBase, false);
  now_ += 8 * kMs;
  uint32_t before = Cwnd();
  EXPECT_EQ(Loss(), unsigned(RUE_NSCC_EV_QUICK_ADAPT));
  EXPECT_EQ(Cwnd(), kMss);
  EXPECT_EQ(rue_nscc_undo(&cc_, &cfg_, before),
            unsigned(RUE_NSCC_EV_INCREASE));
  EXPECT_EQ(Cwnd(), before);

  // A halving loss (no period ended), undone: no quick adapt at the end
  // of the period, though little got through in it.
  now_ += 100 * kUs;
  Ack(kMss, kBase, false);
  before = Cwnd();
  EXPECT_EQ(Loss(), unsigned(RUE_NSCC_EV_DECREASE));
  EXPECT_EQ(Cwnd(), before / 2);
  rue_nscc_undo(&cc_, &cfg_, before);
  EXPECT_EQ(Cwnd(), before);
  now_ += 600 * kUs;
  EXPECT_EQ(Ack(kMss, kBase, false) & RUE_NSCC_EV_QUICK_ADAPT, 0u);
  EXPECT_GE(Cwnd(), before);
}

// Undo never lowers the window, stays within the bounds, and does
// nothing with congestion control off.
TEST_F(Nscc, UndoNeverLowersAndKeepsTheBounds) {
  Start(32 * kMss);
  EXPECT_EQ(rue_nscc_undo(&cc_, &cfg_, 8 * kMss), 0u);
  EXPECT_EQ(Cwnd(), 32 * kMss);
  EXPECT_EQ(rue_nscc_undo(&cc_, &cfg_, ~0u), unsigned(RUE_NSCC_EV_INCREASE));
  EXPECT_EQ(Cwnd(), kMaxCwnd);

  cfg_.enabled = false;
  rue_nscc_init(&cc_, &cfg_);
  EXPECT_EQ(rue_nscc_undo(&cc_, &cfg_, kMss), 0u);
  EXPECT_EQ(Cwnd(), kMaxCwnd);
}

// From one packet, clean ACKs (delay well under the target) grow the
// window to the ceiling, by about 4 MSS * a + eta per RTT.
TEST_F(Nscc, CleanAcksGrowToMaximum) {
  Start(kMss);
  uint32_t prev = Cwnd();
  int rtts = 0;
  while (Cwnd() < kMaxCwnd && rtts < 100) {
    // A window's worth, in ACKs of up to 16 KiB, over one RTT.
    uint32_t w = Cwnd();
    uint32_t n = (w + 16383) / 16384;
    for (uint32_t i = 0; i < n; i++) {
      now_ += kBase * kUs / n;
      unsigned ev = Ack(std::min<uint32_t>(16384, w - i * 16384),
                        kBase + (i % 7) * 10, false);
      EXPECT_EQ(ev & (RUE_NSCC_EV_DECREASE | RUE_NSCC_EV_QUICK_ADAPT), 0u);
      EXPECT_GE(Cwnd(), prev);
      prev = Cwnd();
    }
    rtts++;
  }
  EXPECT_EQ(Cwnd(), kMaxCwnd);
  // (1 MiB - 4 KiB) / (kProp * (1 - 30/500 on average) + kEta) = 14 RTTs
  // at the least; the per-ACK rounding and the last partial RTT add some.
  EXPECT_GE(rtts, 13);
  EXPECT_LE(rtts, 20);
  for (int i = 0; i < 100; i++) {
    now_ += 10 * kUs;
    Ack(16384, kBase, false);
    EXPECT_EQ(Cwnd(), kMaxCwnd);
  }
}

// Three ACKs in four marked, all with delay 2 * target: the average
// delay is 0.75 * 1000 + 0.25 * base / 4 = 756 us (unmarked ACKs over the
// target count as base / 4), so once per base RTT the window is cut by
// 0.8 * 256 / 756 = 27%, and in between the unmarked quarter adds the
// fair increase, 0.25 * 5 MSS * a = 23.9 KB per window, plus eta, 2.9 KB.
// Steady state: W * 0.27 = 26.8 KB, W ~ 99 KB at the peak.  (Measured:
// 100-118 KB, as the window's ACKs here come in 4 KiB, and of 29 of them
// 8 are unmarked, not a quarter; the cut and the increase owed land on
// the same ACK, so the trough is not seen.)  Bounds: W within 40%.
TEST_F(Nscc, SteadyEcnRateOscillatesWithinBounds) {
  Start(kMaxCwnd);
  const double kCut = 0.8 * (756.25 - kTarget) / 756.25;
  const double kW = (0.25 * kFair + kEta) / kCut;
  uint32_t lo = kMaxCwnd, hi = 0;
  int cuts = 0, increases = 0;
  for (int rtt = 0; rtt < 400; rtt++) {
    uint32_t w = Cwnd();
    uint32_t n = std::max<uint32_t>(4, (w + 4095) / 4096);
    for (uint32_t i = 0; i < n; i++) {
      now_ += kBase * kUs / n;
      unsigned ev = Ack(std::max<uint32_t>(w / n, 1), kBase + 2 * kTarget,
                        i % 4 != 0);
      EXPECT_EQ(ev & RUE_NSCC_EV_QUICK_ADAPT, 0u);
      if (rtt >= 200) {
        cuts += !!(ev & RUE_NSCC_EV_DECREASE);
        increases += !!(ev & RUE_NSCC_EV_INCREASE);
        lo = std::min(lo, Cwnd());
        hi = std::max(hi, Cwnd());
      }
    }
  }
  // The second half: cut about once per RTT, and growing in between.
  EXPECT_GE(cuts, 150);
  EXPECT_GE(increases, 150);
  EXPECT_GT(lo, 0.6 * kW);
  EXPECT_LT(hi, 1.4 * kW);
  EXPECT_LT(hi - lo, 0.5 * kW);
}

// A closed loop: a 1 Gb/s bottleneck (125 bytes/us), 200 us of base
// RTT (a BDP of 25 KB), marking above 30 KB of queue (240 us of delay,
// under the target).  Marks alone only hold the window; its growth builds
// the queue until the delay reaches the target, and the cuts keep it
// around there: the window stays between the BDP and BDP + the queue of
// 4 * target (quick adapt's threshold, 250 KB), never at either bound.
TEST_F(Nscc, BottleneckConvergesAroundTheTarget) {
  constexpr double kRate = 125;  // bytes per us
  constexpr uint32_t kRtt = 200;
  constexpr double kBdp = kRate * kRtt;
  constexpr double kMark = 30000;
  cfg_.init_cwnd = kMaxCwnd;
  rue_nscc_init(&cc_, &cfg_);
  // The first packet found the queue empty.
  Ack(0, kRtt, false);
  double lo = kMaxCwnd, hi = 0, qsum = 0;
  int samples = 0, cuts = 0;
  for (int i = 0; i < 200000; i++) {
    double w = Cwnd();
    double queue = std::max(0.0, w - kBdp);
    uint32_t rtt = kRtt + uint32_t(queue / kRate);
    uint32_t bytes = std::min<uint32_t>(16384, Cwnd());
    // the link is busy while there is a queue; else an ACK per RTT's share
    now_ += uint64_t(queue > 0 ? bytes / kRate * kUs
                               : double(bytes) / w * kRtt * kUs);
    unsigned ev = Ack(bytes, rtt, queue > kMark);
    if (i >= 100000) {
      lo = std::min(lo, double(Cwnd()));
      hi = std::max(hi, double(Cwnd()));
      qsum += queue;
      samples++;
      cuts += !!(ev & (RUE_NSCC_EV_DECREASE | RUE_NSCC_EV_QUICK_ADAPT));
    }
  }
  double qdelay = qsum / samples / kRate;  // us
  EXPECT_GT(cuts, 100);
  EXPECT_GT(lo, kBdp);
  EXPECT_LT(hi, kBdp + kRate * 4 * kTarget);
  EXPECT_GT(qdelay, kMark / kRate);
  EXPECT_LT(qdelay, 2 * kTarget);
}

// The base RTT is the least sample.  It moves up only after a second
// of at least 8 samples none of which came within twice the target of it,
// and then to the least of them.
TEST_F(Nscc, BaseRttTakesTheMinimumAndAgesUpwards) {
  Start(64 * kMss);
  Ack(0, 300, false);
  EXPECT_EQ(cc_.base_rtt_us, kBase);
  Ack(0, 80, false);
  EXPECT_EQ(cc_.base_rtt_us, 80u);  // down at once

  // Seconds of RTTs within two targets of the base (a queue of about
  // the target is what NSCC keeps): nothing learned.
  const uint64_t t0 = now_;
  for (int i = 0; i < 100; i++) {
    now_ = t0 + i * 20 * kMs;  // two seconds, two periods
    Ack(0, 80 + 2 * kTarget, false);
    EXPECT_EQ(cc_.base_rtt_us, 80u) << i;
  }

  // The path got 1001 us longer: after the first whole second of it,
  // the base is its least sample.
  for (int i = 0; i < 100; i++) {
    now_ += 20 * kMs;
    Ack(0, 1081 + i % 5, false);
  }
  EXPECT_EQ(cc_.base_rtt_us, 1081u);
  // A shorter sample brings it down at once.
  Ack(0, 1000, false);
  EXPECT_EQ(cc_.base_rtt_us, 1000u);

  // Seconds of fewer than 8 samples teach nothing, however long.
  for (int i = 0; i < 20; i++) {
    now_ += 150 * kMs;  // ~7 per second
    Ack(0, 5000, false);
  }
  EXPECT_EQ(cc_.base_rtt_us, 1000u);
  // Nor do seconds without samples.
  now_ += 10 * kSec;
  Ack(0, 0, false);
  EXPECT_EQ(cc_.base_rtt_us, 1000u);
}

// The delay is measured from the base RTT: a sample at the base is "no
// delay" (proportional), one a target above it is "delay" (fair).
TEST_F(Nscc, DelayIsRttMinusBaseRtt) {
  constexpr uint32_t kCwnd = 16 * kMss;
  Start(kCwnd);
  for (int i = 0; i <= 20; i++) {  // the path's RTT is now 2000 us
    now_ += 100 * kMs;
    Ack(0, 2000, false);
  }
  ASSERT_EQ(cc_.base_rtt_us, 2000u);
  cc_.cwnd = kCwnd;
  EXPECT_EQ(Ack(8 * kMss, 2000, false), unsigned(RUE_NSCC_EV_INCREASE));
  double want = kCwnd + kProp * 8 * kMss / kCwnd;
  EXPECT_NEAR(Cwnd(), want, want * kTol);
  cc_.cwnd = kCwnd;
  EXPECT_EQ(Ack(8 * kMss, 2000 + kTarget, false),
            unsigned(RUE_NSCC_EV_INCREASE));
  want = kCwnd + kFair * 8 * kMss / kCwnd;
  EXPECT_NEAR(Cwnd(), want, want * kTol);
}

// Without an RTT sample the average delay stands in for the ACK's.
TEST_F(Nscc, NoRttSampleUsesTheAverageDelay) {
  Start(64 * kMss);
  RaiseAvgDelay(10 * kTarget);
  // A base RTT after the decrease RaiseAvgDelay made, before the first
  // quick adapt period ends (the average is over 4 * target).
  now_ += kBase * kUs;
  // ECN and (average) delay over the target: a decrease (and eta).
  EXPECT_TRUE(Ack(0, 0, true) & RUE_NSCC_EV_DECREASE);
  EXPECT_NEAR(Cwnd(), 32 * kMss + kEta, 1);
  // The sample-less ACK did not move the average.
  double avg = AvgDelayUs();
  Ack(0, 0, true);
  EXPECT_EQ(AvgDelayUs(), avg);
}

// Extreme inputs: everything stays within the bounds and the arithmetic
// within 64 bits.
TEST_F(Nscc, ExtremeInputs) {
  constexpr uint32_t kMax32 = std::numeric_limits<uint32_t>::max();
  Start(kMss);
  // Enormous acks: as much as a window, no more.
  EXPECT_EQ(Ack(kMax32, kBase, false), unsigned(RUE_NSCC_EV_INCREASE));
  EXPECT_EQ(Cwnd(), kMaxCwnd);
  // Enormous RTTs count as 10 s; an average of 10 s still fits.
  for (int i = 0; i < 1000; i++)
    Ack(kMax32, kMax32, true);
  EXPECT_LE(AvgDelayUs(), 10e6);
  EXPECT_GT(AvgDelayUs(), 9.9e6);
  EXPECT_EQ(cc_.base_rtt_us, kBase);
  EXPECT_GE(Cwnd(), kMss);
  // Jumps of the clock by centuries, forwards.
  for (int i = 0; i < 10; i++) {
    now_ += uint64_t(1) << 60;
    Ack(kMax32, kMax32, i & 1);
    Loss();
    EXPECT_GE(Cwnd(), kMss);
    EXPECT_LE(Cwnd(), kMaxCwnd);
  }
  // Empty ACKs without samples, many: nothing owed, nothing breaks.
  for (int i = 0; i < 1000; i++) {
    now_ += kMs;
    Ack(0, 0, false);
    EXPECT_GE(Cwnd(), kMss);
    EXPECT_LE(Cwnd(), kMaxCwnd);
  }
  // The largest settings the defaults allow: 64 KiB MSS, 16 MiB ceiling.
  rue_nscc_cfg_default(&cfg_, 65536);
  cfg_.max_cwnd = 64u << 20;
  cfg_.init_cwnd = cfg_.min_cwnd;
  rue_nscc_init(&cc_, &cfg_);
  for (int i = 0; i < 1000; i++) {
    now_ += kUs;
    Ack(kMax32, 1, false);
    EXPECT_LE(Cwnd(), cfg_.max_cwnd);
  }
  EXPECT_EQ(Cwnd(), cfg_.max_cwnd);
}

// A zero-byte ACK (SACK-only, duplicate) adds nothing but eta.
TEST_F(Nscc, ZeroByteAcksAddOnlyEta) {
  constexpr uint32_t kCwnd = 16 * kMss;
  Start(kCwnd);
  for (int i = 0; i < 50; i++) {
    now_ += kUs;
    EXPECT_EQ(Ack(0, kBase, false), 0u);
  }
  EXPECT_EQ(Cwnd(), kCwnd);
  now_ += kBase * kUs;
  EXPECT_EQ(Ack(0, kBase, false), unsigned(RUE_NSCC_EV_INCREASE));
  EXPECT_NEAR(Cwnd(), kCwnd + kEta, 1.0);
}

}  // namespace
