// SPDX-License-Identifier: GPL-2.0
//
// The "job" object: its messages, its arguments, what "job show" prints,
// and its command lines.
#include "ruectl/job.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <sstream>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/cli.h"
#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// The messages.

constexpr uint16_t kFamily = 0x1d;

nl::MessageBuilder Reply() {
  nl::MessageBuilder m =
      nl::testing::MakeGenl(kFamily, RUE_CMD_JOB_GET, 1, NLM_F_MULTI);
  m.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  return m;
}

nl::Result<Job> Parse(const nl::MessageBuilder& m) {
  EXPECT_TRUE(m.ok());
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  EXPECT_TRUE(genl.ok());
  return ParseJob(genl->attrs);
}

TEST(ParseJobTest, ReadsWhatTheKernelSends) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest job = m.BeginNest(RUE_A_DEV_JOB);
  m.PutU32(RUE_A_JOB_ID, 42).PutU32(RUE_A_JOB_UID, 1000);
  m.PutU32(RUE_A_JOB_BOUND, 2);
  m.EndNest(job);
  nl::Result<Job> parsed = Parse(m);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, testing::SampleJobs()[0]);
}

TEST(ParseJobTest, AbsentGrantsStayAbsentAndUnknownAttributesAreSkipped) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest job = m.BeginNest(RUE_A_DEV_JOB);
  m.PutU32(RUE_A_JOB_ID, 7).PutU32(RUE_A_JOB_MAX + 1, 99);
  m.EndNest(job);
  nl::Result<Job> parsed = Parse(m);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->id, 7u);
  EXPECT_FALSE(parsed->uid);
  EXPECT_FALSE(parsed->gid);
  EXPECT_FALSE(parsed->bound);
}

TEST(ParseJobTest, MissingOrMalformed) {
  nl::MessageBuilder no_nest = Reply();
  EXPECT_EQ(Parse(no_nest).error().code, EBADMSG);

  nl::MessageBuilder no_id = Reply();
  nl::MessageBuilder::Nest job = no_id.BeginNest(RUE_A_DEV_JOB);
  no_id.PutU32(RUE_A_JOB_UID, 1000);
  no_id.EndNest(job);
  nl::Result<Job> parsed = Parse(no_id);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, EBADMSG);
  EXPECT_NE(parsed.error().message.find("job-id"), std::string::npos)
      << parsed.error().message;

  nl::MessageBuilder short_uid = Reply();
  job = short_uid.BeginNest(RUE_A_DEV_JOB);
  short_uid.PutU32(RUE_A_JOB_ID, 1).PutU8(RUE_A_JOB_UID, 1);
  short_uid.EndNest(job);
  EXPECT_EQ(Parse(short_uid).error().code, EBADMSG);
}

// The attributes of a request, after the genlmsghdr; they point into
// `request`, which must outlive them.
struct Sent {
  uint8_t cmd;
  nl::AttrTable dev;
  nl::AttrTable job;
};

Sent Read(const nl::MessageBuilder& request) {
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(request.bytes());
  EXPECT_TRUE(genl.ok());
  const nl::AttrPolicy dev_policy[] = {
      {RUE_A_DEV_NAME, nl::AttrKind::kString, "name"},
      {RUE_A_DEV_JOB, nl::AttrKind::kNested, "job"},
  };
  const nl::AttrPolicy job_policy[] = {
      {RUE_A_JOB_ID, nl::AttrKind::kU32, "id"},
      {RUE_A_JOB_UID, nl::AttrKind::kU32, "uid"},
      {RUE_A_JOB_GID, nl::AttrKind::kU32, "gid"},
  };
  nl::Result<nl::AttrTable> dev = nl::AttrTable::Parse(genl->attrs, dev_policy);
  EXPECT_TRUE(dev.ok());
  nl::Result<nl::AttrTable> job =
      nl::AttrTable::Parse(dev->Payload(RUE_A_DEV_JOB), job_policy);
  EXPECT_TRUE(job.ok());
  return Sent{genl->cmd, *dev, *job};
}

