// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/test_pcap.h"

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"
#include "ruedump/ruedump.h"
#include "tools/command_line_test_util.h"

namespace rue::dump::testing {
namespace {

// PACKET_OUTGOING, as "tcpdump -i any" records what a host sends.
constexpr uint16_t kPacketOutgoing = 4;
constexpr uint16_t kArphrdEther = 1;
constexpr uint32_t kIfindex = 7;
constexpr wire::MacAddress kSrcMac = {0x02, 0, 0, 0, 0, 0x01};
constexpr wire::MacAddress kDstMac = {0x02, 0, 0, 0, 0, 0x02};

uint16_t EtherTypeOf(std::span<const std::byte> ip) {
  const bool v6 = !ip.empty() && (static_cast<uint8_t>(ip[0]) >> 4) == 6;
  return v6 ? wire::kEtherTypeIpv6 : wire::kEtherTypeIpv4;
}

Bytes Concat(const Bytes& head, std::span<const std::byte> tail) {
  Bytes out = head;
  out.insert(out.end(), tail.begin(), tail.end());
  return out;
}

void WriteTags(wire::Writer& w, std::initializer_list<wire::VlanTag> tags,
               uint16_t ethertype) {
  for (const wire::VlanTag& tag : tags) {
    w.WriteU16(tag.tpid);
    w.WriteU16(static_cast<uint16_t>((tag.pcp << wire::VlanTag::kPcpShift) |
                                     (tag.dei ? wire::VlanTag::kDeiMask : 0) |
                                     tag.vid));
  }
  w.WriteU16(ethertype);
}

Bytes CookedHeaderBytes(int version, uint16_t protocol) {
  Bytes header(version == 1 ? CookedHeader::kV1Size : CookedHeader::kV2Size);
  wire::Writer w(header);
  if (version == 1) {
    w.WriteU16(kPacketOutgoing);
    w.WriteU16(kArphrdEther);
    w.WriteU16(6);
    for (uint8_t b : kSrcMac) w.WriteU8(b);
    w.WriteU16(0);  // address padding to 8 bytes
    w.WriteU16(protocol);
  } else {
    w.WriteU16(protocol);
    w.WriteU16(0);
    w.WriteU32(kIfindex);
    w.WriteU16(kArphrdEther);
    w.WriteU8(static_cast<uint8_t>(kPacketOutgoing));
    w.WriteU8(6);
    for (uint8_t b : kSrcMac) w.WriteU8(b);
    w.WriteU16(0);
  }
  EXPECT_TRUE(w.ok());
  return header;
}

}  // namespace

int DltOf(LinkType type) {
  switch (type) {
    case LinkType::kEthernet:
      return DLT_EN10MB;
    case LinkType::kRawIp:
      return DLT_RAW;
    case LinkType::kIpv4:
      return DLT_IPV4;
    case LinkType::kIpv6:
      return DLT_IPV6;
    case LinkType::kLinuxSll:
      return DLT_LINUX_SLL;
    case LinkType::kLinuxSll2:
      return DLT_LINUX_SLL2;
  }
  return -1;
}

bool WritePcap(const std::string& path, int dlt,
               std::span<const PcapRecord> records, int snaplen) {
  pcap_t* dead = pcap_open_dead(dlt, snaplen);
  if (!dead) return false;
  pcap_dumper_t* dumper = pcap_dump_open(dead, path.c_str());
  if (!dumper) {
    pcap_close(dead);
    return false;
  }
  for (const PcapRecord& record : records) {
    pcap_pkthdr header = {};
    header.ts.tv_sec = record.seconds;
    header.ts.tv_usec = record.micros;
    header.len = static_cast<bpf_u_int32>(record.frame.size());
    header.caplen = std::min<bpf_u_int32>(header.len, snaplen);
    pcap_dump(reinterpret_cast<u_char*>(dumper), &header,
              reinterpret_cast<const u_char*>(record.frame.data()));
  }
  pcap_dump_close(dumper);
  pcap_close(dead);
  return true;
}

namespace {

// The files TempPath() named in the running test, removed when it ends.
std::vector<std::string>& Named() {
  static std::vector<std::string> paths;
  return paths;
}

class RemoveTempFiles : public ::testing::EmptyTestEventListener {
  void OnTestEnd(const ::testing::TestInfo&) override {
    for (const std::string& path : Named()) std::remove(path.c_str());
    Named().clear();
  }
};

// Before main(): gtest_main runs the tests with the listeners it finds.
const bool kRemoverAdded = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new RemoveTempFiles);
  return true;
}();

}  // namespace

