// SPDX-License-Identifier: GPL-2.0
//
// What "ruectl cc show" prints, text and JSON, for the sample devices.
#include "ruectl/cc_fields.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "ruectl/cc_params.h"
#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

std::vector<Record> Records() {
  std::vector<Record> records;
  for (const DeviceCc& d : testing::SampleCc()) records.push_back(CcRecord(d));
  return records;
}

constexpr char kRue0Text[] =
    "0: rue0:\n"
    "    ecn ect0 cnp-dscp 48 cnp-prio 6 np-enable 3,5-7 rp-enable 3,5-7\n"
    "    min-time-between-cnps 4 dcqcn-differ 3\n"
    "    prio 0 dce-tcp-g 1019 dce-tcp-rtt 1 initial-alpha 1023\n"
    "    rate-reduce-monitor-period 4 rpg-gd 11 rpg-min-dec-fac 50\n"
    "    rpg-min-rate 1 rpg-max-rate 0 rate-to-set-on-first-cnp 0\n"
    "    clamp-tgt-rate off clamp-tgt-rate-after-time-inc on\n"
    "    rpg-time-reset 300 rpg-byte-reset 32767 rpg-threshold 1\n"
    "    rpg-ai-rate 5 rpg-hai-rate 50 link-speed 25000\n"
    "    ets-tsa strict,strict,strict,ets,ets,strict,strict,strict\n"
    "    ets-weight 0,0,0,60,40,0,0,0\n"
    "    pfc-enable 3-4 pfc-xoff 65536 pfc-xon 32768 pfc-quanta 65535\n"
    "    pfc-paused none pfc-asserted 3\n";

TEST(CcFieldsTest, KeysAreTheParameterKeysInOrder) {
  Record record = CcRecord(testing::SampleCc()[0]);
  ASSERT_EQ(record.cells.size(), CcParams().size() + 2);
  EXPECT_EQ(record.cells[0].key, "index");
  EXPECT_EQ(record.cells[1].key, "name");
  for (size_t i = 0; i < CcParams().size(); ++i)
    EXPECT_EQ(record.cells[i + 2].key, CcParams()[i].key);
}

TEST(CcFieldsTest, Text) {
  EXPECT_EQ(RenderText(Records(), false), std::string(kRue0Text) +
                                              "1: rue1:\n"
                                              "    ecn off\n"
                                              "    link-speed 10000\n");
}

TEST(CcFieldsTest, TextDetailsAddTheDscpMap) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderText(std::span(records).first(1), true),
            std::string(kRue0Text) +
                "    dscp-prio 0-7:0,8-15:1,16-23:2,24-31:3,32-33:4,34:3,"
                "35-39:4,40-47:5,48-55:6,56-63:7\n");
}

TEST(CcFieldsTest, Json) {
  EXPECT_EQ(RenderJson(Records(), false, false),
            "[{\"index\":0,\"name\":\"rue0\",\"ecn\":\"ect0\","
            "\"cnp-dscp\":48,\"cnp-prio\":6,\"np-enable\":[3,5,6,7],"
            "\"rp-enable\":[3,5,6,7],\"min-time-between-cnps\":4,"
            "\"dcqcn-differ\":[3],\"prio\":0,\"dce-tcp-g\":1019,\"dce-tcp-"
            "rtt\":1,\"initial-alpha\":1023,"
            "\"rate-reduce-monitor-period\":4,\"rpg-gd\":11,"
            "\"rpg-min-dec-fac\":50,\"rpg-min-rate\":1,\"rpg-max-rate\":0,"
            "\"rate-to-set-on-first-cnp\":0,\"clamp-tgt-rate\":false,"
            "\"clamp-tgt-rate-after-time-inc\":true,\"rpg-time-reset\":300,"
            "\"rpg-byte-reset\":32767,\"rpg-threshold\":1,\"rpg-ai-rate\":5,"
            "\"rpg-hai-rate\":50,\"link-speed\":25000,"
            "\"ets-tsa\":[\"strict\",\"strict\",\"strict\",\"ets\",\"ets\","
            "\"strict\",\"strict\",\"strict\"],"
            "\"ets-weight\":[0,0,0,60,40,0,0,0],\"pfc-enable\":[3,4],"
            "\"pfc-xoff\":65536,\"pfc-xon\":32768,\"pfc-quanta\":65535,"
            "\"pfc-paused\":[],\"pfc-asserted\":[3]},"
            "{\"index\":1,\"name\":\"rue1\",\"ecn\":\"off\","
            "\"link-speed\":10000}]\n");
}

TEST(CcFieldsTest, JsonDetailsAddTheDscpMapAsAnArray) {
  std::vector<Record> records = Records();
  std::string json = RenderJson(std::span(records).first(1), true, false);
  EXPECT_NE(json.find("\"pfc-asserted\":[3],\"dscp-prio\":["
                      "0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,"
                      "3,3,3,3,3,3,3,3,4,4,3,4,4,4,4,4,5,5,5,5,5,5,5,5,"
                      "6,6,6,6,6,6,6,6,7,7,7,7,7,7,7,7]}]\n"),
            std::string::npos)
      << json;
}

TEST(CcFieldsTest, JsonPretty) {
  std::vector<Record> records = Records();
  EXPECT_EQ(RenderJson(std::span(records).subspan(1), true, true),
            "[\n"
            "    {\n"
            "        \"index\": 1,\n"
            "        \"name\": \"rue1\",\n"
            "        \"ecn\": \"off\",\n"
            "        \"link-speed\": 10000\n"
            "    }\n"
            "]\n");
}

