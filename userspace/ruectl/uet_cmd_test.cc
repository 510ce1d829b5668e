// SPDX-License-Identifier: GPL-2.0
#include "ruectl/uet_cmd.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

class UetTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string_view> words) {
    Args args(std::move(words));
    return RunUet(context_, args);
  }

  std::string Fails(std::vector<std::string_view> words, int code) {
    nl::Status s = Run(std::move(words));
    EXPECT_FALSE(s.ok());
    if (s.ok()) return "";
    EXPECT_EQ(s.error().code, code) << s.error().message;
    return s.error().message;
  }

  Options options_;
  testing::FakeBackend backend_;
  std::ostringstream out_;
  Context context_{options_, backend_, out_};
};

TEST_F(UetTest, StatsIsTheDefaultAndCoversEveryDeviceInOneRequest) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_EQ(out_.str(),
            "0: rue0:\n"
            "    pdc_opened 3\n"
            "    pdc_closed 1\n"
            "    acks_rcvd 10\n"
            "1: rue1:\n"
            "    pdc_opened 0\n");
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(UetTest, StatsOneDeviceAsJson) {
  options_.json = true;
  ASSERT_TRUE(Run({"stats", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "[{\"index\":1,\"name\":\"rue1\",\"pdc_opened\":0}]\n");
}

TEST_F(UetTest, PrefixOfStats) {
  ASSERT_TRUE(Run({"st", "rue0"}).ok());
  EXPECT_TRUE(out_.str().starts_with("0: rue0:\n")) << out_.str();
}

TEST_F(UetTest, Errors) {
  EXPECT_EQ(Fails({"stats", "rue9"}, ENODEV), "device \"rue9\" not found");
  EXPECT_EQ(Fails({"stats", "rue0", "x"}, EINVAL), "unexpected argument \"x\"");
  EXPECT_EQ(Fails({"show"}, EINVAL),
            "unknown command \"show\"; try \"ruectl uet help\"");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(UetTest, ModuleNotLoadedOrTooOld) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  EXPECT_EQ(Fails({"stats"}, ENOENT), kModuleNotLoaded);
  backend_.FailWith({EOPNOTSUPP, ""});
  EXPECT_EQ(Fails({"stats", "rue0"}, EOPNOTSUPP),
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(UetTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl uet [ ")) << out_.str();
  EXPECT_NE(out_.str().find("\nExamples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

}  // namespace
}  // namespace rue::cli
