// SPDX-License-Identifier: GPL-2.0
//
// Jobs on the wire: JOB_GET replies built here as the kernel sends them,
// and the requests ruectl sends, read back attribute by attribute.
#include "ruectl/job_attrs.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>

#include <cerrno>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