// Priority 3's DCQCN parameters, as "cc show rue0 prio 3" gets them: the
// prio line heads them.
TEST(CcFieldsTest, TextOfAPriority) {
  Record record = CcRecord(testing::SampleCcPrio3());
  std::string text = RenderText(std::span(&record, 1), false);
  EXPECT_NE(text.find("    min-time-between-cnps 4 dcqcn-differ 3\n"
                      "    prio 3 dce-tcp-g 1019 dce-tcp-rtt 1 "
                      "initial-alpha 1023\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    rpg-ai-rate 10 rpg-hai-rate 100 link-speed 25000\n"),
            std::string::npos)
      << text;
}

TEST(CcFieldsTest, JsonOfAPriority) {
  Record record = CcRecord(testing::SampleCcPrio3());
  std::string json = RenderJson(std::span(&record, 1), false, false);
  EXPECT_NE(json.find("\"min-time-between-cnps\":4,\"dcqcn-differ\":[3],"
                      "\"prio\":3,\"dce-tcp-g\":1019,"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"rpg-ai-rate\":10,\"rpg-hai-rate\":100,"),
            std::string::npos)
      << json;
}

// dcqcn-differ prints as np-enable does: none, or runs of priorities.
TEST(CcFieldsTest, DcqcnDifferAndPrioAlone) {
  for (auto [mask, text, json] :
       {std::tuple{0x00u, "none", "[]"}, std::tuple{0x08u, "3", "[3]"},
        std::tuple{0xe8u, "3,5-7", "[3,5,6,7]"},
        std::tuple{0xfeu, "1-7", "[1,2,3,4,5,6,7]"}}) {
    DeviceCc d{2, "rue2", {}};
    d.cc.dcqcn_differ = mask;
    d.cc.prio = 7;
    Record record = CcRecord(d);
    EXPECT_EQ(
        RenderText(std::span(&record, 1), false),
        std::string("2: rue2:\n    dcqcn-differ ") + text + "\n    prio 7\n");
    EXPECT_EQ(RenderJson(std::span(&record, 1), false, false),
              std::string("[{\"index\":2,\"name\":\"rue2\",\"dcqcn-differ\":") +
                  json + ",\"prio\":7}]\n");
  }
}

// Without prio (an older kernel) the DCQCN parameters still start a line.
TEST(CcFieldsTest, NoPrioReported) {
  DeviceCc d{2, "rue2", {}};
  d.cc.min_time_between_cnps = 4;
  d.cc.dce_tcp_g = 1019;
  Record record = CcRecord(d);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "2: rue2:\n    min-time-between-cnps 4\n    dce-tcp-g 1019\n");
}

TEST(CcFieldsTest, ZeroIsNotAbsent) {
  DeviceCc d{2, "rue2", {}};
  d.cc.np_enable = 0;
  d.cc.rpg_gd = 0;
  d.cc.clamp_tgt_rate = 0;
  Record record = CcRecord(d);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "2: rue2:\n"
            "    np-enable none\n"
            "    rpg-gd 0\n"
            "    clamp-tgt-rate off\n");
  EXPECT_EQ(RenderJson(std::span(&record, 1), false, false),
            "[{\"index\":2,\"name\":\"rue2\",\"np-enable\":[],\"rpg-gd\":0,"
            "\"clamp-tgt-rate\":false}]\n");
}

TEST(CcFieldsTest, NothingReported) {
  Record record = CcRecord(DeviceCc{3, "rue3", {}});
  EXPECT_EQ(RenderText(std::span(&record, 1), true), "3: rue3:\n");
  EXPECT_EQ(RenderJson(std::span(&record, 1), true, false),
            "[{\"index\":3,\"name\":\"rue3\"}]\n");
}

TEST(CcFieldsTest, PfcAndEtsAlone) {
  DeviceCc d{2, "rue2", {}};
  d.cc.ets_tsa = PrioTable{};
  d.cc.ets_weight = PrioTable{};
  d.cc.pfc_quanta = 1;
  d.cc.pfc_paused = 0xff;
  Record record = CcRecord(d);
  EXPECT_EQ(
      RenderText(std::span(&record, 1), false),
      "2: rue2:\n"
      "    ets-tsa strict,strict,strict,strict,strict,strict,strict,strict\n"
      "    ets-weight 0,0,0,0,0,0,0,0\n"
      "    pfc-quanta 1\n"
      "    pfc-paused 0-7\n");
  EXPECT_EQ(RenderJson(std::span(&record, 1), false, false),
            "[{\"index\":2,\"name\":\"rue2\",\"ets-tsa\":[\"strict\","
            "\"strict\",\"strict\",\"strict\",\"strict\",\"strict\","
            "\"strict\",\"strict\"],\"ets-weight\":[0,0,0,0,0,0,0,0],"
            "\"pfc-quanta\":1,\"pfc-paused\":[0,1,2,3,4,5,6,7]}]\n");
}

TEST(CcFieldsTest, UnknownTsaPrintsUnknown) {
  DeviceCc d{0, "rue0", {}};
  d.cc.ets_tsa = PrioTable{0, 1, 2, 0, 0, 0, 0, 0};
  Record record = CcRecord(d);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "0: rue0:\n    ets-tsa strict,ets,UNKNOWN,strict,strict,strict,"
            "strict,strict\n");
  EXPECT_NE(RenderJson(std::span(&record, 1), false, false)
                .find("[\"strict\",\"ets\",\"UNKNOWN\",\"strict\""),
            std::string::npos);
}

TEST(CcFieldsTest, UnknownEcnModePrintsUnknown) {
  DeviceCc d{0, "rue0", {}};
  d.cc.ecn = 7;
  Record record = CcRecord(d);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "0: rue0:\n    ecn UNKNOWN\n");
}

}  // namespace
}  // namespace rue::cli