TEST(JobRequestTest, NewCarriesIdAndOnlyTheGrantsGiven) {
  nl::MessageBuilder r =
      JobNewRequest(kFamily, "rue0", JobGrant{42, 1000, std::nullopt});
  Sent s = Read(r);
  EXPECT_EQ(s.cmd, RUE_CMD_JOB_NEW);
  EXPECT_EQ(s.dev.Str(RUE_A_DEV_NAME), "rue0");
  EXPECT_EQ(s.job.U32(RUE_A_JOB_ID), 42u);
  EXPECT_EQ(s.job.U32(RUE_A_JOB_UID), 1000u);
  EXPECT_FALSE(s.job.Has(RUE_A_JOB_GID));

  nl::MessageBuilder r2 =
      JobNewRequest(kFamily, "rue1", JobGrant{7, std::nullopt, 0});
  Sent s2 = Read(r2);
  EXPECT_FALSE(s2.job.Has(RUE_A_JOB_UID));
  EXPECT_TRUE(s2.job.Has(RUE_A_JOB_GID));
  EXPECT_EQ(s2.job.U32(RUE_A_JOB_GID, 99), 0u);
}

TEST(JobRequestTest, DelAndGet) {
  nl::MessageBuilder del = JobDelRequest(kFamily, "rue0", 42);
  Sent s = Read(del);
  EXPECT_EQ(s.cmd, RUE_CMD_JOB_DEL);
  EXPECT_EQ(s.job.U32(RUE_A_JOB_ID), 42u);
  nl::MessageBuilder get = JobGetRequest(kFamily, "rue0", 16777215);
  Sent g = Read(get);
  EXPECT_EQ(g.cmd, RUE_CMD_JOB_GET);
  EXPECT_EQ(g.job.U32(RUE_A_JOB_ID), 16777215u);
}

TEST(JobRequestTest, DumpNamesTheDeviceOrNone) {
  nl::MessageBuilder one = JobDumpRequest(kFamily, "rue1");
  Sent s = Read(one);
  EXPECT_EQ(s.cmd, RUE_CMD_JOB_GET);
  EXPECT_EQ(s.dev.Str(RUE_A_DEV_NAME), "rue1");
  EXPECT_FALSE(s.dev.Has(RUE_A_DEV_JOB));
  nl::MessageBuilder all = JobDumpRequest(kFamily, std::nullopt);
  Sent a = Read(all);
  EXPECT_FALSE(a.dev.Has(RUE_A_DEV_NAME));
}

// The arguments.

TEST(ParseJobIdTest, TakesTwentyFourBitsButZero) {
  EXPECT_EQ(*ParseJobId("1"), 1u);
  EXPECT_EQ(*ParseJobId("42"), 42u);
  EXPECT_EQ(*ParseJobId("16777215"), 0xffffffu);
}

TEST(ParseJobIdTest, RefusesTheRest) {
  for (const char* bad :
       {"0", "16777216", "4294967296", "-1", "0x10", "", "4 2", "abc"}) {
    nl::Result<uint32_t> id = ParseJobId(bad);
    ASSERT_FALSE(id.ok()) << bad;
    EXPECT_EQ(id.error().code, EINVAL);
    EXPECT_EQ(id.error().message, "bad job ID \"" + std::string(bad) +
                                      "\": job IDs are 1 to 16777215 "
                                      "(24 bits)");
  }
}

TEST(ParseUidTest, NumbersAndNames) {
  EXPECT_EQ(*ParseUid("0"), 0u);
  EXPECT_EQ(*ParseUid("1000"), 1000u);
  EXPECT_EQ(*ParseUid("4294967294"), 4294967294u);
  // Every system has root, with UID 0, and the group root, GID 0.
  EXPECT_EQ(*ParseUid("root"), 0u);
  EXPECT_EQ(*ParseGid("root"), 0u);
}

TEST(ParseUidTest, BadUid) {
  nl::Result<uint32_t> uid = ParseUid("4294967295");
  ASSERT_FALSE(uid.ok());
  EXPECT_EQ(uid.error().code, EINVAL);
  EXPECT_EQ(uid.error().message,
            "bad uid \"4294967295\": a number from 0 to 4294967294 or a user "
            "name");
  uid = ParseUid("no-such-user-rue");
  ASSERT_FALSE(uid.ok());
  EXPECT_EQ(uid.error().message,
            "bad uid \"no-such-user-rue\": no user of that name");
  EXPECT_FALSE(ParseUid("").ok());
  EXPECT_EQ(ParseGid("no-such-group-rue").error().message,
            "bad gid \"no-such-group-rue\": no group of that name");
}

nl::Result<JobGrant> Grant(std::vector<std::string> words) {
  Args args(std::move(words));
  return ParseJobGrant(args);
}

TEST(ParseJobGrantTest, IdAlone) {
  nl::Result<JobGrant> g = Grant({"42"});
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(*g, (JobGrant{42, std::nullopt, std::nullopt}));
}

