// SPDX-License-Identifier: GPL-2.0
#include "ruectl/args.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace rue::cli {
namespace {

TEST(ArgsTest, TakesWordsInOrder) {
  Args args({"show", "rue0"});
  EXPECT_FALSE(args.empty());
  EXPECT_EQ(args.Peek(), "show");
  EXPECT_EQ(args.Next(), "show");
  EXPECT_EQ(args.Next(), "rue0");
  EXPECT_TRUE(args.empty());
  EXPECT_EQ(args.Next(), "");
  EXPECT_EQ(args.Peek(), "");
}

TEST(ArgsTest, RequireNamesWhatIsMissing) {
  Args args({"rue0"});
  nl::Result<std::string_view> dev = args.Require("DEV");
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(*dev, "rue0");
  nl::Result<std::string_view> mtu = args.Require("MTU");
  ASSERT_FALSE(mtu.ok());
  EXPECT_EQ(mtu.error().code, EINVAL);
  EXPECT_EQ(mtu.error().message, "missing MTU");
}

TEST(ArgsTest, ExpectEnd) {
  Args args({"rue0", "extra"});
  args.Next();
  nl::Status end = args.ExpectEnd();
  ASSERT_FALSE(end.ok());
  EXPECT_EQ(end.error().message, "unexpected argument \"extra\"");
  args.Next();
  EXPECT_TRUE(args.ExpectEnd().ok());
}

}  // namespace
}  // namespace rue::cli
