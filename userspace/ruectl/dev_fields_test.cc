// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl dev show" prints, text and JSON, for the sample devices.
#include "ruectl/dev_fields.h"

#include <gtest/gtest.h>

#include <vector>

#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const Device& d : testing::SampleDevices())
    records.push_back(DeviceRecord(d));
  return records;
}

TEST(DevFieldsTest, Text) {
  EXPECT_EQ(RenderText(Records(), false),
            "0: rue0: netdev eth0 port-state ACTIVE phys-state LINK_UP "
            "active-mtu 1024 netdev-mtu 1500 node-guid 5254:00ff:fe12:3456\n"
            "    0: gid fe80::5054:ff:fe12:3456 type RoCEv1\n"
            "    1: gid fe80::5054:ff:fe12:3456 type RoCEv2\n"
            "    2: gid ::ffff:192.0.2.1 type RoCEv2\n"
            "1: rue1: netdev eth1 port-state DOWN phys-state DISABLED "
            "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n");
}

TEST(DevFieldsTest, TextDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).subspan(1), true),
            "1: rue1: netdev eth1 netdev-index 3 port-state DOWN phys-state "
            "DISABLED active-mtu 4096 netdev-mtu 9000 "
            "node-guid 5254:00ff:fe65:4321\n");
}

TEST(DevFieldsTest, Json) {
  EXPECT_EQ(
      RenderJson(Records(), false, false),
      "[{\"index\":0,\"name\":\"rue0\",\"netdev\":\"eth0\","
      "\"port-state\":\"ACTIVE\",\"phys-state\":\"LINK_UP\","
      "\"active-mtu\":1024,\"netdev-mtu\":1500,"
      "\"node-guid\":\"5254:00ff:fe12:3456\",\"gids\":["
      "{\"index\":0,\"gid\":\"fe80::5054:ff:fe12:3456\",\"type\":\"RoCEv1\"},"
      "{\"index\":1,\"gid\":\"fe80::5054:ff:fe12:3456\",\"type\":\"RoCEv2\"},"
      "{\"index\":2,\"gid\":\"::ffff:192.0.2.1\",\"type\":\"RoCEv2\"}]},"
      "{\"index\":1,\"name\":\"rue1\",\"netdev\":\"eth1\","
      "\"port-state\":\"DOWN\",\"phys-state\":\"DISABLED\","
      "\"active-mtu\":4096,\"netdev-mtu\":9000,"
      "\"node-guid\":\"5254:00ff:fe65:4321\",\"gids\":[]}]\n");
}

TEST(DevFieldsTest, JsonPrettyDetails) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).subspan(1), true, true),
            "[\n"
            "    {\n"
            "        \"index\": 1,\n"
            "        \"name\": \"rue1\",\n"
            "        \"netdev\": \"eth1\",\n"
            "        \"netdev-index\": 3,\n"
            "        \"port-state\": \"DOWN\",\n"
            "        \"phys-state\": \"DISABLED\",\n"
            "        \"active-mtu\": 4096,\n"
            "        \"netdev-mtu\": 9000,\n"
            "        \"node-guid\": \"5254:00ff:fe65:4321\",\n"
            "        \"gids\": []\n"
            "    }\n"
            "]\n");
}

TEST(DevFieldsTest, UnknownEnumsPrintUnknown) {
  Device d = testing::SampleDevices()[1];
  d.port_state = 9;
  d.phys_state = 0;
  d.gids = {{0, {}, 7}};
  Record record = DeviceRecord(d);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "1: rue1: netdev eth1 port-state UNKNOWN phys-state UNKNOWN "
            "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n"
            "    0: gid :: type UNKNOWN\n");
}

}  // namespace
}  // namespace rue::cli
