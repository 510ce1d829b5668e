// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/counts.h"

#include <gtest/gtest.h>

#include "ruedump/json_output.h"

namespace rue::dump {
namespace {

TEST(CountsTest, AddAndSummaries) {
  Counts c;
  EXPECT_TRUE(c.Clean());
  for (Verdict v : {Verdict::kRoceOk, Verdict::kRoceOk, Verdict::kRoceBadIcrc,
                    Verdict::kUet, Verdict::kOther, Verdict::kOther,
                    Verdict::kOther, Verdict::kMalformed}) {
    c.Add(v);
  }
  EXPECT_FALSE(c.Clean());
  EXPECT_EQ(SummaryText(c),
            "8 packets: 3 roce (2 icrc ok, 1 bad), 1 uet, 3 other, "
            "1 malformed\n");
  EXPECT_EQ(RenderJson(SummaryRecord(c), false),
            R"({"summary":{"packets":8,"roce":3,"icrc-ok":2,"icrc-bad":1,)"
            R"("uet":1,"other":3,"malformed":1}})"
            "\n");
}

TEST(CountsTest, CleanUnlessMalformedOrBadIcrc) {
  Counts ok;
  ok.Add(Verdict::kRoceOk);
  ok.Add(Verdict::kUet);
  ok.Add(Verdict::kOther);
  EXPECT_TRUE(ok.Clean());
  Counts bad = ok;
  bad.Add(Verdict::kRoceBadIcrc);
  EXPECT_FALSE(bad.Clean());
  Counts malformed = ok;
  malformed.Add(Verdict::kMalformed);
  EXPECT_FALSE(malformed.Clean());
}

}  // namespace
}  // namespace rue::dump
