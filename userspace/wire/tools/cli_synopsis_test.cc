// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/cli_synopsis.h"

#include <gtest/gtest.h>

#include <string>

namespace rue::cli11 {
namespace {

TEST(CliSynopsisTest, UsageComesFirst) {
  CLI::App app("", "tool");
  int n = 0;
  app.add_option("-n", n, "a number");
  SetSynopsis(&app, "tool -n N FILE\nDoes things.");
  app.footer("Examples: tool -n 1 f");
  const std::string help = app.help();
  EXPECT_TRUE(help.starts_with("Usage: tool -n N FILE\nDoes things.\n\n"))
      << help;
  EXPECT_NE(help.find("  -n INT"), std::string::npos) << help;
  EXPECT_TRUE(help.ends_with("Examples: tool -n 1 f\n")) << help;
}

TEST(CliSynopsisTest, SubcommandsKeepTheirs) {
  CLI::App app("", "tool");
  CLI::App* sub = app.add_subcommand("run", "run it");
  SetSynopsis(&app, "tool run | help");
  EXPECT_TRUE(app.help().starts_with("Usage: tool run | help\n"));
  EXPECT_TRUE(sub->help("tool").starts_with("run it\nUsage: tool run"))
      << sub->help("tool");
}

}  // namespace
}  // namespace rue::cli11
