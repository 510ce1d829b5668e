// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/options.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace rue::dump {
namespace {

struct Parsed {
  std::optional<Options> options;
  std::string error;
};

Parsed Parse(std::initializer_list<std::string> args) {
  std::vector<std::string> words = {"ruedump"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  Parsed parsed;
  parsed.options =
      ParseOptions(static_cast<int>(words.size()), argv.data(), &parsed.error);
  return parsed;
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

TEST(OptionsTest, HelpAndVersionNeedNoFile) {
  EXPECT_TRUE(Parse({"-h"}).options->help);
  EXPECT_TRUE(Parse({"--version"}).options->version);
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
      {{"--json=1", "f"}, "unknown option '--json=1'"},
      {{"f", "-c"}, "option '-c' needs an argument"},
      {{"f", "--filter"}, "option '--filter' needs an argument"},
      {{"-c", "0", "f"}, "-c: COUNT must be a positive integer, not '0'"},
      {{"-c", "5x", "f"}, "-c: COUNT must be a positive integer, not '5x'"},
      {{"-c", "-1", "f"}, "-c: COUNT must be a positive integer, not '-1'"},
      {{"-F", "tcp", "f"}, "-F: want roce, uet or all, not 'tcp'"},
      {{}, "no capture file given (use - for standard input)"},
      {{"-j"}, "no capture file given (use - for standard input)"},
      {{"a", "b"}, "one capture file only, not 'a' and 'b'"},
  };
  for (const Case& c : cases) {
    Parsed p = Parse(c.args);
    EXPECT_FALSE(p.options) << c.error;
    EXPECT_EQ(p.error, c.error);
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
