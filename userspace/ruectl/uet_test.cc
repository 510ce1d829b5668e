// SPDX-License-Identifier: GPL-2.0
//
// The "uet" object: its messages, what "uet stats" prints, and its command
// lines.
#include "ruectl/uet.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <sstream>
#include <utility>
#include <vector>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// The messages.

constexpr uint16_t kFamily = 0x1d;

using Counters = std::vector<std::pair<std::string_view, uint64_t>>;

// A reply for rue0 whose nest holds `counters`, each a name and a value
// with the pad attribute nla_put_u64_64bit() may add before it.
nl::MessageBuilder Reply(const Counters& counters) {
  nl::MessageBuilder m =
      nl::testing::MakeGenl(kFamily, RUE_CMD_UET_STATS_GET, 1);
  m.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  nl::MessageBuilder::Nest stats = m.BeginNest(RUE_A_DEV_UET_STATS);
  for (const auto& [name, value] : counters) {
    nl::MessageBuilder::Nest stat = m.BeginNest(RUE_A_DEV_UET_STAT);
    m.PutString(RUE_A_UET_STAT_NAME, name);
    m.PutBytes(RUE_A_UET_STAT_PAD, {});
    m.PutU64(RUE_A_UET_STAT_VALUE, value);
    m.EndNest(stat);
  }
  m.EndNest(stats);
  return m;
}

nl::Result<UetStats> Parse(const nl::MessageBuilder& m) {
  EXPECT_TRUE(m.ok());
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  EXPECT_TRUE(genl.ok());
  return ParseUetStats(genl->attrs);
}

TEST(ParseUetStatsTest, ReadsEveryCounterInOrder) {
  nl::Result<UetStats> parsed =
      Parse(Reply({{"pdc_opened", 3}, {"pdc_closed", 1}, {"acks_rcvd", 10}}));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, testing::SampleUetStats()[0]);
}

TEST(ParseUetStatsTest, EmptyNestAndUnknownAttributes) {
  nl::MessageBuilder m = Reply({});
  m.PutU32(RUE_A_DEV_MAX + 1, 5);
  nl::Result<UetStats> parsed = Parse(m);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_TRUE(parsed->counters.empty());
  EXPECT_EQ(parsed->dev, "rue0");
}

TEST(ParseUetStatsTest, FullRangeValues) {
  nl::Result<UetStats> parsed = Parse(Reply({{"big", UINT64_MAX}}));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->counters[0].value, UINT64_MAX);
}

std::string Refused(const nl::MessageBuilder& m) {
  nl::Result<UetStats> parsed = Parse(m);
  EXPECT_FALSE(parsed.ok());
  if (parsed.ok()) return "";
  EXPECT_EQ(parsed.error().code, EBADMSG);
  return parsed.error().message;
}

TEST(ParseUetStatsTest, MissingOrMalformed) {
  nl::MessageBuilder no_nest =
      nl::testing::MakeGenl(kFamily, RUE_CMD_UET_STATS_GET, 1);
  no_nest.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  EXPECT_NE(Refused(no_nest).find("dev-uet-stats"), std::string::npos);

  EXPECT_EQ(Refused(Reply({{"", 1}})),
            "attribute \"uet-stat-name\" (1): empty");
  EXPECT_EQ(Refused(Reply({{"acks_rcvd", 1}, {"acks_rcvd", 2}})),
            "attribute \"uet-stat-name\" (1): \"acks_rcvd\" twice");

  nl::MessageBuilder m =
      nl::testing::MakeGenl(kFamily, RUE_CMD_UET_STATS_GET, 1);
  m.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  nl::MessageBuilder::Nest stats = m.BeginNest(RUE_A_DEV_UET_STATS);
  nl::MessageBuilder::Nest stat = m.BeginNest(RUE_A_DEV_UET_STAT);
  m.PutString(RUE_A_UET_STAT_NAME, "syn_sent");
  m.EndNest(stat);
  m.EndNest(stats);
  EXPECT_NE(Refused(m).find("uet-stat-value"), std::string::npos);

  nl::MessageBuilder narrow =
      nl::testing::MakeGenl(kFamily, RUE_CMD_UET_STATS_GET, 1);
  narrow.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  stats = narrow.BeginNest(RUE_A_DEV_UET_STATS);
  stat = narrow.BeginNest(RUE_A_DEV_UET_STAT);
  narrow.PutString(RUE_A_UET_STAT_NAME, "syn_sent");
  narrow.PutU32(RUE_A_UET_STAT_VALUE, 1);
  narrow.EndNest(stat);
  narrow.EndNest(stats);
  EXPECT_NE(Refused(narrow).find("uet-stat-value"), std::string::npos);
}

TEST(UetStatsRequestTest, DoNamesTheDeviceDumpNone) {
  const nl::AttrPolicy policy[] = {
      {RUE_A_DEV_NAME, nl::AttrKind::kString, "name"},
  };
  nl::MessageBuilder one = UetStatsRequest(kFamily, "rue1");
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(one.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_EQ(genl->cmd, RUE_CMD_UET_STATS_GET);
  nl::Result<nl::AttrTable> attrs = nl::AttrTable::Parse(genl->attrs, policy);
  ASSERT_TRUE(attrs.ok());
  EXPECT_EQ(attrs->Str(RUE_A_DEV_NAME), "rue1");

  nl::MessageBuilder all = UetStatsRequest(kFamily, std::nullopt);
  genl = nl::ParseGenl(all.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_EQ(genl->cmd, RUE_CMD_UET_STATS_GET);
  EXPECT_TRUE(genl->attrs.empty());
}

// The fields.

class UetFieldsTest : public ::testing::Test {
 protected:
  std::vector<Record> Records() {
    std::vector<Record> records;
    for (const UetStats& s : stats_) records.push_back(UetStatsRecord(s));
    return records;
  }

  // The records borrow the names from here.
  std::vector<UetStats> stats_ = testing::SampleUetStats();
};

TEST_F(UetFieldsTest, TextOneCounterALineInTheKernelsOrder) {
  EXPECT_EQ(RenderText(Records(), false),
            "0: rue0:\n"
            "    pdc_opened 3\n"
            "    pdc_closed 1\n"
            "    acks_rcvd 10\n"
            "1: rue1:\n"
            "    pdc_opened 0\n");
}

TEST_F(UetFieldsTest, JsonKeysAreTheKernelsNames) {
  EXPECT_EQ(RenderJson(Records(), false, false),
            "[{\"index\":0,\"name\":\"rue0\",\"pdc_opened\":3,"
            "\"pdc_closed\":1,\"acks_rcvd\":10},"
            "{\"index\":1,\"name\":\"rue1\",\"pdc_opened\":0}]\n");
}

TEST_F(UetFieldsTest, NamesWeHaveNeverSeenAndLargeValues) {
  stats_ = {UetStats{4, "rue4", {{"from_a_newer_kernel", UINT64_MAX}}}};
  EXPECT_EQ(RenderText(Records(), false),
            "4: rue4:\n    from_a_newer_kernel 18446744073709551615\n");
}

TEST_F(UetFieldsTest, NoCounters) {
  stats_ = {UetStats{2, "rue2", {}}};
  EXPECT_EQ(RenderText(Records(), false), "2: rue2:\n");
  EXPECT_EQ(RenderJson(Records(), false, false),
            "[{\"index\":2,\"name\":\"rue2\"}]\n");
}

// The command.

class UetTest : public testing::ObjectTest {
 protected:
  UetTest() : ObjectTest("uet") {}
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
