// SPDX-License-Identifier: GPL-2.0
//
// The "cc" object: what "cc show" prints, text and JSON, for the sample
// devices, and its command lines.
#include "ruectl/cc.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ruectl/cc_params.h"
#include "ruectl/print.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// The fields.

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

// The commands.

class CcTest : public testing::ObjectTest {
 protected:
  CcTest() : ObjectTest("cc") {}
};

TEST_F(CcTest, ShowIsTheDefault) {
  ASSERT_TRUE(Run({}).ok());
  EXPECT_TRUE(out_.str().starts_with("0: rue0:\n    ecn ect0 ")) << out_.str();
  EXPECT_NE(out_.str().find("\n1: rue1:\n    ecn off\n"), std::string::npos);
}

TEST_F(CcTest, ShowOneDevice) {
  ASSERT_TRUE(Run({"sh", "rue1"}).ok());
  EXPECT_EQ(out_.str(), "1: rue1:\n    ecn off\n    link-speed 10000\n");
}

TEST_F(CcTest, ShowJson) {
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue1"}).ok());
  EXPECT_EQ(out_.str(),
            "[{\"index\":1,\"name\":\"rue1\",\"ecn\":\"off\","
            "\"link-speed\":10000}]\n");
}

TEST_F(CcTest, ShowDetails) {
  options_.details = true;
  ASSERT_TRUE(Run({"show", "rue0"}).ok());
  EXPECT_NE(out_.str().find("\n    dscp-prio 0-7:0,"), std::string::npos)
      << out_.str();
}