TEST(ParseJobGrantTest, UidAndGidInAnyOrder) {
  EXPECT_EQ(*Grant({"42", "uid", "1000", "gid", "100"}),
            (JobGrant{42, 1000, 100}));
  EXPECT_EQ(*Grant({"42", "gid", "100", "uid", "1000"}),
            (JobGrant{42, 1000, 100}));
}

TEST(ParseJobGrantTest, Errors) {
  struct {
    std::vector<std::string> words;
    const char* message;
  } cases[] = {
      {{}, "missing job ID"},
      {{"0"}, "bad job ID \"0\": job IDs are 1 to 16777215 (24 bits)"},
      {{"42", "uid"}, "missing uid value"},
      {{"42", "uid", "1", "uid", "2"}, "uid given twice"},
      {{"42", "gid", "1", "gid", "2"}, "gid given twice"},
      {{"42", "user", "1"},
       "unexpected argument \"user\"; expected uid or gid"},
      {{"42", "-u", "1"}, "unexpected argument \"-u\"; expected uid or gid"},
      {{"42", "uid", "-1"}, "bad uid \"-1\": no user of that name"},
  };
  for (const auto& c : cases) {
    nl::Result<JobGrant> g = Grant(c.words);
    ASSERT_FALSE(g.ok()) << c.message;
    EXPECT_EQ(g.error().code, EINVAL);
    EXPECT_EQ(g.error().message, c.message);
  }
}

// The fields.

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Job& job : testing::SampleJobs())
    records.push_back(JobRecord(job));
  return records;
}

TEST(JobFieldsTest, Text) {
  EXPECT_EQ(RenderText(Records(), false),
            "dev rue0 job 42 uid 1000 bound 2\n"
            "dev rue0 job 43 gid 100 bound 0\n"
            "dev rue1 job 7 bound 0\n");
}

TEST(JobFieldsTest, DetailsAddTheDeviceIndex) {
  EXPECT_EQ(RenderText(Records(), true),
            "dev rue0 dev-index 0 job 42 uid 1000 bound 2\n"
            "dev rue0 dev-index 0 job 43 gid 100 bound 0\n"
            "dev rue1 dev-index 1 job 7 bound 0\n");
}

TEST(JobFieldsTest, JsonHasTheSameKeys) {
  EXPECT_EQ(RenderJson(Records(), false, false),
            "[{\"dev\":\"rue0\",\"job\":42,\"uid\":1000,\"bound\":2},"
            "{\"dev\":\"rue0\",\"job\":43,\"gid\":100,\"bound\":0},"
            "{\"dev\":\"rue1\",\"job\":7,\"bound\":0}]\n");
}

TEST(JobFieldsTest, UnreportedCountIsNotZero) {
  Job job = testing::SampleJobs()[2];
  job.bound.reset();
  EXPECT_EQ(RenderText(std::vector<Record>{JobRecord(job)}, false),
            "dev rue1 job 7\n");
}

// The commands.

class JobTest : public testing::ObjectTest {
 protected:
  JobTest() : ObjectTest("job") {}
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

// --uid and --gid are CLI11's options, anywhere after "add".
TEST_F(JobTest, AddTakesTheIssuesSpelling) {
  ASSERT_TRUE(Run({"add", "rue1", "8", "--uid", "1000"}).ok());
  EXPECT_EQ(backend_.jobs().back(), (Job{1, "rue1", 8, 1000, std::nullopt, 0}));
  ASSERT_TRUE(Run({"add", "--gid", "root", "rue1", "9"}).ok());
  EXPECT_EQ(backend_.jobs().back(), (Job{1, "rue1", 9, std::nullopt, 0, 0}));
  ASSERT_TRUE(Run({"add", "rue1", "10", "gid", "5", "--uid", "7"}).ok());
  EXPECT_EQ(backend_.jobs().back(), (Job{1, "rue1", 10, 7, 5, 0}));
}

TEST_F(JobTest, AddOwnerGivenTwiceEitherWay) {
  EXPECT_EQ(Fails({"add", "rue0", "8", "--gid", "1", "gid", "2"}, EINVAL),
            "gid given twice");
  EXPECT_EQ(Fails({"add", "rue0", "8", "uid", "1", "--uid", "2"}, EINVAL),
            "uid given twice");
  EXPECT_EQ(Fails({"add", "rue0", "8", "--uid", "1", "--uid", "2"}, EINVAL),
            "uid given twice");
  EXPECT_EQ(Fails({"add", "rue0", "8", "-u", "1"}, EINVAL),
            "unexpected argument \"-u\"");
  EXPECT_EQ(backend_.requests(), 0);
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
