// SPDX-License-Identifier: GPL-2.0
#include "ruectl/match.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace rue::cli {
namespace {

constexpr std::string_view kNames[] = {"show", "set", "stat", "statistics",
                                       "help"};

TEST(MatchNameTest, Exact) {
  EXPECT_EQ(*MatchName(kNames, "set", "command"), 1u);
}

TEST(MatchNameTest, UniquePrefix) {
  EXPECT_EQ(*MatchName(kNames, "sh", "command"), 0u);
  EXPECT_EQ(*MatchName(kNames, "h", "command"), 4u);
  EXPECT_EQ(*MatchName(kNames, "stati", "command"), 3u);
}

TEST(MatchNameTest, ExactBeatsLongerNames) {
  EXPECT_EQ(*MatchName(kNames, "stat", "command"), 2u);
}

TEST(MatchNameTest, AmbiguousListsCandidates) {
  nl::Result<size_t> hit = MatchName(kNames, "s", "command");
  ASSERT_FALSE(hit.ok());
  EXPECT_EQ(hit.error().code, EINVAL);
  EXPECT_EQ(hit.error().message,
            "ambiguous command \"s\": show, set, stat, statistics");
  EXPECT_EQ(MatchName(kNames, "sta", "command").error().message,
            "ambiguous command \"sta\": stat, statistics");
}

TEST(MatchNameTest, Unknown) {
  nl::Result<size_t> hit = MatchName(kNames, "shows", "command");
  ASSERT_FALSE(hit.ok());
  EXPECT_EQ(hit.error().message, "unknown command \"shows\"");
}

TEST(MatchNameTest, EmptyWordMatchesNothing) {
  EXPECT_EQ(MatchName(kNames, "", "object").error().message,
            "unknown object \"\"");
}

}  // namespace
}  // namespace rue::cli
