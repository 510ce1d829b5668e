// SPDX-License-Identifier: GPL-2.0
#include "ruectl/command.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

nl::Status Show(Context& c, Args& args) {
  c.out << "show";
  while (!args.empty()) c.out << " " << args.Next();
  return nl::Ok();
}

nl::Status Set(Context& c, Args&) {
  c.out << "set";
  return nl::Ok();
}

nl::Status Broken(Context&, Args&) { return nl::Error{EIO, "broken"}; }

constexpr Command kRows[] = {{"show", Show}, {"set", Set}, {"break", Broken}};
constexpr CommandTable kTable = {"command", "ruectl thing help", kRows};

class RunCommandTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string_view> words) {
    Args args(std::move(words));
    return RunCommand(kTable, context_, args);
  }

  Options options_;
  testing::FakeBackend backend_;
  std::ostringstream out_;
  Context context_{options_, backend_, out_};
};

TEST_F(RunCommandTest, FirstRowIsTheDefault) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_EQ(out_.str(), "show");
}

TEST_F(RunCommandTest, PrefixSelectsRowAndPassesTheRest) {
  ASSERT_TRUE(Run({"sh", "rue0", "x"}).ok());
  EXPECT_EQ(out_.str(), "show rue0 x");
}

TEST_F(RunCommandTest, ExactName) {
  ASSERT_TRUE(Run({"set"}).ok());
  EXPECT_EQ(out_.str(), "set");
}

TEST_F(RunCommandTest, AmbiguousPrefixPointsAtHelp) {
  nl::Status s = Run({"s"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
  EXPECT_EQ(s.error().message,
            "ambiguous command \"s\": show, set; try \"ruectl thing help\"");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(RunCommandTest, UnknownPointsAtHelp) {
  nl::Status s = Run({"frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl thing help\"");
}

TEST_F(RunCommandTest, HandlerErrorComesBack) {
  nl::Status s = Run({"b"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EIO);
}

}  // namespace
}  // namespace rue::cli
