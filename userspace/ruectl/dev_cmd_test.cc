// SPDX-License-Identifier: GPL-2.0
#include "ruectl/dev_cmd.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

class DevTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string_view> words) {
    Args args(std::move(words));
    return RunDev(context_, args);
  }

  Options options_;
  testing::FakeBackend backend_;
  std::ostringstream out_;
  Context context_{options_, backend_, out_};
};

TEST_F(DevTest, ShowIsTheDefault) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_TRUE(out_.str().starts_with("0: rue0: netd")) << out_.str();
  EXPECT_NE(out_.str().find("\n1: rue1: "), std::string::npos);
}

TEST_F(DevTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(),
            "1: rue1: netdev eth1 port-state DOWN phys-state DISABLED "
            "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n");
}

TEST_F(DevTest, ShowOneDeviceJson) {
  options_.json = true;
  ASSERT_TRUE(Run({"s", "rue1"}).ok());
  EXPECT_TRUE(out_.str().starts_with("[{\"index\":1,\"name\":\"rue1\",\"netd"))
      << out_.str();
}

TEST_F(DevTest, DeviceNotFound) {
  nl::Status s = Run({"show", "rue9"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(DevTest, BackendErrorsPassThrough) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  nl::Status s = Run({"show", "rue0"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rue kernel module not loaded (modprobe rue)");
}

TEST_F(DevTest, EmptyNameIsNotAll) {
  nl::Status s = Run({"show", ""});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "device \"\" not found");
}

TEST_F(DevTest, ExtraArgument) {
  nl::Status s = Run({"show", "rue0", "rue1"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unexpected argument \"rue1\"");
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(DevTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl dev [ ")) << out_.str();
  EXPECT_NE(out_.str().find("Examples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(DevTest, UnknownCommand) {
  nl::Status s = Run({"frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl dev help\"");
}

}  // namespace
}  // namespace rue::cli
