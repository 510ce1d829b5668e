// SPDX-License-Identifier: GPL-2.0
//
// kernel/cc/window.c, built unchanged for the host, against the rules of
// RFC 5681 as Documentation/congestion.md ("The loss window") states them:
// start at the maximum, halve on loss, the minimum after a timeout, slow
// start (+1 per packet acknowledged) below ssthresh, +1 per window above.
// Expected values are worked out by hand in the comments.

#include <cstdint>

#include <gtest/gtest.h>

extern "C" {
#include "window.h"
}

namespace {

rue_cwnd Fresh() {
  rue_cwnd w{};
  rue_cwnd_init(&w);
  return w;
}

TEST(Window, StartsAtTheMaximumAndStaysThere) {
  rue_cwnd w = Fresh();
  EXPECT_EQ(w.cwnd, RUE_CWND_MAX);
  rue_cwnd_grow(&w, 100000);
  EXPECT_EQ(w.cwnd, RUE_CWND_MAX);
}

TEST(Window, LossHalves) {
  rue_cwnd w = Fresh();
  rue_cwnd_cut(&w, false);
  EXPECT_EQ(w.cwnd, 128);  // 256 / 2
  EXPECT_EQ(w.ssthresh, 128);
  rue_cwnd_cut(&w, false);
  EXPECT_EQ(w.cwnd, 64);
}

TEST(Window, NeverBelowTheMinimum) {
  rue_cwnd w = Fresh();
  for (int i = 0; i < 20; i++) rue_cwnd_cut(&w, false);
  EXPECT_EQ(w.cwnd, RUE_CWND_MIN);
  EXPECT_EQ(w.ssthresh, RUE_CWND_MIN);
}

TEST(Window, TimeoutGoesToTheMinimumAndRemembersHalf) {
  rue_cwnd w = Fresh();
  rue_cwnd_cut(&w, true);
  EXPECT_EQ(w.cwnd, RUE_CWND_MIN);
  EXPECT_EQ(w.ssthresh, 128);
}

TEST(Window, SlowStartUpToSsthresh) {
  rue_cwnd w = Fresh();
  rue_cwnd_cut(&w, true);  // cwnd 4, ssthresh 128
  rue_cwnd_grow(&w, 4);    // one window acknowledged: 4 + 4
  EXPECT_EQ(w.cwnd, 8);
  rue_cwnd_grow(&w, 8);
  EXPECT_EQ(w.cwnd, 16);
  rue_cwnd_grow(&w, 1000);  // capped at ssthresh, the rest not carried
  EXPECT_EQ(w.cwnd, 128);
  EXPECT_EQ(w.acc, 0);
}

TEST(Window, OnePacketPerWindowAboveSsthresh) {
  rue_cwnd w = Fresh();
  rue_cwnd_cut(&w, false);  // 128, ssthresh 128
  rue_cwnd_grow(&w, 127);   // not a window yet
  EXPECT_EQ(w.cwnd, 128);
  EXPECT_EQ(w.acc, 127);
  rue_cwnd_grow(&w, 1);  // 128 acknowledged: +1
  EXPECT_EQ(w.cwnd, 129);
  EXPECT_EQ(w.acc, 0);
  // 129 + 130 + 131 = 390 packets: three more, 5 left over
  rue_cwnd_grow(&w, 395);
  EXPECT_EQ(w.cwnd, 132);
  EXPECT_EQ(w.acc, 5);
}

TEST(Window, GrowsBackToTheMaximumAndNoFurther) {
  rue_cwnd w = Fresh();
  rue_cwnd_cut(&w, false);
  // from 128 to 256: sum of 128..255 = 24512 packets
  rue_cwnd_grow(&w, 24511);
  EXPECT_EQ(w.cwnd, 255);
  rue_cwnd_grow(&w, 1);
  EXPECT_EQ(w.cwnd, RUE_CWND_MAX);
  EXPECT_EQ(w.acc, 0);
  rue_cwnd_grow(&w, 1000);
  EXPECT_EQ(w.cwnd, RUE_CWND_MAX);
}

TEST(Window, ACutForgetsProgressTowardTheNextPacket) {
  rue_cwnd w = Fresh();
  rue_cwnd_cut(&w, false);
  rue_cwnd_grow(&w, 100);
  rue_cwnd_cut(&w, false);
  EXPECT_EQ(w.cwnd, 64);
  EXPECT_EQ(w.acc, 0);
}

}  // namespace
