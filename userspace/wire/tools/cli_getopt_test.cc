// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/cli_getopt.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/command_line_test_util.h"

namespace rue::cli11 {
namespace {

// An app with --verbose, --version, --count and, in an option group,
// --filter (and the group's own --help).
class CliGetoptTest : public ::testing::Test {
 protected:
  CliGetoptTest() {
    app_.add_flag("--verbose", verbose_);
    app_.add_flag("--version", version_);
    app_.add_option("-c,--count", count_);
    app_.add_option_group("g")->add_option("--filter", filter_);
  }

  std::vector<std::string> Expand(std::vector<std::string> args) {
    ExpandLongPrefixes(app_, &args);
    return args;
  }

  CLI::App app_;
  bool verbose_ = false;
  bool version_ = false;
  int count_ = 0;
  std::string filter_;
};

TEST_F(CliGetoptTest, UniquePrefixesBecomeWholeNames) {
  EXPECT_EQ(Expand({"--verb", "--vers", "--co", "3", "--fi=roce", "--h"}),
            (std::vector<std::string>{"--verbose", "--version", "--count", "3",
                                      "--filter=roce", "--help"}));
}

TEST_F(CliGetoptTest, OtherWordsStay) {
  const std::vector<std::string> same = {
      "--ver",      // ambiguous: --verbose, --version
      "--frob",     // no such option
      "--count",    // whole already
      "--count=2",  // whole, with a value
      "-v",         // short
      "-",          // an operand
      "f.pcap",
      "--=x",
  };
  EXPECT_EQ(Expand(same), same);
}

TEST_F(CliGetoptTest, StopsAtDoubleDash) {
  EXPECT_EQ(Expand({"--verb", "--", "--verb"}),
            (std::vector<std::string>{"--verbose", "--", "--verb"}));
}

TEST_F(CliGetoptTest, ParseLikeGetopt) {
  testing::Argv argv("prog", {"--verb", "--cou=7", "--filt", "uet"});
  ParseLikeGetopt(&app_, argv.argc(), argv.argv());
  EXPECT_TRUE(verbose_);
  EXPECT_FALSE(version_);
  EXPECT_EQ(count_, 7);
  EXPECT_EQ(filter_, "uet");
}

TEST_F(CliGetoptTest, ParseLikeGetoptThrowsWhatParseThrows) {
  testing::Argv argv("prog", {"--ver"});
  EXPECT_THROW(ParseLikeGetopt(&app_, argv.argc(), argv.argv()),
               CLI::ExtrasError);
}

}  // namespace
}  // namespace rue::cli11
