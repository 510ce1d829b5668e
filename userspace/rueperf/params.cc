// SPDX-License-Identifier: GPL-2.0
#include "rueperf/params.h"

#include <array>
#include <utility>

namespace rue::perf {
namespace {

constexpr std::array<std::pair<Transport, std::string_view>, 3> kTransports{{
    {Transport::kRc, "rc"},
    {Transport::kRud, "rud"},
    {Transport::kRod, "rod"},
}};
constexpr std::array<std::pair<Op, std::string_view>, 3> kOps{{
    {Op::kSend, "send"},
    {Op::kWrite, "write"},
    {Op::kRead, "read"},
}};
constexpr std::array<std::pair<Test, std::string_view>, 3> kTests{{
    {Test::kBw, "bw"},
    {Test::kLat, "lat"},
    {Test::kRate, "rate"},
}};

template <typename E, size_t N>
std::string_view NameIn(const std::array<std::pair<E, std::string_view>, N>& t,
                        E value) {
  for (const auto& [v, name] : t)
    if (v == value) return name;
  return "UNKNOWN";
}

template <typename E, size_t N>
std::optional<E> ParseIn(const std::array<std::pair<E, std::string_view>, N>& t,
                         std::string_view name) {
  for (const auto& [v, n] : t)
    if (n == name) return v;
  return std::nullopt;
}

}  // namespace

bool IsUet(Transport transport) { return transport != Transport::kRc; }

std::string_view Name(Transport transport) {
  return NameIn(kTransports, transport);
}
std::string_view Name(Op op) { return NameIn(kOps, op); }
std::string_view Name(Test test) { return NameIn(kTests, test); }

std::optional<Transport> ParseTransport(std::string_view name) {
  return ParseIn(kTransports, name);
}
std::optional<Op> ParseOp(std::string_view name) { return ParseIn(kOps, name); }
std::optional<Test> ParseTest(std::string_view name) {
  return ParseIn(kTests, name);
}

std::string_view ParamsError(const Params& p) {
  if (Name(p.transport) == "UNKNOWN") return "unknown transport";
  if (Name(p.op) == "UNKNOWN") return "unknown operation";
  if (Name(p.test) == "UNKNOWN") return "unknown test";
  if (p.size < 1 || p.size > kMaxSize) return "size out of range";
  if (p.depth < 1 || p.depth > kMaxDepth) return "depth out of range";
  if (p.peers < 1 || p.peers > kMaxPeers) return "peers out of range";
  if (uint64_t{p.size} * p.depth > kMaxBuffer)
    return "size times depth is over 1 GiB";
  if ((p.iters == 0) == (p.duration_ms == 0))
    return "exactly one of iterations and duration must be set";
  if (p.duration_ms > kMaxDurationMs) return "duration out of range";
  if (p.test == Test::kLat && p.depth != 1)
    return "a latency test keeps one message in flight: depth must be 1";
  // The write latency test ping-pongs on the last byte of the buffer,
  // which then holds a sequence number, not the verified pattern.
  if (p.test == Test::kLat && p.op == Op::kWrite && p.verify)
    return "the write latency test cannot verify data";
  if (IsUet(p.transport) && p.job > kMaxJob) return "job id out of range";
  if (!IsUet(p.transport) && p.job != 0) return "a job id is for UET only";
  return "";
}

}  // namespace rue::perf
