// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl pdc show" prints, text and JSON, for the sample PDCs.
#include "ruectl/pdc_fields.h"

#include <gtest/gtest.h>

#include <vector>

#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Pdc& pdc : testing::SamplePdcs())
    records.push_back(PdcRecord(pdc));
  return records;
}

// The initiator's send state and the target's receive state each go on a
// second line; neither shows the other's fields.
TEST(PdcFieldsTest, Text) {
  EXPECT_EQ(
      RenderText(Records(), false),
      "dev rue0 pdc 1 role initiator mode RUD peer 10.4.0.2 peer-pdc 5 "
      "job 42 qpn 17 syn no closing no\n"
      "    next-psn 105 una-psn 100 srtt-us 120 rto-us 1000 retries 0 "
      "cwnd 0\n"
      "dev rue0 pdc 2 role target mode ROD peer fd00::2 peer-pdc 9 "
      "job 42\n"
      "    rx-next-psn 7\n"
      "dev rue1 pdc 3 role initiator mode RUD peer 10.4.0.1 peer-pdc 0 "
      "job 42 qpn 20 syn yes closing no\n"
      "    next-psn 1 una-psn 0 srtt-us 0 rto-us 1000 retries 0 cwnd 0\n");
}

TEST(PdcFieldsTest, TextDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).subspan(1, 1), true),
            "dev rue0 dev-index 0 pdc 2 role target mode ROD peer fd00::2 "
            "peer-pdc 9 job 42\n"
            "    rx-next-psn 7\n");
}

TEST(PdcFieldsTest, Json) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).first(2), false, false),
            "[{\"dev\":\"rue0\",\"pdc\":1,\"role\":\"initiator\","
            "\"mode\":\"RUD\",\"peer\":\"10.4.0.2\",\"peer-pdc\":5,"
            "\"job\":42,\"qpn\":17,\"syn\":false,\"closing\":false,"
            "\"next-psn\":105,\"una-psn\":100,\"srtt-us\":120,"
            "\"rto-us\":1000,\"retries\":0,\"cwnd\":0},"
            "{\"dev\":\"rue0\",\"pdc\":2,\"role\":\"target\",\"mode\":\"ROD\","
            "\"peer\":\"fd00::2\",\"peer-pdc\":9,\"job\":42,"
            "\"rx-next-psn\":7}]\n");
}

TEST(PdcFieldsTest, OnlyTheIdAndUnknownEnums) {
  Pdc pdc;
  pdc.dev = "rue1";
  pdc.dev_index = 1;
  pdc.local_id = 65535;
  Record bare = PdcRecord(pdc);
  EXPECT_EQ(RenderText(std::span(&bare, 1), false), "dev rue1 pdc 65535\n");
  pdc.role = 2;
  pdc.mode = 9;
  Record odd = PdcRecord(pdc);
  EXPECT_EQ(RenderJson(std::span(&odd, 1), false, false),
            "[{\"dev\":\"rue1\",\"pdc\":65535,\"role\":\"UNKNOWN\","
            "\"mode\":\"UNKNOWN\"}]\n");
}

}  // namespace
}  // namespace rue::cli
