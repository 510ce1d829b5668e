// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_cmd.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

class JobTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string_view> words) {
    Args args(std::move(words));
    return RunJob(context_, args);
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

constexpr char kAllJobs[] =
    "dev rue0 job 42 uid 1000 bound 2\n"
    "dev rue0 job 43 gid 100 bound 0\n"
    "dev rue1 job 7 bound 0\n";

TEST_F(JobTest, ShowIsTheDefaultAndCoversEveryDeviceInOneRequest) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_EQ(out_.str(), kAllJobs);
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(JobTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "dev rue1 job 7 bound 0\n");
}

TEST_F(JobTest, ShowOneJobAsJson) {
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue0", "43"}).ok());
  EXPECT_EQ(out_.str(),
            "[{\"dev\":\"rue0\",\"job\":43,\"gid\":100,\"bound\":0}]\n");
}

TEST_F(JobTest, ShowErrors) {
  EXPECT_EQ(Fails({"show", "rue9"}, ENODEV), "device \"rue9\" not found");
  EXPECT_EQ(Fails({"show", "rue9", "1"}, ENODEV), "device \"rue9\" not found");
  EXPECT_EQ(Fails({"show", "rue0", "44"}, ENOENT),
            "no job 44 on device \"rue0\"");
  EXPECT_EQ(Fails({"show", "rue0", "0"}, EINVAL),
            "bad job ID \"0\": job IDs are 1 to 16777215 (24 bits)");
  EXPECT_EQ(Fails({"show", "rue0", "42", "x"}, EINVAL),
            "unexpected argument \"x\"");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(JobTest, AddThenShowThenDel) {
  ASSERT_TRUE(Run({"add", "rue1", "16777215", "uid", "0", "gid", "5"}).ok());
  ASSERT_TRUE(Run({"show", "rue1", "16777215"}).ok());
  EXPECT_EQ(out_.str(), "dev rue1 job 16777215 uid 0 gid 5 bound 0\n");
  ASSERT_TRUE(Run({"del", "rue1", "16777215"}).ok());
  EXPECT_EQ(Fails({"show", "rue1", "16777215"}, ENOENT),
            "no job 16777215 on device \"rue1\"");
}

TEST_F(JobTest, AddTakesTheIssuesSpelling) {
  ASSERT_TRUE(Run({"add", "rue1", "8", "--uid", "1000"}).ok());
  EXPECT_EQ(backend_.jobs().back(), (Job{1, "rue1", 8, 1000, std::nullopt, 0}));
}

TEST_F(JobTest, AddErrors) {
  EXPECT_EQ(Fails({"add"}, EINVAL), "missing DEV");
  EXPECT_EQ(Fails({"add", "rue0"}, EINVAL), "missing job ID");
  EXPECT_EQ(Fails({"add", "rue0", "16777216"}, EINVAL),
            "bad job ID \"16777216\": job IDs are 1 to 16777215 (24 bits)");
  EXPECT_EQ(Fails({"add", "rue0", "5", "uid", "nobody-at-all"}, EINVAL),
            "bad uid \"nobody-at-all\": no user of that name");
  EXPECT_EQ(backend_.requests(), 0);  // all refused before asking
  EXPECT_EQ(Fails({"add", "rue9", "5"}, ENODEV), "device \"rue9\" not found");
  EXPECT_EQ(Fails({"add", "rue0", "42"}, EEXIST),
            "device \"rue0\" has job 42 already");
}

TEST_F(JobTest, DelErrors) {
  EXPECT_EQ(Fails({"del", "rue0"}, EINVAL), "missing job ID");
  EXPECT_EQ(Fails({"del", "rue0", "43", "44"}, EINVAL),
            "unexpected argument \"44\"");
  EXPECT_EQ(Fails({"del", "rue0", "44"}, ENOENT),
            "no job 44 on device \"rue0\"");
  EXPECT_EQ(Fails({"del", "rue0", "42"}, EBUSY),
            "job 42 on device \"rue0\" is in use: QPs are bound to it");
  EXPECT_EQ(Fails({"del", "rue9", "42"}, ENODEV), "device \"rue9\" not found");
}

TEST_F(JobTest, PermissionDeniedSaysWhatIsNeeded) {
  backend_.FailWith({EPERM, ""});
  EXPECT_EQ(Fails({"add", "rue0", "5"}, EPERM),
            "Operation not permitted (adding a job needs CAP_NET_ADMIN)");
  EXPECT_EQ(Fails({"del", "rue0", "43"}, EPERM),
            "Operation not permitted (deleting a job needs CAP_NET_ADMIN)");
}

TEST_F(JobTest, ModuleNotLoadedIsNotNoSuchJob) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  EXPECT_EQ(Fails({"del", "rue0", "43"}, ENOENT), kModuleNotLoaded);
  EXPECT_EQ(Fails({"show", "rue0", "43"}, ENOENT), kModuleNotLoaded);
  EXPECT_EQ(Fails({}, ENOENT), kModuleNotLoaded);
}

TEST_F(JobTest, OldModule) {
  backend_.FailWith({EOPNOTSUPP, ""});
  EXPECT_EQ(Fails({"add", "rue0", "5"}, EOPNOTSUPP),
            "rue kernel module too old for this command; load a newer one");
  EXPECT_EQ(Fails({"show"}, EOPNOTSUPP),
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(JobTest, KernelsOtherRefusalsPassThrough) {
  backend_.FailWith({EINVAL, "uid not valid in the caller's user namespace"});
  EXPECT_EQ(Fails({"add", "rue0", "5", "uid", "123"}, EINVAL),
            "uid not valid in the caller's user namespace");
}

TEST_F(JobTest, Help) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_NE(out_.str().find("ruectl job add DEV ID [ uid USER ] [ gid GROUP ]"),
            std::string::npos);
  EXPECT_NE(out_.str().find("Examples:"), std::string::npos);
}

}  // namespace
}  // namespace rue::cli
