// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Test helpers: capture files written with libpcap's dump API, frames in
// each link type, and ruedump run as a function.
#ifndef RUE_RUEDUMP_TEST_PCAP_H_
#define RUE_RUEDUMP_TEST_PCAP_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/ethernet.h"
#include "ruedump/link_layer.h"

namespace rue::dump::testing {

using Bytes = std::vector<std::byte>;

struct PcapRecord {
  Bytes frame;
  int64_t seconds = 1700000000;
  int64_t micros = 0;
};

// The DLT_ value of a link type.
int DltOf(LinkType type);

// Writes `records` to a new pcap file at `path` with pcap_open_dead() and
// pcap_dump(); records longer than snaplen are cut to it (their wire
// length stays).  False on failure.
bool WritePcap(const std::string& path, int dlt,
               std::span<const PcapRecord> records, int snaplen = 65535);

// A fresh path in the test's temporary directory, removed when the test
// ends.
std::string TempPath(const std::string& name);

// An IP packet wrapped in a link layer: Ethernet (with optional VLAN
// tags), raw IP, or a Linux cooked header (v1/v2, optional VLAN tag after
// it).  The EtherType follows the IP version.
Bytes WrapEthernet(std::span<const std::byte> ip,
                   std::initializer_list<wire::VlanTag> tags = {});
Bytes WrapCooked(int version, std::span<const std::byte> ip,
                 std::initializer_list<wire::VlanTag> tags = {});
Bytes Wrap(LinkType type, std::span<const std::byte> ip);

// The IP packet inside an Ethernet frame (the frame after its header).
Bytes StripEthernet(std::span<const std::byte> frame);

Bytes ToBytes(std::span<const uint8_t> bytes);

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs ruedump with these arguments (argv[0] is added).
RunResult RunRuedump(std::initializer_list<std::string> args);

}  // namespace rue::dump::testing

#endif  // RUE_RUEDUMP_TEST_PCAP_H_