std::string TempPath(const std::string& name) {
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::string test =
      info ? std::string(info->test_suite_name()) + "." + info->name()
           : "ruedump";
  std::replace(test.begin(), test.end(), '/', '_');
  Named().push_back(::testing::TempDir() + test + "." + name);
  return Named().back();
}

Bytes WrapEthernet(std::span<const std::byte> ip,
                   std::initializer_list<wire::VlanTag> tags) {
  Bytes header(wire::EthernetHeader::kSize + tags.size() * 4);
  wire::Writer w(header);
  for (uint8_t b : kDstMac) w.WriteU8(b);
  for (uint8_t b : kSrcMac) w.WriteU8(b);
  WriteTags(w, tags, EtherTypeOf(ip));
  EXPECT_TRUE(w.ok());
  return Concat(header, ip);
}

Bytes WrapCooked(int version, std::span<const std::byte> ip,
                 std::initializer_list<wire::VlanTag> tags) {
  const uint16_t first_type =
      tags.size() == 0 ? EtherTypeOf(ip) : std::data(tags)[0].tpid;
  Bytes header = CookedHeaderBytes(version, first_type);
  if (tags.size() != 0) {
    // The first tag's TPID is the cooked protocol; then TCI, next type.
    Bytes rest(tags.size() * 4);
    wire::Writer w(rest);
    const wire::VlanTag* tag = std::data(tags);
    for (std::size_t i = 0; i < tags.size(); ++i, ++tag) {
      w.WriteU16(static_cast<uint16_t>((tag->pcp << wire::VlanTag::kPcpShift) |
                                       tag->vid));
      w.WriteU16(i + 1 < tags.size() ? tag[1].tpid : EtherTypeOf(ip));
    }
    header = Concat(header, rest);
  }
  return Concat(header, ip);
}

Bytes Wrap(LinkType type, std::span<const std::byte> ip) {
  switch (type) {
    case LinkType::kEthernet:
      return WrapEthernet(ip);
    case LinkType::kLinuxSll:
      return WrapCooked(1, ip);
    case LinkType::kLinuxSll2:
      return WrapCooked(2, ip);
    case LinkType::kRawIp:
    case LinkType::kIpv4:
    case LinkType::kIpv6:
      return Bytes(ip.begin(), ip.end());
  }
  return Bytes();
}

Bytes StripEthernet(std::span<const std::byte> frame) {
  wire::Reader r(frame);
  std::optional<wire::EthernetHeader> eth = wire::EthernetHeader::Parse(r);
  EXPECT_TRUE(eth.has_value());
  const std::span<const std::byte> rest = r.Rest();
  return Bytes(rest.begin(), rest.end());
}

Bytes ToBytes(std::span<const uint8_t> bytes) {
  const std::span<const std::byte> b = std::as_bytes(bytes);
  return Bytes(b.begin(), b.end());
}

RunResult RunRuedump(std::initializer_list<std::string> args) {
  cli11::testing::Argv argv("ruedump", args);
  std::ostringstream out;
  std::ostringstream err;
  RunResult result;
  result.status = Run(argv.argc(), argv.argv(), out, err);
  result.out = out.str();
  result.err = err.str();
  return result;
}

}  // namespace rue::dump::testing
