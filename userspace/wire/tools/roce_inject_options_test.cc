// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/roce_inject_options.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "test_util.h"
#include "tools/command_line_test_util.h"

namespace rue::inject {
namespace {

using wire::testing::Bytes;
using Parsed = cli11::testing::Parsed<Options>;

Parsed Parse(const std::vector<std::string>& args) {
  return cli11::testing::ParseWords(ParseOptions, args);
}

TEST(RoceInjectOptionsTest, Defaults) {
  Parsed p = Parse({"--src", "10.0.0.1", "--dst", "10.0.0.2", "--opcode",
                    "RC_SEND_ONLY"});
  ASSERT_TRUE(p.options) << p.error;
  const Options& o = *p.options;
  EXPECT_EQ(o.src, (wire::Ipv4Address{10, 0, 0, 1}));
  EXPECT_EQ(o.dst, (wire::Ipv4Address{10, 0, 0, 2}));
  EXPECT_EQ(o.sport, 49152);
  EXPECT_EQ(o.dport, 4791);
  EXPECT_EQ(o.tos, 0);
  EXPECT_EQ(o.opcode, 0x04);
  EXPECT_EQ(o.dest_qp, 0u);
  EXPECT_EQ(o.psn, 0u);
  EXPECT_FALSE(o.becn);
  EXPECT_EQ(o.pkey, 0xffff);
  EXPECT_EQ(o.payload, 0u);
  EXPECT_FALSE(o.va);
  EXPECT_FALSE(o.rkey);
  EXPECT_FALSE(o.len);
  EXPECT_EQ(o.truncate, 0u);
  EXPECT_FALSE(o.bad_icrc);
  EXPECT_FALSE(o.raw_hex);
  EXPECT_FALSE(o.icrc);
  EXPECT_EQ(o.count, 1u);
  EXPECT_EQ(o.interval_us, 0u);
  EXPECT_FALSE(o.dry_run);
  EXPECT_FALSE(o.help);
}

TEST(RoceInjectOptionsTest, EveryFlag) {
  Parsed p = Parse({"--src=192.0.2.1", "--dst", "192.0.2.2", "--sport",
                    "0xc000", "--dport", "4792", "--tos", "0xc2", "--opcode",
                    "0x0a", "--dest-qp", "0xffffff", "--psn", "16777215",
                    "--becn", "--pkey", "0x8001", "--payload", "33", "--va",
                    "0xffffffffffffffff", "--rkey", "0x1234", "--len", "4096",
                    "--truncate", "3", "--bad-icrc", "--count", "10",
                    "--interval-us", "500", "--dry-run"});
  ASSERT_TRUE(p.options) << p.error;
  const Options& o = *p.options;
  EXPECT_EQ(o.src, (wire::Ipv4Address{192, 0, 2, 1}));
  EXPECT_EQ(o.sport, 0xc000);
  EXPECT_EQ(o.dport, 4792);
  EXPECT_EQ(o.tos, 0xc2);
  EXPECT_EQ(o.opcode, 0x0a);
  EXPECT_EQ(o.dest_qp, 0xffffffu);
  EXPECT_EQ(o.psn, 0xffffffu);
  EXPECT_TRUE(o.becn);
  EXPECT_EQ(o.pkey, 0x8001);
  EXPECT_EQ(o.payload, 33u);
  EXPECT_EQ(o.va, 0xffffffffffffffffu);
  EXPECT_EQ(o.rkey, 0x1234u);
  EXPECT_EQ(o.len, 4096u);
  EXPECT_EQ(o.truncate, 3u);
  EXPECT_TRUE(o.bad_icrc);
  EXPECT_EQ(o.count, 10u);
  EXPECT_EQ(o.interval_us, 500u);
  EXPECT_TRUE(o.dry_run);
}

TEST(RoceInjectOptionsTest, RawHexWithIcrc) {
  Parsed p = Parse({"--src", "10.0.0.1", "--dst", "10.0.0.2", "--raw-hex",
                    "81 00 ff:ff 4000", "--icrc", "--bad-icrc"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_EQ(*p.options->raw_hex, Bytes({0x81, 0x00, 0xff, 0xff, 0x40, 0x00}));
  EXPECT_TRUE(p.options->icrc);
  EXPECT_TRUE(p.options->bad_icrc);
}

TEST(RoceInjectOptionsTest, HelpNeedsNothingElse) {
  for (const char* flag : {"-h", "--help", "--he"}) {
    Parsed p = Parse({flag});
    ASSERT_TRUE(p.options) << flag << ": " << p.error;
    EXPECT_TRUE(p.options->help);
  }
}

// What getopt_long(3) took: unique prefixes, "--name=value", a repeated
// option's last value, "--" ending the options.
TEST(RoceInjectOptionsTest, GetoptSpellings) {
  Parsed p = Parse({"--opc=cnp", "--sr", "10.0.0.1", "--ds=10.0.0.2",
                    "--count", "2", "--count", "3", "--dry"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_EQ(p.options->opcode, 0x81);
  EXPECT_EQ(p.options->src, (wire::Ipv4Address{10, 0, 0, 1}));
  EXPECT_EQ(p.options->dst, (wire::Ipv4Address{10, 0, 0, 2}));
  EXPECT_EQ(p.options->count, 3u);
  EXPECT_TRUE(p.options->dry_run);

  p = Parse({"--src", "10.0.0.1", "--dst", "10.0.0.2", "--opcode", "4", "--",
             "--becn"});
  EXPECT_FALSE(p.options);
  EXPECT_EQ(p.error, "unexpected argument '--becn'");
}

TEST(RoceInjectOptionsTest, OpcodeNamesAndNumbers) {
  EXPECT_EQ(ParseOpcode("cnp"), 0x81);
  EXPECT_EQ(ParseOpcode("CNP"), 0x81);
  EXPECT_EQ(ParseOpcode("0x81"), 0x81);
  EXPECT_EQ(ParseOpcode("129"), 0x81);
  EXPECT_EQ(ParseOpcode("rc_rdma_write_only"), 0x0a);
  EXPECT_EQ(ParseOpcode("UD_SEND_ONLY"), 0x64);
  // A number outside the table parses; the builder refuses it.
  EXPECT_EQ(ParseOpcode("0x15"), 0x15);
  EXPECT_FALSE(ParseOpcode("0x100"));
  EXPECT_FALSE(ParseOpcode("SEND_ONLY"));
  EXPECT_FALSE(ParseOpcode("UNKNOWN"));  // the name of unassigned entries
  EXPECT_FALSE(ParseOpcode(""));
}

struct BadLine {
  std::vector<std::string> args;
  std::string error;  // a part of the message
};

// Every command line here is refused, with a message naming the problem.
TEST(RoceInjectOptionsTest, BadCommandLines) {
  const std::vector<std::string> ok = {"--src", "10.0.0.1", "--dst",
                                       "10.0.0.2"};
  auto with = [&ok](std::initializer_list<std::string> more) {
    std::vector<std::string> args = ok;
    args.insert(args.end(), more);
    return args;
  };
  const std::vector<BadLine> lines = {
      {with({"--opcode", "4", "--frobnicate"}),
       "unknown option '--frobnicate'"},
      {with({"--opcode", "4", "-x"}), "unknown option '-x'"},
      {with({"--opcode", "4", "--becn=1"}),
       "becn was given a disallowed flag override"},
      {with({"--opcode", "4", "--d", "1"}),  // ambiguous
       "unknown option '--d'"},
      {with({"--opcode"}), "--opcode: 1 required OP missing"},
      {with({"--opcode", "4", "extra"}), "unexpected argument 'extra'"},
      {{"--dst", "10.0.0.2", "--opcode", "4"}, "--src is required"},
      {{"--src", "10.0.0.1", "--opcode", "4"}, "--dst is required"},
      {with({"--src", "10.0.0"}), "--src: want an IPv4 address"},
      {with({"--dst", "::1"}), "--dst: want an IPv4 address"},
      {with({}), "Exactly 1 option from [--opcode,--raw-hex] is required"},
      {with({"--opcode", "4", "--raw-hex", "00"}),
       "Exactly 1 option from [--opcode,--raw-hex] is required and 2 were "
       "given"},
      {with({"--opcode", "frob"}), "--opcode: want a number up to 0xff"},
      {with({"--opcode", "256"}), "--opcode: want"},
      {with({"--opcode", "4", "--dest-qp", "0x1000000"}),
       "--dest-qp: want a number from 0 to 16777215 (0xffffff), not "
       "'0x1000000'"},
      {with({"--opcode", "4", "--psn", "-1"}), "--psn: want"},
      {with({"--opcode", "4", "--sport", "65536"}), "--sport: want"},
      {with({"--opcode", "4", "--dport", "x"}), "--dport: want"},
      {with({"--opcode", "4", "--tos", "256"}), "--tos: want"},
      {with({"--opcode", "4", "--pkey", "0x10000"}), "--pkey: want"},
      {with({"--opcode", "4", "--payload", "65536"}), "--payload: want"},
      {with({"--opcode", "4", "--rkey", "0x100000000"}), "--rkey: want"},
      {with({"--opcode", "4", "--len", ""}), "--len: want"},
      {with({"--opcode", "4", "--va", "1.5"}), "--va: want"},
      {with({"--opcode", "4", "--truncate", "1e3"}), "--truncate: want"},
      {with({"--opcode", "4", "--count", "0"}), "--count: want at least 1"},
      {with({"--opcode", "4", "--interval-us", "-5"}), "--interval-us: want"},
      {with({"--raw-hex", "0"}), "--raw-hex: want pairs of hex digits"},
      {with({"--raw-hex", "00", "--psn", "1"}), "--psn excludes --raw-hex"},
      {with({"--becn", "--raw-hex", "00"}), "--becn excludes --raw-hex"},
      {with({"--raw-hex", "00", "--va", "0", "--len", "1"}),
       "--va excludes --raw-hex"},
      {with({"--opcode", "4", "--icrc"}), "--icrc requires --raw-hex"},
      {with({"--raw-hex", "00", "--bad-icrc"}),
       "--bad-icrc with --raw-hex needs --icrc"},
  };
  for (const BadLine& line : lines) {
    Parsed p = Parse(line.args);
    EXPECT_FALSE(p.options) << line.error;
    EXPECT_NE(p.error.find(line.error), std::string::npos)
        << "want '" << line.error << "' in '" << p.error << "'";
  }
}

// CLI11 writes --help: the hand-written usage line first, the rules it
// checks beside the options, the examples last.
TEST(RoceInjectOptionsTest, UsageIsCli11s) {
  const std::string usage = Usage();
  EXPECT_TRUE(usage.starts_with(
      "Usage: roce_inject --src A.B.C.D --dst A.B.C.D {--opcode OP | "
      "--raw-hex HEX [--icrc]} [OPTIONS]\nSend hand-made RoCEv2 packets"))
      << usage;
  for (const char* text :
       {"--src A.B.C.D REQUIRED", "--psn N Excludes: --raw-hex",
        "--icrc Needs: --raw-hex",
        "[Exactly 1 of the following options is required]", "Examples:\n",
        "Exit status: 0 sent, 1 socket or send error, 2 bad command line.\n"}) {
    EXPECT_NE(usage.find(text), std::string::npos) << text << "\n" << usage;
  }
}

TEST(RoceInjectOptionsTest, UsageNamesEveryOption) {
  const std::string usage = Usage();
  EXPECT_TRUE(usage.starts_with("Usage: roce_inject "));
  for (const char* flag :
       {"--src", "--dst", "--sport", "--dport", "--tos", "--opcode",
        "--dest-qp", "--psn", "--becn", "--pkey", "--payload", "--va",
        "--rkey", "--len", "--truncate", "--bad-icrc", "--raw-hex", "--icrc",
        "--count", "--interval-us", "--dry-run", "--help"}) {
    EXPECT_NE(usage.find(std::string(flag) + " "), std::string::npos)
        << flag;
  }
}

}  // namespace
}  // namespace rue::inject
