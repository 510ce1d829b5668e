// SPDX-License-Identifier: GPL-2.0
#include "rueperf/stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rue::perf {
namespace {

TEST(Stats, Throughput) {
  // 1000 messages of 64 KiB in 0.5 s.
  Throughput t = ComputeThroughput(1000, 65536, 500'000'000);
  EXPECT_EQ(t.messages, 1000u);
  EXPECT_EQ(t.bytes, 65'536'000u);
  EXPECT_DOUBLE_EQ(t.seconds, 0.5);
  EXPECT_DOUBLE_EQ(t.gbit_per_s, 65'536'000.0 * 8 / 0.5 / 1e9);
  EXPECT_DOUBLE_EQ(t.mbyte_per_s, 131.072);
  EXPECT_DOUBLE_EQ(t.mmsg_per_s, 0.002);
}

TEST(Stats, ThroughputUntimed) {
  Throughput t = ComputeThroughput(5, 10, 0);
  EXPECT_EQ(t.bytes, 50u);
  EXPECT_EQ(t.gbit_per_s, 0);
  EXPECT_EQ(t.mmsg_per_s, 0);
}

TEST(Stats, LatencyOneWay) {
  // Round trips of 2..20 us, unsorted: one way 1..10 us.
  std::vector<uint64_t> s = {20000, 2000, 4000, 6000, 8000,
                             10000, 12000, 14000, 16000, 18000};
  std::optional<Latency> l = SummarizeLatency(s, 2);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->samples, 10u);
  EXPECT_DOUBLE_EQ(l->min_us, 1);
  EXPECT_DOUBLE_EQ(l->max_us, 10);
  EXPECT_DOUBLE_EQ(l->avg_us, 5.5);
  EXPECT_DOUBLE_EQ(l->p50_us, 5);   // 5th of 10
  EXPECT_DOUBLE_EQ(l->p99_us, 10);  // ceil(9.9) = 10th
  EXPECT_NEAR(l->stddev_us, 2.8723, 1e-4);
}

TEST(Stats, LatencyPercentileRank) {
  std::vector<uint64_t> s;
  for (uint64_t i = 1; i <= 1000; ++i) s.push_back(i * 1000);
  std::optional<Latency> l = SummarizeLatency(s, 1);
  ASSERT_TRUE(l);
  EXPECT_DOUBLE_EQ(l->p50_us, 500);
  EXPECT_DOUBLE_EQ(l->p99_us, 990);
  EXPECT_DOUBLE_EQ(l->stddev_us, std::sqrt((1000.0 * 1000 - 1) / 12));
}

TEST(Stats, LatencyNothing) {
  std::vector<uint64_t> none;
  EXPECT_FALSE(SummarizeLatency(none, 1));
  std::vector<uint64_t> one = {5};
  EXPECT_FALSE(SummarizeLatency(one, 0));
  std::optional<Latency> l = SummarizeLatency(one, 1);
  ASSERT_TRUE(l);
  EXPECT_DOUBLE_EQ(l->p99_us, 0.005);
  EXPECT_DOUBLE_EQ(l->stddev_us, 0);
}

}  // namespace
}  // namespace rue::perf
