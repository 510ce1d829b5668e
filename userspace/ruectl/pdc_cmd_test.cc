// SPDX-License-Identifier: GPL-2.0
#include "ruectl/pdc_cmd.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

class PdcTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string_view> words) {
    Args args(std::move(words));
    return RunPdc(context_, args);
  }

  // Runs `words`, which must fail with `code`, and returns the message.
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

constexpr char kRue1Pdcs[] =
    "dev rue1 pdc 3 role initiator mode RUD peer 10.4.0.1 peer-pdc 0 job 42 "
    "qpn 20 syn yes closing no\n"
    "    next-psn 1 una-psn 0 srtt-us 0 rto-us 1000 retries 0 cwnd 0\n";

TEST_F(PdcTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), kRue1Pdcs);
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(PdcTest, ShowIsTheDefaultAndCoversEveryDeviceInOneRequest) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_TRUE(out_.str().starts_with("dev rue0 pdc 1 role initiator "))
      << out_.str();
  EXPECT_NE(out_.str().find("dev rue0 pdc 2 role target "), std::string::npos);
  EXPECT_TRUE(out_.str().ends_with(kRue1Pdcs)) << out_.str();
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(PdcTest, DeviceWithoutPdcs) {
  testing::FakeBackend backend(testing::SampleDevices(), testing::SampleCc(),
                               testing::SampleQps(), {testing::SampleCcPrio3()},
                               testing::SampleJobs(), {});
  Context context{options_, backend, out_};
  Args text({"show", "rue0"});
  ASSERT_TRUE(RunPdc(context, text).ok());
  EXPECT_EQ(out_.str(), "");
  options_.json = true;
  Args json({"show", "rue0"});
  ASSERT_TRUE(RunPdc(context, json).ok());
  EXPECT_EQ(out_.str(), "[]\n");
}

TEST_F(PdcTest, Json) {
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(),
            "[{\"dev\":\"rue1\",\"pdc\":3,\"role\":\"initiator\","
            "\"mode\":\"RUD\",\"peer\":\"10.4.0.1\",\"peer-pdc\":0,"
            "\"job\":42,\"qpn\":20,\"syn\":true,\"closing\":false,"
            "\"next-psn\":1,\"una-psn\":0,\"srtt-us\":0,\"rto-us\":1000,"
            "\"retries\":0,\"cwnd\":0}]\n");
}

TEST_F(PdcTest, Errors) {
  EXPECT_EQ(Fails({"show", "rue9"}, ENODEV), "device \"rue9\" not found");
  EXPECT_EQ(Fails({"show", "rue0", "1"}, EINVAL), "unexpected argument \"1\"");
  EXPECT_EQ(Fails({"frob"}, EINVAL),
            "unknown command \"frob\"; try \"ruectl pdc help\"");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(PdcTest, ModuleNotLoadedOrTooOld) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  EXPECT_EQ(Fails({}, ENOENT), kModuleNotLoaded);
  backend_.FailWith({EOPNOTSUPP, ""});
  EXPECT_EQ(Fails({"show", "rue0"}, EOPNOTSUPP),
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(PdcTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl pdc [ ")) << out_.str();
  EXPECT_NE(out_.str().find("\nExamples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

}  // namespace
}  // namespace rue::cli