TEST_F(CcTest, DeviceNotFound) {
  nl::Status s = Run({"show", "rue9"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(CcTest, ShowExtraArgument) {
  nl::Status s = Run({"show", "rue0", "ecn"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "unexpected argument \"ecn\"");
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(CcTest, ShowAsksForNoPriority) {
  ASSERT_TRUE(Run({"show", "rue0"}).ok());
  using Gets = std::vector<std::pair<std::string, std::optional<uint32_t>>>;
  EXPECT_EQ(backend_.gets(), (Gets{{"rue0", std::nullopt}}));
  EXPECT_NE(out_.str().find("\n    prio 0 dce-tcp-g 1019 "), std::string::npos)
      << out_.str();
}

TEST_F(CcTest, ShowPrio) {
  ASSERT_TRUE(Run({"show", "rue0", "prio", "3"}).ok());
  using Gets = std::vector<std::pair<std::string, std::optional<uint32_t>>>;
  EXPECT_EQ(backend_.gets(), (Gets{{"rue0", 3}}));
  EXPECT_EQ(out_.str(),
            "0: rue0:\n"
            "    ecn ect0 cnp-dscp 48 cnp-prio 6 np-enable 3,5-7 "
            "rp-enable 3,5-7\n"
            "    min-time-between-cnps 4 dcqcn-differ 3\n"
            "    prio 3 dce-tcp-g 1019 dce-tcp-rtt 1 initial-alpha 1023\n"
            "    rate-reduce-monitor-period 4 rpg-gd 11 rpg-min-dec-fac 50\n"
            "    rpg-min-rate 1 rpg-max-rate 0 rate-to-set-on-first-cnp 0\n"
            "    clamp-tgt-rate off clamp-tgt-rate-after-time-inc on\n"
            "    rpg-time-reset 300 rpg-byte-reset 32767 rpg-threshold 1\n"
            "    rpg-ai-rate 10 rpg-hai-rate 100 link-speed 25000\n"
            "    ets-tsa strict,strict,strict,ets,ets,strict,strict,strict\n"
            "    ets-weight 0,0,0,60,40,0,0,0\n"
            "    pfc-enable 3-4 pfc-xoff 65536 pfc-xon 32768 pfc-quanta 65535\n"
            "    pfc-paused none pfc-asserted 3\n");
}

// A priority whose DCQCN parameters are priority 0's.
TEST_F(CcTest, ShowPrioLikePriorityZero) {
  ASSERT_TRUE(Run({"show", "rue0", "prio", "5"}).ok());
  EXPECT_NE(out_.str().find("\n    prio 5 dce-tcp-g 1019 "), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("\n    rpg-ai-rate 5 rpg-hai-rate 50 "),
            std::string::npos)
      << out_.str();
}

TEST_F(CcTest, ShowPrioJson) {
  options_.json = true;
  ASSERT_TRUE(Run({"show", "rue0", "prio", "3"}).ok());
  EXPECT_NE(out_.str().find("\"min-time-between-cnps\":4,"
                            "\"dcqcn-differ\":[3],\"prio\":3,"
                            "\"dce-tcp-g\":1019,"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("\"rpg-ai-rate\":10,\"rpg-hai-rate\":100,"),
            std::string::npos)
      << out_.str();
}

// prio follows DEV: without one, "prio 3" is not a device and a number.
TEST_F(CcTest, ShowPrioWithoutDev) {
  for (std::vector<std::string_view> words :
       {std::vector<std::string_view>{"show", "prio", "3"},
        {"show", "prio", "8"}}) {
    nl::Status s = Run(words);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, EINVAL);
    EXPECT_EQ(s.error().message,
              "missing DEV before \"prio " + std::string(words[2]) + "\"");
  }
  EXPECT_EQ(backend_.requests(), 0);
}

// A device may still be named prio.
TEST_F(CcTest, ShowDeviceNamedPrio) {
  nl::Status s = Run({"show", "prio"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "device \"prio\" not found");
}

TEST_F(CcTest, ShowBadPrio) {
  for (auto [words, message] : {
           std::pair{std::vector<std::string_view>{"show", "rue0", "prio", "8"},
                     "invalid prio \"8\": out of range 0-7"},
           std::pair{std::vector<std::string_view>{"show", "rue0", "prio"},
                     "missing PRIO after prio"},
           std::pair{std::vector<std::string_view>{"show", "rue0", "prio", "x"},
                     "invalid prio \"x\": not a decimal number"},
           std::pair{std::vector<std::string_view>{"show", "rue0", "prio", "3",
                                                   "prio", "4"},
                     "unexpected argument \"prio\""},
           std::pair{std::vector<std::string_view>{"show", "rue0", "3"},
                     "unexpected argument \"3\""},
       }) {
    nl::Status s = Run(words);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, EINVAL);
    EXPECT_EQ(s.error().message, message);
  }
  EXPECT_EQ(backend_.requests(), 0);
}

// An older kernel ignores the priority asked for: its values are not
// shown as that priority's.
TEST_F(CcTest, ShowPrioNotReported) {
  nl::Status s = Run({"show", "rue1", "prio", "3"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EPROTO);
  EXPECT_EQ(s.error().message,
            "the kernel did not report the DCQCN parameters of priority 3 "
            "(rue kernel module too old?)");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(CcTest, ShortCommandIsAmbiguous) {
  nl::Status s = Run({"s"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "ambiguous command \"s\": show, set; try \"ruectl cc help\"");
}

TEST_F(CcTest, SetSendsOnlyTheChanges) {
  ASSERT_TRUE(Run({"set", "rue0", "ecn", "ect1", "rp-e", "0-3"}).ok());
  EXPECT_EQ(out_.str(), "");
  ASSERT_EQ(backend_.sets().size(), 1u);
  EXPECT_EQ(backend_.sets()[0].first, "rue0");
  CcConfig want;
  want.ecn = RUE_ECN_ECT1;
  want.rp_enable = 0x0f;
  EXPECT_EQ(backend_.sets()[0].second, want);
  EXPECT_EQ(backend_.requests(), 1);  // no read first
}

TEST_F(CcTest, SetPrio) {
  ASSERT_TRUE(Run({"set", "rue0", "prio", "3", "rpg-ai-rate", "10",
                   "rpg-hai-rate", "100"})
                  .ok());
  EXPECT_EQ(out_.str(), "");
  ASSERT_EQ(backend_.sets().size(), 1u);
  EXPECT_EQ(backend_.sets()[0].first, "rue0");
  CcConfig want;
  want.prio = 3;
  want.rpg_ai_rate = 10;
  want.rpg_hai_rate = 100;
  EXPECT_EQ(backend_.sets()[0].second, want);
  EXPECT_EQ(backend_.requests(), 1);
}

TEST_F(CcTest, SetPrioRefusesPerDeviceKeys) {
  for (auto [key, value] : {std::pair{"ecn", "off"},
                            {"rpg-max-rate", "0"},
                            {"dscp-prio", "26:3"},
                            {"ets-tsa", "3:ets"},
                            {"pfc-enable", "3"},
                            {"min-time", "4"}}) {
    nl::Status s =
        Run({"set", "rue0", "prio", "3", "rpg-ai-rate", "10", key, value});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, EINVAL);
    EXPECT_EQ(s.error().message.substr(s.error().message.find(' ')),
              " is per device; prio applies to DCQCN parameters only");
  }
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(CcTest, SetPrioWithoutDev) {
  nl::Status s = Run({"set", "prio", "3", "rpg-ai-rate", "10"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
  EXPECT_EQ(s.error().message, "missing DEV before \"prio 3\"");
  EXPECT_EQ(backend_.requests(), 0);
}

// The kernel's reason for a refused per-priority set names the key.
TEST_F(CcTest, SetPrioNamesTheOnlyKeyTheKernelRefused) {
  backend_.FailSetWith({ERANGE, "integer out of range"});
  nl::Status s = Run({"set", "rue0", "prio", "3", "rpg-gd", "0"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rpg-gd: integer out of range");
}

TEST_F(CcTest, SetDscpPrioSendsTheWholeMapChanged) {
  ASSERT_TRUE(Run({"set", "rue0", "dscp-prio", "26:5,48-49:7"}).ok());
  EXPECT_EQ(backend_.requests(), 2);  // read, then write
  ASSERT_EQ(backend_.sets().size(), 1u);
  DscpMap want = *testing::SampleCc()[0].cc.dscp_prio;
  want[26] = 5;
  want[48] = want[49] = 7;
  CcConfig sent = backend_.sets()[0].second;
  EXPECT_EQ(sent.dscp_prio, want);
  sent.dscp_prio.reset();
  EXPECT_EQ(sent, CcConfig{});
}

TEST_F(CcTest, SetDscpPrioWithoutCurrentMap) {
  nl::Status s = Run({"set", "rue1", "dscp-prio", "26:5"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EPROTO);
  EXPECT_EQ(s.error().message,
            "the kernel did not report the current dscp-prio");
  EXPECT_TRUE(backend_.sets().empty());
}

TEST_F(CcTest, SetDscpPrioOnMissingDevice) {
  nl::Status s = Run({"set", "rue9", "dscp-prio", "26:5"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
}

TEST_F(CcTest, SetEtsEntriesSendTheWholeTablesChanged) {
  ASSERT_TRUE(
      Run({"set", "rue0", "ets-tsa", "3:strict,5:ets", "ets-w", "4:100,5:0"})
          .ok());
  EXPECT_EQ(backend_.requests(), 2);  // one read for both, then write
  ASSERT_EQ(backend_.sets().size(), 1u);
  CcConfig want;
  want.ets_tsa = PrioTable{0, 0, 0, 0, RUE_TSA_ETS, RUE_TSA_ETS, 0, 0};
  want.ets_weight = PrioTable{0, 0, 0, 60, 100, 0, 0, 0};
  EXPECT_EQ(backend_.sets()[0].second, want);
}

TEST_F(CcTest, SetDscpPrioAndEtsEntriesReadOnce) {
  ASSERT_TRUE(
      Run({"set", "rue0", "dscp-prio", "26:4", "ets-tsa", "6:ets"}).ok());
  EXPECT_EQ(backend_.requests(), 2);
  ASSERT_EQ(backend_.sets().size(), 1u);
  const CcConfig& sent = backend_.sets()[0].second;
  ASSERT_TRUE(sent.dscp_prio && sent.ets_tsa);
  EXPECT_EQ((*sent.dscp_prio)[26], 4);
  EXPECT_EQ(*sent.ets_tsa, (PrioTable{0, 0, 0, 1, 1, 0, 1, 0}));
  EXPECT_FALSE(sent.ets_weight);
}

TEST_F(CcTest, SetWholeEtsTableAsksNothingFirst) {
  ASSERT_TRUE(Run({"set", "rue1", "ets-weight", "0,0,0,0,0,0,50,50",
                   "pfc-enable", "6-7", "pfc-quanta", "1000"})
                  .ok());
  EXPECT_EQ(backend_.requests(), 1);
  ASSERT_EQ(backend_.sets().size(), 1u);
  CcConfig want;
  want.ets_weight = PrioTable{0, 0, 0, 0, 0, 0, 50, 50};
  want.pfc_enable = 0xc0;
  want.pfc_quanta = 1000;
  EXPECT_EQ(backend_.sets()[0].second, want);
}

TEST_F(CcTest, SetEtsEntriesWithoutCurrentTable) {
  nl::Status s = Run({"set", "rue1", "ets-weight", "3:100"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EPROTO);
  EXPECT_EQ(s.error().message,
            "the kernel did not report the current ets-weight");
  EXPECT_TRUE(backend_.sets().empty());
}

// The kernel checks that the ETS weights add up to 100, and says so.
TEST_F(CcTest, SetPassesTheKernelsEtsReason) {
  backend_.FailSetWith({EINVAL, "ETS weights add up to 90, not 100"});
  nl::Status s = Run({"set", "rue0", "ets-weight", "3:50"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
  EXPECT_EQ(s.error().message, "ets-weight: ETS weights add up to 90, not 100");
}

TEST_F(CcTest, SetOnMissingDevice) {
  nl::Status s = Run({"set", "rue9", "ecn", "off"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ENODEV);
  EXPECT_EQ(s.error().message, "device \"rue9\" not found");
}

TEST_F(CcTest, BadArgumentsAskNothing) {
  for (std::vector<std::string_view> words :
       {std::vector<std::string_view>{"set"},
        {"set", "rue0"},
        {"set", "rue0", "ecn"},
        {"set", "rue0", "ecn", "maybe"},
        {"set", "rue0", "link-speed", "1"},
        {"set", "rue0", "pfc-paused", "0"},
        {"set", "rue0", "pfc-quanta", "0"},
        {"set", "rue0", "ets-weight", "3:101"},
        {"set", "rue0", "ets-tsa", "3:wrr"},
        {"set", "rue0", "dscp-prio", "64:0"},
        {"set", "rue0", "cnp-prio", "8"},
        {"set", "rue0", "frob", "1"},
        {"set", "rue0", "prio", "8", "rpg-ai-rate", "1"},
        {"set", "rue0", "prio", "3"},
        {"set", "rue0", "prio", "3", "ecn", "off"},
        {"set", "rue0", "prio", "3", "dcqcn-differ", "3"},
        {"set", "rue0", "rpg-ai-rate", "1", "prio", "3"},
        {"set", "prio", "3", "rpg-ai-rate", "1"}}) {
    EXPECT_FALSE(Run(words).ok()) << words.size();
  }
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(CcTest, SetMissingDev) {
  nl::Status s = Run({"set"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "missing DEV");
}

TEST_F(CcTest, SetNeedsCapNetAdmin) {
  backend_.FailSetWith({EPERM, ""});
  nl::Status s = Run({"set", "rue0", "ecn", "off"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EPERM);
  EXPECT_EQ(s.error().message,
            "Operation not permitted (changing congestion control needs "
            "CAP_NET_ADMIN)");
}

TEST_F(CcTest, SetPassesTheKernelsReason) {
  backend_.FailSetWith({EINVAL, "rpg-min-rate above rpg-max-rate"});
  nl::Status s = Run({"set", "rue0", "rpg-min-rate", "100000"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
  EXPECT_EQ(s.error().message, "rpg-min-rate above rpg-max-rate");
}

// A policy check of the kernel names no parameter: with one key given,
// ruectl names it.
TEST_F(CcTest, SetNamesTheOnlyKeyTheKernelRefused) {
  backend_.FailSetWith({ERANGE, "integer out of range"});
  nl::Status s = Run({"set", "rue0", "rpg-g", "0"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ERANGE);
  EXPECT_EQ(s.error().message, "rpg-gd: integer out of range");
}

TEST_F(CcTest, SetNamesTheOnlyKeyEvenWithoutAReason) {
  backend_.FailSetWith({EINVAL, ""});
  nl::Status s = Run({"set", "rue0", "rpg-byte-reset", "10"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rpg-byte-reset: Invalid argument");
}

TEST_F(CcTest, SetWithSeveralKeysKeepsTheKernelsWords) {
  backend_.FailSetWith({ERANGE, "integer out of range"});
  nl::Status s = Run({"set", "rue0", "rpg-gd", "0", "rpg-ai-rate", "5"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "integer out of range");
}

TEST_F(CcTest, OldModule) {
  backend_.FailWith({EOPNOTSUPP, ""});
  nl::Status s = Run({"show"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "rue kernel module too old for this command; load a newer one");
}

TEST_F(CcTest, ModuleNotLoaded) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  nl::Status s = Run({"set", "rue0", "ecn", "off"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "rue kernel module not loaded (modprobe rue)");
}

TEST_F(CcTest, HelpEndsWithExamples) {
  ASSERT_TRUE(Run({"help"}).ok());
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl cc [ ")) << out_.str();
  EXPECT_NE(out_.str().find("\nExamples:\n"), std::string::npos);
  EXPECT_NE(out_.str().find("ruectl cc set rue0 dscp-prio 26:3,48:6\n"),
            std::string::npos);
  EXPECT_NE(out_.str().find("ruectl cc show rue0 prio 3\n"), std::string::npos);
  EXPECT_NE(out_.str().find(
                "ruectl cc set rue0 prio 3 rpg-ai-rate 10 rpg-hai-rate 100\n"),
            std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(CcTest, HelpNamesEveryParameter) {
  ASSERT_TRUE(Run({"help"}).ok());
  for (const char* key : {"ecn",
                          "cnp-dscp",
                          "cnp-prio",
                          "np-enable",
                          "rp-enable",
                          "dscp-prio",
                          "min-time-between-cnps",
                          "dce-tcp-g",
                          "dce-tcp-rtt",
                          "initial-alpha",
                          "rate-reduce-monitor-period",
                          "rpg-gd",
                          "rpg-min-dec-fac",
                          "rpg-min-rate",
                          "rpg-max-rate",
                          "rate-to-set-on-first-cnp",
                          "clamp-tgt-rate",
                          "clamp-tgt-rate-after-time-inc",
                          "rpg-time-reset",
                          "rpg-byte-reset",
                          "rpg-threshold",
                          "rpg-ai-rate",
                          "rpg-hai-rate",
                          "link-speed",
                          "ets-tsa",
                          "ets-weight",
                          "pfc-enable",
                          "pfc-xoff",
                          "pfc-xon",
                          "pfc-quanta",
                          "pfc-paused",
                          "pfc-asserted",
                          "dcqcn-differ",
                          "prio"})
    EXPECT_TRUE(
        out_.str().find(std::string(" ") + key + " ") != std::string::npos ||
        out_.str().find(std::string("\n") + key + " ") != std::string::npos)
        << key;
}

TEST_F(CcTest, UnknownCommand) {
  nl::Status s = Run({"frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl cc help\"");
}

}  // namespace
}  // namespace rue::cli
