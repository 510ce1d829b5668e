// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/cli_leftovers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/cli_getopt.h"
#include "tools/command_line_test_util.h"

namespace rue::cli11 {
namespace {

using Words = std::vector<std::string>;

TEST(CliLeftoversTest, Sorts) {
  const Leftovers left =
      SortLeftovers({"-q", "b", "--frob=1", "-", "--", "-x", "--"});
  EXPECT_EQ(left.options, (Words{"-q", "--frob=1"}));
  EXPECT_EQ(left.arguments, (Words{"b", "-", "-x", "--"}));
}

TEST(CliLeftoversTest, Nothing) {
  const Leftovers left = SortLeftovers({"--"});
  EXPECT_TRUE(left.options.empty());
  EXPECT_TRUE(left.arguments.empty());
}

// What CLI11 2.1 sets aside, as the tools parse: an unknown short option
// out of a bundle, an unknown long one whole, operands beyond the
// positional, all in command line order.
TEST(CliLeftoversTest, FromCli11) {
  CLI::App app;
  app.allow_extras();
  bool j = false;
  std::string file;
  app.add_flag("-j", j);
  app.add_option("FILE", file);
  testing::Argv argv("prog", {"a", "-jq", "b", "--frob=1", "--", "-j"});
  ParseLikeGetopt(&app, argv.argc(), argv.argv());
  EXPECT_TRUE(j);
  EXPECT_EQ(file, "a");
  const Leftovers left = SortLeftovers(app.remaining());
  EXPECT_EQ(left.options, (Words{"-q", "--frob=1"}));
  EXPECT_EQ(left.arguments, (Words{"b", "-j"}));
}

}  // namespace
}  // namespace rue::cli11
