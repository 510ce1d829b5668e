// SPDX-License-Identifier: GPL-2.0
#include "ruectl/options.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "ruectl/test_argv.h"

namespace rue::cli {
namespace {

using testing::Argv;
using Words = std::vector<std::string_view>;

TEST(OptionsTest, NoOptions) {
  Argv args{"dev", "show"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_FALSE(line->options.json || line->options.pretty ||
               line->options.details || line->options.version ||
               line->options.help);
  EXPECT_EQ(line->words, (Words{"dev", "show"}));
}

TEST(OptionsTest, ShortOptions) {
  Argv args{"-j", "-p", "-d", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->options.json);
  EXPECT_TRUE(line->options.pretty);
  EXPECT_TRUE(line->options.details);
  EXPECT_EQ(line->words, (Words{"dev"}));
}

TEST(OptionsTest, BundledShortOptions) {
  Argv args{"-jpd", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->options.json && line->options.pretty &&
              line->options.details);
}

TEST(OptionsTest, LongOptionsAndPrefixes) {
  Argv args{"--json", "--pre", "--det", "--vers", "--he"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->options.json && line->options.pretty &&
              line->options.details && line->options.version &&
              line->options.help);
  EXPECT_TRUE(line->words.empty());
}

TEST(OptionsTest, VersionAndHelp) {
  Argv v{"-V"};
  EXPECT_TRUE(ParseCommandLine(v.argc(), v.argv())->options.version);
  Argv h{"-h"};
  EXPECT_TRUE(ParseCommandLine(h.argc(), h.argv())->options.help);
}

TEST(OptionsTest, OptionsStopAtTheObject) {
  Argv args{"-j", "dev", "show", "-d"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_FALSE(line->options.details);
  EXPECT_EQ(line->words, (Words{"dev", "show", "-d"}));
}

TEST(OptionsTest, DoubleDashEndsOptions) {
  Argv args{"--", "-j"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_FALSE(line->options.json);
  EXPECT_EQ(line->words, (Words{"-j"}));
}

TEST(OptionsTest, UnknownShortOption) {
  Argv args{"-x", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.error().code, EINVAL);
  EXPECT_EQ(line.error().message, "invalid option \"-x\"; try \"ruectl -h\"");
}

TEST(OptionsTest, UnknownShortOptionInBundle) {
  Argv args{"--json", "-jx", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.error().message, "invalid option \"-x\"; try \"ruectl -h\"");
}

TEST(OptionsTest, UnknownLongOption) {
  Argv args{"--color", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.error().message,
            "invalid option \"--color\"; try \"ruectl -h\"");
}

TEST(OptionsTest, LongOptionWithArgument) {
  Argv args{"--json=yes", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(args.argc(), args.argv());
  ASSERT_FALSE(line.ok());
  EXPECT_EQ(line.error().message,
            "invalid option \"--json=yes\"; try \"ruectl -h\"");
}

TEST(OptionsTest, ParsesAgainAfterAnError) {
  Argv bad{"-x"};
  EXPECT_FALSE(ParseCommandLine(bad.argc(), bad.argv()).ok());
  Argv good{"-j", "dev"};
  nl::Result<CommandLine> line = ParseCommandLine(good.argc(), good.argv());
  ASSERT_TRUE(line.ok());
  EXPECT_TRUE(line->options.json);
  EXPECT_EQ(line->words, (Words{"dev"}));
}

}  // namespace
}  // namespace rue::cli
