// SPDX-License-Identifier: GPL-2.0
//
// Result arithmetic: throughput from a count, a size and a time, and a
// latency summary from samples.  Pure functions, so that the numbers a
// run prints can be checked on the host.
#ifndef RUE_RUEPERF_STATS_H_
#define RUE_RUEPERF_STATS_H_

#include <cstdint>
#include <optional>
#include <span>

namespace rue::perf {

struct Throughput {
  uint64_t messages = 0;
  uint64_t bytes = 0;
  double seconds = 0;
  double gbit_per_s = 0;     // 10^9 bits per second
  double mbyte_per_s = 0;    // 10^6 bytes per second
  double mmsg_per_s = 0;     // 10^6 messages per second
};

// All zero rates when @elapsed_ns is 0 (nothing was timed).
Throughput ComputeThroughput(uint64_t messages, uint32_t size,
                             uint64_t elapsed_ns);

struct Latency {
  uint64_t samples = 0;
  double min_us = 0;
  double avg_us = 0;
  double p50_us = 0;
  double p99_us = 0;
  double max_us = 0;
  double stddev_us = 0;
};

// Percentiles by nearest rank over the sorted samples.  A ping-pong
// measures round trips: @divisor 2 reports one way, as perftest's
// send_lat and write_lat do; READ latency is a whole round trip by
// nature (divisor 1).  Nothing for no samples or a zero divisor.
std::optional<Latency> SummarizeLatency(std::span<uint64_t> samples_ns,
                                        unsigned divisor);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_STATS_H_
