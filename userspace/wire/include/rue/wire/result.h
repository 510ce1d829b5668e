// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Error codes and a small Result<T> for the parsers (no exceptions cross
// this library's API).
#ifndef RUE_WIRE_RESULT_H_
#define RUE_WIRE_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace rue::wire {

enum class ErrorCode : uint8_t {
  kOk = 0,
  // Fewer bytes than the headers (or a length field) require.
  kTruncated,
  // Link layer: the EtherType is neither IPv4 nor IPv6.
  kNotIp,
  // IP: version nibble is not 4/6, or disagrees with the EtherType.
  kBadIpVersion,
  // IPv4: IHL below 5.
  kBadIpHeaderLength,
  // IP: total/payload length smaller than the headers, or zero (jumbogram).
  kBadIpLength,
  // IPv4: header checksum does not verify.
  kBadIpChecksum,
  // IPv4: a fragment (MF set or non-zero offset).
  kIpFragment,
  // IP: the next protocol is not UDP (IPv6 extension headers included).
  kNotUdp,
  // UDP: length field below 8 or not equal to the IP payload length.
  kBadUdpLength,
  // UDP: the destination port is not the one of the protocol asked for.
  kWrongUdpPort,
  // Transport: the opcode is not in the table.
  kUnknownOpcode,
  // Transport: header version (e.g. BTH TVer) this library cannot parse.
  kUnsupportedVersion,
  // Transport: pad count larger than the bytes after the headers.
  kBadPadCount,
  // Transport: headers + payload + pad not a multiple of 4 bytes.
  kMisaligned,
  // Transport: bytes after the headers of an opcode that has no payload.
  kUnexpectedPayload,
  // Builder: the headers given do not match the opcode, or a field is out
  // of range.
  kInvalidArgument,
  // Builder: the output buffer is too small.
  kBufferTooSmall,
  // Link layer: not the EtherType of the protocol asked for (PFC: 0x8808).
  kWrongEtherType,
  // MAC Control: not the opcode asked for (PFC: 0x0101).
  kWrongMacControlOpcode,
  // A reserved field that must be zero is not (PFC: the enable vector's
  // high byte).
  kReservedBitsSet,
};

constexpr std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kTruncated: return "truncated";
    case ErrorCode::kNotIp: return "not_ip";
    case ErrorCode::kBadIpVersion: return "bad_ip_version";
    case ErrorCode::kBadIpHeaderLength: return "bad_ip_header_length";
    case ErrorCode::kBadIpLength: return "bad_ip_length";
    case ErrorCode::kBadIpChecksum: return "bad_ip_checksum";
    case ErrorCode::kIpFragment: return "ip_fragment";
    case ErrorCode::kNotUdp: return "not_udp";
    case ErrorCode::kBadUdpLength: return "bad_udp_length";
    case ErrorCode::kWrongUdpPort: return "wrong_udp_port";
    case ErrorCode::kUnknownOpcode: return "unknown_opcode";
    case ErrorCode::kUnsupportedVersion: return "unsupported_version";
    case ErrorCode::kBadPadCount: return "bad_pad_count";
    case ErrorCode::kMisaligned: return "misaligned";
    case ErrorCode::kUnexpectedPayload: return "unexpected_payload";
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kBufferTooSmall: return "buffer_too_small";
    case ErrorCode::kWrongEtherType: return "wrong_ethertype";
    case ErrorCode::kWrongMacControlOpcode: return "wrong_mac_control_opcode";
    case ErrorCode::kReservedBitsSet: return "reserved_bits_set";
  }
  return "unknown_error";
}

struct Error {
  ErrorCode code = ErrorCode::kOk;
  std::string message;
};

// Either a T or an Error.  Implicitly constructible from both so that a
// parser can `return value;` or `return Error{...};`.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT(runtime/explicit)
  Result(Error error) : error_(std::move(error)) {  // NOLINT(runtime/explicit)
    if (error_.code == ErrorCode::kOk) error_.code = ErrorCode::kInvalidArgument;
  }

  bool ok() const { return value_.has_value(); }
  ErrorCode code() const { return ok() ? ErrorCode::kOk : error_.code; }
  // Empty when ok().
  const std::string& message() const { return error_.message; }

  // Precondition for these: ok().
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  const T& operator*() const& { return *value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Error error_;
};

}  // namespace rue::wire

#endif  // RUE_WIRE_RESULT_H_
