// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// pfc_inject's command line: which priorities to pause for how long, how
// to break the frame, where and how often to send it.  Parsing only;
// pfc_inject_frame.h turns Options into bytes.
#ifndef RUE_WIRE_TOOLS_PFC_INJECT_OPTIONS_H_
#define RUE_WIRE_TOOLS_PFC_INJECT_OPTIONS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rue/wire/ethernet.h"
#include "rue/wire/pfc.h"

namespace rue::pfc_inject {

// AF_PACKET refuses frames shorter than the link header (packet(7),
// dev_validate_header()), so --truncate and --raw-hex send at least this.
inline constexpr std::size_t kMinSendSize = wire::EthernetHeader::kSize;

struct Options {
  // -i: required, but --dry-run can do without it given --src-mac or
  // --raw-hex.
  std::string interface;
  std::optional<wire::MacAddress> src_mac;  // default: the interface's

  // --prio P=QUANTA and --xon P (QUANTA 0): one entry per priority given.
  std::array<std::optional<uint16_t>, wire::kPfcPriorities> quanta{};

  // Malformations.
  std::optional<uint16_t> opcode;
  std::optional<uint16_t> ethertype;
  std::optional<std::size_t> truncate;  // bytes to send: kMinSendSize..60
  bool reserved_bits = false;           // the enable vector's high byte
  std::optional<std::vector<std::byte>> raw_hex;  // the whole frame

  // --fuzz SEED: --count random frames (pfc_fuzz.h) instead of one built
  // frame, and what a receiver of MAC --receiver-mac with PFC on for the
  // priorities of mask --receiver-pfc counts for those that were sent.
  std::optional<uint64_t> fuzz_seed;
  std::optional<wire::MacAddress> receiver_mac;
  uint32_t receiver_pfc = 0;  // 0..0xff

  // Sending.
  uint32_t count = 1;
  uint32_t interval_us = 0;
  bool dry_run = false;  // print the frame in hex, do not send
  bool help = false;
};

// Parses argv with CLI11, as roce_inject does, taking what getopt_long(3)
// took before.  On a bad command line returns nullopt and sets *error to
// one line saying what is wrong.  With -h, returns options with help set.
std::optional<Options> ParseOptions(int argc, char* argv[], std::string* error);

// "02:00:00:00:00:01" (or with '-'): six pairs of hex digits.
std::optional<wire::MacAddress> ParseMac(std::string_view text);

// The MAC address as ParseMac() takes it, lower case with ':'.
std::string MacText(const wire::MacAddress& mac);

struct PriorityQuanta {
  uint8_t priority = 0;
  uint16_t quanta = 0;
};

// "P=QUANTA": a priority 0..7 and 0..65535 quanta, each decimal or 0x hex.
// On failure sets *error to why (without the option's name).
std::optional<PriorityQuanta> ParsePriorityQuanta(std::string_view text,
                                                  std::string* error);

// The --help text, CLI11's.
std::string Usage();

}  // namespace rue::pfc_inject

#endif  // RUE_WIRE_TOOLS_PFC_INJECT_OPTIONS_H_
