// SPDX-License-Identifier: GPL-2.0
#include "ruectl/qp_cmd.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

class QpTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string_view> words) {
    Args args(std::move(words));
    return RunQp(context_, args);
  }

  Options options_;
  testing::FakeBackend backend_;
  std::ostringstream out_;
  Context context_{options_, backend_, out_};
};

constexpr char kRue0Qps[] =
    "dev rue0 qpn 1 type GSI state RTS prio 0 dscp 0\n"
    "dev rue0 qpn 17 type RC state RTS dest-qpn 18 prio 3 dscp 26 "
    "limited yes rate 12500 target 18750 alpha 512 cnp-sent 0 "
    "cnp-handled 4 ecn-marked 0 tx-bytes 1234567\n";

TEST_F(QpTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue0"}).ok());
  EXPECT_EQ(out_.str(), kRue0Qps);
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(QpTest, DeviceWithoutQps) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "");
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "[]\n");
}

TEST_F(QpTest, ShowIsTheDefaultAndCoversEveryDevice) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_EQ(out_.str(), kRue0Qps);
  EXPECT_EQ(backend_.requests(), 3);  // the devices, then each one's QPs
}

TEST_F(QpTest, EveryDeviceAsOneJsonArray) {
  Qp other = testing::SampleQps()[0];
  other.dev = "rue1";
  other.dev_index = 1;
  std::vector<Qp> qps = testing::SampleQps();
  qps.push_back(other);
  testing::FakeBackend backend(testing::SampleDevices(), testing::SampleCc(),
                               qps);
  Context context{options_, backend, out_};
  options_.json = true;
  Args args({"show"});
  ASSERT_TRUE(RunQp(context, args).ok());
  EXPECT_TRUE(out_.str().starts_with("[{\"dev\":\"rue0\",\"qpn\":1,"));
  EXPECT_NE(out_.str().find("},{\"dev\":\"rue1\",\"qpn\":1,"),
            std::string::npos)
      << out_.str();
  EXPECT_TRUE(out_.str().ends_with("}]\n"));
}

// A backend whose second device disappears after the device list.
class VanishingBackend : public testing::FakeBackend {
 public:
  nl::Result<std::vector<Qp>> ListQps(std::string_view name) override {
    if (name == "rue1") return nl::Error{ENODEV, "no such rue device"};
    return FakeBackend::ListQps(name);
  }
};

TEST_F(QpTest, DeviceGoneMeanwhileIsSkipped) {
  VanishingBackend backend;
  Context context{options_, backend, out_};
  Args args({});
  ASSERT_TRUE(RunQp(context, args).ok());
  EXPECT_EQ(out_.str(), kRue0Qps);
}

TEST_F(QpTest, DeviceNotFound) {
  nl::Status s = Run({"show", "rue9"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(QpTest, BackendErrorsPassThrough) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  nl::Status s = Run({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rue kernel module not loaded (modprobe rue)");
}

TEST_F(QpTest, OldModule) {
  backend_.FailWith({EOPNOTSUPP, ""});
  nl::Status s = Run({"show", "rue0"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EOPNOTSUPP);
  EXPECT_EQ(s.error().message,
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(QpTest, ExtraArgument) {
  nl::Status s = Run({"show", "rue0", "17"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unexpected argument \"17\"");
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(QpTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl qp [ ")) << out_.str();
  EXPECT_NE(out_.str().find("\nExamples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(QpTest, UnknownCommand) {
  nl::Status s = Run({"frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl qp help\"");
}

}  // namespace
}  // namespace rue::cli
