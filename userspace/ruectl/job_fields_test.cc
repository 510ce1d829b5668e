// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_fields.h"

#include <gtest/gtest.h>

#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
