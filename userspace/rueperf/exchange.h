// SPDX-License-Identifier: GPL-2.0
//
// The out-of-band exchange between client and server, over one TCP
// connection, as perftest does it:
//
//   client -> server  Hello   the run's parameters, the client's QPs
//   server -> client  Accept  the server's QPs and buffers (or Reject)
//   ... the run ...
//   client -> server  Done    what the client completed
//   server -> client  Result  what the server received and verified
//
// Each message is a frame: a 12-byte header (magic "RUEP", version,
// type, two reserved bytes, body length; big-endian) and its body.
// Decoding checks everything a peer could get wrong and says what.
#ifndef RUE_RUEPERF_EXCHANGE_H_
#define RUE_RUEPERF_EXCHANGE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "rueperf/params.h"

namespace rue::perf {

inline constexpr uint32_t kMagic = 0x52554550;  // "RUEP"
inline constexpr uint8_t kVersion = 1;
inline constexpr size_t kHeaderSize = 12;
inline constexpr uint32_t kMaxBody = 16384;
inline constexpr size_t kMaxReason = 512;

enum class MsgType : uint8_t {
  kHello = 1,
  kAccept = 2,
  kReject = 3,
  kDone = 4,
  kResult = 5,
};

// One QP and the buffer behind it, as its peer must address them.
struct Endpoint {
  std::array<uint8_t, 16> gid{};
  uint32_t qpn = 0;    // RC: the QP number; UET: RUE_UET_ADDR(pid, ri)
  uint64_t addr = 0;   // the buffer's virtual address
  uint64_t key = 0;    // RC: the rkey; UET: the MR's 64-bit key
  uint32_t len = 0;    // the buffer's length

  bool operator==(const Endpoint&) const = default;
};

struct Hello {
  Params params;
  // RC: one per peer; UET: one, the client's only QP.
  std::vector<Endpoint> endpoints;
  bool operator==(const Hello&) const = default;
};

struct Accept {
  std::vector<Endpoint> endpoints;  // one per peer
  bool operator==(const Accept&) const = default;
};

struct Reject {
  std::string reason;
  bool operator==(const Reject&) const = default;
};

struct Done {
  uint64_t completed = 0;  // messages the client saw complete
  bool operator==(const Done&) const = default;
};

struct Result {
  uint64_t received = 0;       // SEND: messages received; else 0
  uint64_t verified = 0;       // messages or slots checked
  uint64_t verify_errors = 0;  // of those, how many were wrong
  bool operator==(const Result&) const = default;
};

using Message = std::variant<Hello, Accept, Reject, Done, Result>;

// Hello's endpoints per transport: one per peer for RC, one for UET.
size_t HelloEndpoints(const Params& params);

// A frame for @message; empty if it cannot be encoded (too many
// endpoints, a reason too long).
std::vector<std::byte> Encode(const Message& message);

struct HeaderResult {
  std::optional<uint32_t> body_length;
  std::string error;
};

// The body length a frame header announces, after checking the header.
HeaderResult DecodeHeader(std::span<const std::byte> header);

struct DecodeResult {
  std::optional<Message> message;
  std::string error;
};

// A whole frame (header and body).
DecodeResult Decode(std::span<const std::byte> frame);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_EXCHANGE_H_
