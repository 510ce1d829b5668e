// SPDX-License-Identifier: GPL-2.0
//
// What one rueperf run measures: the transport, the operation and the
// kind of test, with their names as the command line and the output spell
// them.  Shared by the option parser, the exchange messages and the report.
#ifndef RUE_RUEPERF_PARAMS_H_
#define RUE_RUEPERF_PARAMS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace rue::perf {

// The values are the exchange's wire encoding: do not renumber.
enum class Transport : uint8_t {
  kRc = 0,   // IBV_QPT_RC, one QP per peer on both sides
  kRud = 1,  // UET reliable unordered delivery (UE 1.0.1 section 3.5)
  kRod = 2,  // UET reliable ordered delivery
};

enum class Op : uint8_t { kSend = 0, kWrite = 1, kRead = 2 };

enum class Test : uint8_t {
  kBw = 0,    // one WR per post, bandwidth first
  kLat = 1,   // one message at a time, latency samples
  kRate = 2,  // WRs posted in lists, message rate first
};

inline constexpr uint32_t kMaxSize = 1u << 30;
inline constexpr uint32_t kMaxDepth = 1024;
// Largest size * depth: the server registers twice this per peer.
inline constexpr uint64_t kMaxBuffer = 1ull << 30;
inline constexpr uint16_t kMaxPeers = 64;
inline constexpr uint32_t kMaxJob = (1u << 24) - 1;  // SES job_id is 24 bits
inline constexpr uint32_t kMaxDurationMs = 3600 * 1000;

// The run's parameters: chosen by the client, sent to the server in the
// exchange's hello.
struct Params {
  Transport transport = Transport::kRc;
  Op op = Op::kWrite;
  Test test = Test::kBw;
  bool verify = false;
  uint16_t peers = 1;
  uint32_t size = 65536;
  uint32_t depth = 16;        // outstanding WRs per client QP
  uint64_t iters = 0;         // messages in all; 0 when duration_ms is set
  uint32_t duration_ms = 0;   // 0 when iters is set
  uint32_t job = 0;           // UET job id; 0 for RC

  bool operator==(const Params&) const = default;
};

bool IsUet(Transport transport);

std::string_view Name(Transport transport);
std::string_view Name(Op op);
std::string_view Name(Test test);

std::optional<Transport> ParseTransport(std::string_view name);
std::optional<Op> ParseOp(std::string_view name);
std::optional<Test> ParseTest(std::string_view name);

// Why @params cannot run, or "" when they can: the checks the client's
// option parser and the server's hello decoder share.
std::string_view ParamsError(const Params& params);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_PARAMS_H_
