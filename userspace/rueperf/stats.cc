// SPDX-License-Identifier: GPL-2.0
#include "rueperf/stats.h"

#include <algorithm>
#include <cmath>

namespace rue::perf {
namespace {

// Nearest rank: the smallest sample with at least @pct percent of the
// samples at or below it.
uint64_t Percentile(std::span<const uint64_t> sorted, double pct) {
  double rank = std::ceil(pct / 100.0 * static_cast<double>(sorted.size()));
  size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

Throughput ComputeThroughput(uint64_t messages, uint32_t size,
                             uint64_t elapsed_ns) {
  Throughput t;
  t.messages = messages;
  t.bytes = messages * size;
  if (elapsed_ns == 0) return t;
  t.seconds = static_cast<double>(elapsed_ns) / 1e9;
  double bytes = static_cast<double>(t.bytes);
  t.gbit_per_s = bytes * 8 / static_cast<double>(elapsed_ns);
  t.mbyte_per_s = bytes * 1e3 / static_cast<double>(elapsed_ns);
  t.mmsg_per_s =
      static_cast<double>(messages) * 1e3 / static_cast<double>(elapsed_ns);
  return t;
}

std::optional<Latency> SummarizeLatency(std::span<uint64_t> samples_ns,
                                        unsigned divisor) {
  if (samples_ns.empty() || divisor == 0) return std::nullopt;
  std::sort(samples_ns.begin(), samples_ns.end());
  const double scale = 1e-3 / divisor;  // ns -> us, one way
  Latency l;
  l.samples = samples_ns.size();
  double sum = 0;
  for (uint64_t s : samples_ns) sum += static_cast<double>(s);
  double mean = sum / static_cast<double>(samples_ns.size());
  double var = 0;
  for (uint64_t s : samples_ns) {
    double d = static_cast<double>(s) - mean;
    var += d * d;
  }
  var /= static_cast<double>(samples_ns.size());
  l.min_us = static_cast<double>(samples_ns.front()) * scale;
  l.max_us = static_cast<double>(samples_ns.back()) * scale;
  l.avg_us = mean * scale;
  l.p50_us = static_cast<double>(Percentile(samples_ns, 50)) * scale;
  l.p99_us = static_cast<double>(Percentile(samples_ns, 99)) * scale;
  l.stddev_us = std::sqrt(var) * scale;
  return l;
}

}  // namespace rue::perf
