// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/pfc_inject_options.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "test_util.h"
#include "tools/command_line_test_util.h"

namespace rue::pfc_inject {
namespace {

using wire::testing::Bytes;
using Parsed = cli11::testing::Parsed<Options>;

Parsed Parse(const std::vector<std::string>& args) {
  return cli11::testing::ParseWords(ParseOptions, args);
}

TEST(PfcInjectOptionsTest, Defaults) {
  Parsed p = Parse({"-i", "veth0"});
  ASSERT_TRUE(p.options) << p.error;
  const Options& o = *p.options;
  EXPECT_EQ(o.interface, "veth0");
  EXPECT_FALSE(o.src_mac);
  for (const std::optional<uint16_t>& q : o.quanta) EXPECT_FALSE(q);
  EXPECT_FALSE(o.opcode);
  EXPECT_FALSE(o.ethertype);
  EXPECT_FALSE(o.truncate);
  EXPECT_FALSE(o.reserved_bits);
  EXPECT_FALSE(o.raw_hex);
  EXPECT_EQ(o.count, 1u);
  EXPECT_EQ(o.interval_us, 0u);
  EXPECT_FALSE(o.dry_run);
  EXPECT_FALSE(o.help);
}

TEST(PfcInjectOptionsTest, EveryFlag) {
  Parsed p = Parse({"--interface=eth1", "--src-mac", "A0-36-9F-12-34-56",
                    "--prio", "3=65535", "--prio", "0=0x1234", "--xon", "7",
                    "--opcode", "0x0001", "--ethertype", "0x0800",
                    "--truncate", "20", "--reserved-bits", "--count", "100",
                    "--interval-us", "1000", "--dry-run"});
  ASSERT_TRUE(p.options) << p.error;
  const Options& o = *p.options;
  EXPECT_EQ(o.interface, "eth1");
  EXPECT_EQ(o.src_mac, (wire::MacAddress{0xa0, 0x36, 0x9f, 0x12, 0x34, 0x56}));
  EXPECT_EQ(o.quanta[0], 0x1234);
  EXPECT_EQ(o.quanta[3], 65535);
  EXPECT_EQ(o.quanta[7], 0);  // --xon
  EXPECT_FALSE(o.quanta[1]);
  EXPECT_EQ(o.opcode, 0x0001);
  EXPECT_EQ(o.ethertype, 0x0800);
  EXPECT_EQ(o.truncate, 20u);
  EXPECT_TRUE(o.reserved_bits);
  EXPECT_EQ(o.count, 100u);
  EXPECT_EQ(o.interval_us, 1000u);
  EXPECT_TRUE(o.dry_run);
}

TEST(PfcInjectOptionsTest, ShortInterfaceForms) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-i", "lo"}, {"-ilo"}, {"--interface", "lo"},
        {"--interf", "lo"}}) {
    Parsed p = Parse(args);
    ASSERT_TRUE(p.options) << args[0] << ": " << p.error;
    EXPECT_EQ(p.options->interface, "lo");
  }
}

