// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/options.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "tools/command_line_test_util.h"

namespace rue::dump {
namespace {

using Parsed = cli11::testing::Parsed<Options>;

Parsed Parse(std::initializer_list<std::string> args) {
  return cli11::testing::ParseWords(ParseOptions, args);
}

TEST(OptionsTest, Defaults) {
  Parsed p = Parse({"x.pcap"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_FALSE(p.options->json);
  EXPECT_FALSE(p.options->hex);
  EXPECT_FALSE(p.options->verbose);
  EXPECT_FALSE(p.options->check);
  EXPECT_FALSE(p.options->count);
  EXPECT_TRUE(p.options->selection.roce);
  EXPECT_TRUE(p.options->selection.uet);
  EXPECT_EQ(p.options->file, "x.pcap");
}

TEST(OptionsTest, EveryFlag) {
  Parsed p = Parse({"-j", "-x", "-v", "-c", "5", "-F", "roce", "--check", "-"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_TRUE(p.options->json);
  EXPECT_TRUE(p.options->hex);
  EXPECT_TRUE(p.options->verbose);
  EXPECT_TRUE(p.options->check);
  EXPECT_EQ(p.options->count, 5u);
  EXPECT_TRUE(p.options->selection.roce);
  EXPECT_FALSE(p.options->selection.uet);
  EXPECT_EQ(p.options->file, "-");
}

TEST(OptionsTest, BundlesLongFormsAndOptionsAfterTheFile) {
  Parsed p = Parse({"f.pcap", "-jxc3", "--filter=uet", "--verb"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_TRUE(p.options->json);
  EXPECT_TRUE(p.options->hex);
  EXPECT_TRUE(p.options->verbose);
  EXPECT_EQ(p.options->count, 3u);
  EXPECT_FALSE(p.options->selection.roce);
  EXPECT_TRUE(p.options->selection.uet);
  EXPECT_EQ(p.options->file, "f.pcap");
}

TEST(OptionsTest, FilterAll) {
  Parsed p = Parse({"-F", "all", "f"});
  ASSERT_TRUE(p.options);
  EXPECT_TRUE(p.options->selection.roce);
  EXPECT_TRUE(p.options->selection.uet);
}

TEST(OptionsTest, DoubleDashEndsOptions) {
  Parsed p = Parse({"--", "-j"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_FALSE(p.options->json);
  EXPECT_EQ(p.options->file, "-j");
}

// As getopt_long(3): a repeated option's last value counts.  Counts are
// decimal.
TEST(OptionsTest, LastValueCounts) {
  Parsed p = Parse({"-c", "3", "f", "--count=010", "-F", "roce", "-Fuet"});
  ASSERT_TRUE(p.options) << p.error;
  EXPECT_EQ(p.options->count, 10u);  // decimal, as ever
  EXPECT_FALSE(p.options->selection.roce);
  EXPECT_TRUE(p.options->selection.uet);
}

TEST(OptionsTest, HelpAndVersionNeedNoFile) {
  EXPECT_TRUE(Parse({"-h"}).options->help);
  EXPECT_TRUE(Parse({"--version"}).options->version);
  EXPECT_TRUE(Parse({"--vers"}).options->version);
  EXPECT_TRUE(Parse({"-V"}).options->version);
  EXPECT_TRUE(Parse({"--hel"}).options->help);
}

TEST(OptionsTest, Errors) {
  struct Case {
    std::initializer_list<std::string> args;
    std::string error;
  };
  const Case cases[] = {
      {{"-q", "f"}, "unknown option '-q'"},
      {{"-jq", "f"}, "unknown option '-q'"},
      {{"--frobnicate", "f"}, "unknown option '--frobnicate'"},
      {{"--json=1", "f"}, "json was given a disallowed flag override"},
      {{"--ver", "f"}, "unknown option '--ver'"},  // ambiguous
      {{"f", "-c"}, "--count: 1 required COUNT missing"},
      {{"f", "--filter"}, "--filter: 1 required PROTO:{roce,uet,all} missing"},
      {{"-c", "0", "f"}, "--count: COUNT must be a positive integer, not '0'"},
      {{"-c", "5x", "f"}, "--count: COUNT must be a positive integer, not '5x'"},
      {{"-c", "-1", "f"}, "--count: COUNT must be a positive integer, not '-1'"},
      {{"-c", "0x10", "f"},
       "--count: COUNT must be a positive integer, not '0x10'"},
      {{"-F", "tcp", "f"}, "--filter: tcp not in {roce,uet,all}"},
      {{}, "no capture file given (use - for standard input)"},
      {{"-j"}, "no capture file given (use - for standard input)"},
      {{"a", "b"}, "one capture file only, not 'a' and 'b'"},
      {{"--", "a", "-q"}, "one capture file only, not 'a' and '-q'"},
  };
  for (const Case& c : cases) {
    Parsed p = Parse(c.args);
    EXPECT_FALSE(p.options) << c.error;
    EXPECT_EQ(p.error, c.error);
  }
}

// CLI11 writes --help, after the hand-written usage line.
TEST(OptionsTest, UsageIsCli11s) {
  const std::string usage = Usage();
  EXPECT_TRUE(usage.starts_with(
      "Usage: ruedump [-j] [-x] [-v] [-c COUNT] [-F roce|uet|all] [--check] "
      "FILE\nDecode RoCEv2 (UDP 4791) and UET (UDP 4793) packets"))
      << usage;
  for (const char* text : {"-c,--count COUNT", "-F,--filter PROTO",
                           "-V,--version", "Exit status: 0 ok"}) {
    EXPECT_NE(usage.find(text), std::string::npos) << text << "\n" << usage;
  }
}

TEST(OptionsTest, UsageNamesEveryOption) {
  const std::string usage = Usage();
  for (const char* word : {"-j", "-x", "-v", "-c", "-F", "--check", "-h", "-V",
                           "roce", "uet", "all"}) {
    EXPECT_NE(usage.find(word), std::string::npos) << word;
  }
}

}  // namespace
}  // namespace rue::dump
