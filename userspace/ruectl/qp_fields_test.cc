// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl qp show" prints, text and JSON, for the sample QPs.
#include "ruectl/qp_fields.h"

#include <gtest/gtest.h>

#include <vector>

#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Qp& qp : testing::SampleQps()) records.push_back(QpRecord(qp));
  return records;
}

TEST(QpFieldsTest, Text) {
  EXPECT_EQ(RenderText(Records(), false),
            "dev rue0 qpn 1 type GSI state RTS prio 0 dscp 0\n"
            "dev rue0 qpn 17 type RC state RTS dest-qpn 18 prio 3 dscp 26 "
            "limited yes rate 12500 target 18750 alpha 512 cnp-sent 0 "
            "cnp-handled 4 ecn-marked 0 tx-bytes 1234567\n");
}

TEST(QpFieldsTest, TextDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).first(1), true),
            "dev rue0 dev-index 0 qpn 1 type GSI state RTS prio 0 dscp 0\n");
}

TEST(QpFieldsTest, Json) {
  EXPECT_EQ(RenderJson(Records(), false, false),
            "[{\"dev\":\"rue0\",\"qpn\":1,\"type\":\"GSI\",\"state\":\"RTS\","
            "\"prio\":0,\"dscp\":0},"
            "{\"dev\":\"rue0\",\"qpn\":17,\"type\":\"RC\",\"state\":\"RTS\","
            "\"dest-qpn\":18,\"prio\":3,\"dscp\":26,\"limited\":true,"
            "\"rate\":12500,\"target\":18750,\"alpha\":512,\"cnp-sent\":0,"
            "\"cnp-handled\":4,\"ecn-marked\":0,\"tx-bytes\":1234567}]\n");
}

TEST(QpFieldsTest, JsonPrettyDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).first(1), true, true),
            "[\n"
            "    {\n"
            "        \"dev\": \"rue0\",\n"
            "        \"dev-index\": 0,\n"
            "        \"qpn\": 1,\n"
            "        \"type\": \"GSI\",\n"
            "        \"state\": \"RTS\",\n"
            "        \"prio\": 0,\n"
            "        \"dscp\": 0\n"
            "    }\n"
            "]\n");
}

TEST(QpFieldsTest, NotLimitedAndUnknownEnums) {
  Qp qp;
  qp.dev = "rue1";
  qp.dev_index = 1;
  qp.qpn = 9;
  qp.type = 7;
  qp.state = 7;
  qp.limited = false;
  Record record = QpRecord(qp);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "dev rue1 qpn 9 type UNKNOWN state UNKNOWN limited no\n");
  EXPECT_EQ(RenderJson(std::span(&record, 1), false, false),
            "[{\"dev\":\"rue1\",\"qpn\":9,\"type\":\"UNKNOWN\","
            "\"state\":\"UNKNOWN\",\"limited\":false}]\n");
}

}  // namespace
}  // namespace rue::cli
