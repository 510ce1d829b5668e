// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// roce_inject's command line: what to build, how to break it, how often to
// send it.  Parsing only; roce_inject_packet.h turns Options into bytes.
#ifndef RUE_WIRE_TOOLS_ROCE_INJECT_OPTIONS_H_
#define RUE_WIRE_TOOLS_ROCE_INJECT_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rue/wire/ip.h"
#include "rue/wire/roce.h"
#include "tools/inject_common.h"  // ParseNumber, ParseHex

namespace rue::inject {

inline constexpr uint16_t kDefaultSourcePort = 49152;

struct Options {
  // IPv4 and UDP.
  wire::Ipv4Address src{};  // --src (required)
  wire::Ipv4Address dst{};  // --dst (required)
  uint16_t sport = kDefaultSourcePort;
  uint16_t dport = wire::kRoceV2UdpPort;
  uint8_t tos = 0;

  // Transport; --opcode and --raw-hex exclude each other, one is required.
  std::optional<uint8_t> opcode;
  uint32_t dest_qp = 0;  // 24 bits
  uint32_t psn = 0;      // 24 bits
  bool becn = false;
  uint16_t pkey = wire::Bth::kDefaultPkey;
  std::size_t payload = 0;  // bytes of the pattern 00 01 02 ...
  std::optional<uint64_t> va;    // RETH / AtomicETH
  std::optional<uint32_t> rkey;  // RETH / AtomicETH / IETH
  std::optional<uint32_t> len;   // RETH DMA length; default: payload

  // Malformations.
  std::size_t truncate = 0;  // bytes dropped from the UDP payload's end
  bool bad_icrc = false;
  std::optional<std::vector<std::byte>> raw_hex;  // the UDP payload
  bool icrc = false;  // with raw_hex: append a computed ICRC

  // Sending.
  uint32_t count = 1;
  uint32_t interval_us = 0;
  bool dry_run = false;  // print the packet in hex, do not send
  bool help = false;
};

// Parses argv with CLI11, taking what getopt_long(3) took before (long
// options and their unique prefixes, "--"; a repeated option's last value).
// On a bad command line returns nullopt and sets *error to one line saying
// what is wrong.  With -h, returns options with help set.
std::optional<Options> ParseOptions(int argc, char* argv[], std::string* error);

// An opcode: a number up to 0xff or a name from the wire library's opcode
// table ("RC_SEND_ONLY", "cnp"; case does not matter).
std::optional<uint8_t> ParseOpcode(std::string_view text);

// The --help text, CLI11's.
std::string Usage();

}  // namespace rue::inject

#endif  // RUE_WIRE_TOOLS_ROCE_INJECT_OPTIONS_H_
