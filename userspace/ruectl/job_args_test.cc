// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_args.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace rue::cli {
namespace {

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

nl::Result<JobGrant> Grant(std::vector<std::string_view> words) {
  Args args(std::move(words));
  return ParseJobGrant(args);
}

TEST(ParseJobGrantTest, IdAlone) {
  nl::Result<JobGrant> g = Grant({"42"});
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(*g, (JobGrant{42, std::nullopt, std::nullopt}));
}

TEST(ParseJobGrantTest, UidAndGidInAnyOrderAndSpelling) {
  EXPECT_EQ(*Grant({"42", "uid", "1000", "gid", "100"}),
            (JobGrant{42, 1000, 100}));
  EXPECT_EQ(*Grant({"42", "gid", "100", "uid", "1000"}),
            (JobGrant{42, 1000, 100}));
  EXPECT_EQ(*Grant({"42", "--uid", "1000"}),
            (JobGrant{42, 1000, std::nullopt}));
  EXPECT_EQ(*Grant({"42", "--gid", "root"}), (JobGrant{42, std::nullopt, 0}));
}

TEST(ParseJobGrantTest, Errors) {
  struct {
    std::vector<std::string_view> words;
    const char* message;
  } cases[] = {
      {{}, "missing job ID"},
      {{"0"}, "bad job ID \"0\": job IDs are 1 to 16777215 (24 bits)"},
      {{"42", "uid"}, "missing uid value"},
      {{"42", "uid", "1", "uid", "2"}, "uid given twice"},
      {{"42", "--gid", "1", "gid", "2"}, "gid given twice"},
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

}  // namespace
}  // namespace rue::cli
