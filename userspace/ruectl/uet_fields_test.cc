// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl uet stats" prints, text and JSON, for the sample counters.
#include "ruectl/uet_fields.h"

#include <gtest/gtest.h>

#include <vector>

#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