TEST(PfcInjectOptionsTest, RawHex) {
  Parsed p = Parse({"-i", "veth0", "--raw-hex",
                    "01:80:c2:00:00:01 02 00 00 00 00 01 8808"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_EQ(*p.options->raw_hex,
            Bytes({0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
                   0x00, 0x01, 0x88, 0x08}));
}

TEST(PfcInjectOptionsTest, DryRunWithoutInterface) {
  Parsed p = Parse({"--dry-run", "--src-mac", "02:00:00:00:00:01"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_TRUE(p.options->interface.empty());
  p = Parse({"--dry-run", "--raw-hex", "0180c2000001020000000001"
                                       "8808"});
  ASSERT_TRUE(p.options) << p.error;
}

// What getopt_long(3) took: unique prefixes, a repeated option's last
// value (but --prio and --xon, which add up), "--" ending the options.
TEST(PfcInjectOptionsTest, GetoptSpellings) {
  Parsed p = Parse({"-iveth1", "--xo", "2", "--pr=1=5", "--count", "2",
                    "--coun=3", "--dry"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_EQ(p.options->interface, "veth1");
  EXPECT_EQ(p.options->quanta[2], 0);
  EXPECT_EQ(p.options->quanta[1], 5);
  EXPECT_EQ(p.options->count, 3u);
  EXPECT_TRUE(p.options->dry_run);

  p = Parse({"-i", "veth0", "--", "--xon", "3"});
  EXPECT_FALSE(p.options);
  EXPECT_EQ(p.error, "unexpected argument '--xon'");
}

TEST(PfcInjectOptionsTest, HelpNeedsNothingElse) {
  for (const char* flag : {"-h", "--help", "--he"}) {
    Parsed p = Parse({flag});
    ASSERT_TRUE(p.options) << flag << ": " << p.error;
    EXPECT_TRUE(p.options->help);
  }
}

TEST(PfcInjectOptionsTest, Mac) {
  EXPECT_EQ(ParseMac("02:00:00:00:00:01"),
            (wire::MacAddress{2, 0, 0, 0, 0, 1}));
  EXPECT_EQ(ParseMac("FF-ff-0a-0B-c0-d0"),
            (wire::MacAddress{0xff, 0xff, 0x0a, 0x0b, 0xc0, 0xd0}));
  EXPECT_FALSE(ParseMac(""));
  EXPECT_FALSE(ParseMac("02:00:00:00:00"));
  EXPECT_FALSE(ParseMac("02:00:00:00:00:01:02"));
  EXPECT_FALSE(ParseMac("02:00:00:00:00:1"));
  EXPECT_FALSE(ParseMac("2:00:00:00:00:01:"));
  EXPECT_FALSE(ParseMac("02:00-00:00:00:01"));  // mixed separators
  EXPECT_FALSE(ParseMac("02.00.00.00.00.01"));
  EXPECT_FALSE(ParseMac("020000000001"));
  EXPECT_FALSE(ParseMac("0g:00:00:00:00:01"));
  EXPECT_EQ(MacText({0xa0, 0x36, 0x9f, 0x12, 0x34, 0x56}),
            "a0:36:9f:12:34:56");
  EXPECT_EQ(ParseMac(MacText({1, 2, 3, 4, 5, 0xff})),
            (wire::MacAddress{1, 2, 3, 4, 5, 0xff}));
}

TEST(PfcInjectOptionsTest, PriorityQuanta) {
  std::string why;
  std::optional<PriorityQuanta> pq = ParsePriorityQuanta("3=65535", &why);
  ASSERT_TRUE(pq) << why;
  EXPECT_EQ(pq->priority, 3);
  EXPECT_EQ(pq->quanta, 65535);
  pq = ParsePriorityQuanta("0x7=0x10", &why);
  ASSERT_TRUE(pq) << why;
  EXPECT_EQ(pq->priority, 7);
  EXPECT_EQ(pq->quanta, 16);
  pq = ParsePriorityQuanta("0=0", &why);
  ASSERT_TRUE(pq) << why;

  EXPECT_FALSE(ParsePriorityQuanta("3", &why));
  EXPECT_EQ(why, "want P=QUANTA, e.g. 3=65535");
  EXPECT_FALSE(ParsePriorityQuanta("8=1", &why));
  EXPECT_EQ(why, "the priority is 0 to 7, not '8'");
  EXPECT_FALSE(ParsePriorityQuanta("3=65536", &why));
  EXPECT_EQ(why, "the quanta are 0 to 65535 (0xffff), not '65536'");
  EXPECT_FALSE(ParsePriorityQuanta("=1", &why));
  EXPECT_FALSE(ParsePriorityQuanta("3=", &why));
  EXPECT_FALSE(ParsePriorityQuanta("3=1=2", &why));
  EXPECT_FALSE(ParsePriorityQuanta("-1=1", &why));
  EXPECT_FALSE(ParsePriorityQuanta("3:1", &why));
}

struct BadLine {
  std::vector<std::string> args;
  std::string error;  // a part of the message
};

// Every command line here is refused, with a message naming the problem.
TEST(PfcInjectOptionsTest, BadCommandLines) {
  auto with = [](std::initializer_list<std::string> more) {
    std::vector<std::string> args = {"-i", "veth0"};
    args.insert(args.end(), more);
    return args;
  };
  const std::vector<BadLine> lines = {
      {with({"--frobnicate"}), "unknown option '--frobnicate'"},
      {with({"-x"}), "unknown option '-x'"},
      {with({"--dry-run=1"}), "dry-run was given a disallowed flag override"},
      {with({"--r", "00"}), "unknown option '--r'"},  // ambiguous
      {with({"--prio"}), "--prio: 1 required P=QUANTA missing"},
      {{"-i"}, "--interface: 1 required IFACE missing"},
      {with({"extra"}), "unexpected argument 'extra'"},
      {{"--prio", "3=1"}, "-i is required"},
      {{"--prio", "3=1", "--dry-run"},
       "--dry-run without -i needs --src-mac (or --raw-hex)"},
      {{"-i", ""}, "--interface: want an interface name of 1 to 15 characters"},
      {{"-i", "a23456789012345x"}, "--interface: want an interface name"},
      {with({"--src-mac", "02:00:00:00:00"}),
       "--src-mac: want a MAC address such as 02:00:00:00:00:01, not "
       "'02:00:00:00:00'"},
      {with({"--src-mac", "zz:00:00:00:00:01"}), "--src-mac: want"},
      {with({"--prio", "8=1"}), "--prio 8=1: the priority is 0 to 7, not '8'"},
      {with({"--prio", "3=65536"}),
       "--prio 3=65536: the quanta are 0 to 65535 (0xffff), not '65536'"},
      {with({"--prio", "3"}), "--prio 3: want P=QUANTA"},
      {with({"--prio", "3=1", "--prio", "3=2"}),
       "--prio 3=2: priority 3 is already given"},
      {with({"--prio", "3=1", "--xon", "3"}),
       "--xon 3: priority 3 is already given"},
      {with({"--xon", "8"}), "--xon: want a priority from 0 to 7, not '8'"},
      {with({"--opcode", "0x10000"}),
       "--opcode: want a number from 0 to 65535 (0xffff), not '0x10000'"},
      {with({"--ethertype", "ip"}), "--ethertype: want"},
      {with({"--truncate", "13"}),
       "--truncate: want 14 to 60 bytes (at least an Ethernet header, at "
       "most the frame), not '13'"},
      {with({"--truncate", "61"}), "--truncate: want 14 to 60"},
      {with({"--raw-hex", "0"}), "--raw-hex: want pairs of hex digits"},
      {with({"--raw-hex", "0180c2000001"}),
       "--raw-hex: 6 bytes, fewer than an Ethernet header (14), which "
       "AF_PACKET needs"},
      {with({"--raw-hex", "0180c2000001020000000001 8808", "--prio", "3=1"}),
       "--prio excludes --raw-hex"},
      {with({"--reserved-bits", "--raw-hex",
             "0180c2000001020000000001 8808"}),
       "--reserved-bits excludes --raw-hex"},
      {with({"--src-mac", "02:00:00:00:00:01", "--raw-hex",
             "0180c2000001020000000001 8808"}),
       "--src-mac excludes --raw-hex"},
      {with({"--count", "0"}), "--count: want at least 1 frame"},
      {with({"--count", "-1"}), "--count: want a number"},
      {with({"--interval-us", "1.5"}), "--interval-us: want"},
  };
  for (const BadLine& line : lines) {
    Parsed p = Parse(line.args);
    EXPECT_FALSE(p.options) << line.error;
    EXPECT_NE(p.error.find(line.error), std::string::npos)
        << "want '" << line.error << "' in '" << p.error << "'";
  }
}

// CLI11 writes --help: the hand-written usage line first, the exclusions
// beside the options, the examples last.
TEST(PfcInjectOptionsTest, UsageIsCli11s) {
  const std::string usage = Usage();
  EXPECT_TRUE(usage.starts_with(
      "Usage: pfc_inject -i IFACE [--prio P=QUANTA ...] [--xon P ...] "
      "[OPTIONS]\nSend IEEE 802.1Qbb PFC frames"))
      << usage;
  for (const char* text :
       {"-i,--interface IFACE", "--prio P=QUANTA Excludes: --raw-hex",
        "--raw-hex HEX Excludes: --", "Examples:\n",
        "Exit status: 0 sent, 1 interface, socket or send error, 2 bad "
        "command line.\n"}) {
    EXPECT_NE(usage.find(text), std::string::npos) << text << "\n" << usage;
  }
}

TEST(PfcInjectOptionsTest, UsageNamesEveryOption) {
  const std::string usage = Usage();
  EXPECT_TRUE(usage.starts_with("Usage: pfc_inject "));
  for (const char* flag :
       {"-i", "--interface", "--src-mac", "--prio", "--xon", "--opcode",
        "--ethertype", "--truncate", "--reserved-bits", "--raw-hex",
        "--count", "--interval-us", "--dry-run", "--help"}) {
    EXPECT_NE(usage.find(std::string(flag) + " "), std::string::npos)
        << flag;
  }
}

}  // namespace
}  // namespace rue::pfc_inject
