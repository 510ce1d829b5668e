// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_value.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>

#include <cerrno>

namespace rue::cli {
namespace {

// The message of a parse that must fail with EINVAL.
template <typename T>
std::string Refusal(const nl::Result<T>& result) {
  EXPECT_FALSE(result.ok());
  if (result.ok()) return "";
  EXPECT_EQ(result.error().code, EINVAL);
  return result.error().message;
}

TEST(CcValueTest, Numbers) {
  EXPECT_EQ(*ParseNumber("0", 63), 0u);
  EXPECT_EQ(*ParseNumber("63", 63), 63u);
  EXPECT_EQ(*ParseNumber("007", 63), 7u);
  EXPECT_EQ(*ParseNumber("4294967295", UINT32_MAX), UINT32_MAX);
}

TEST(CcValueTest, BadNumbers) {
  EXPECT_EQ(Refusal(ParseNumber("64", 63)), "out of range 0-63");
  EXPECT_EQ(Refusal(ParseNumber("4294967296", UINT32_MAX)),
            "out of range 0-4294967295");
  EXPECT_EQ(Refusal(ParseNumber("99999999999999999999999", 255)),
            "out of range 0-255");
  for (const char* bad : {"", "-1", "+1", "1.5", "0x10", " 1", "1 ", "ten"})
    EXPECT_EQ(Refusal(ParseNumber(bad, 255)), "not a decimal number") << bad;
}

TEST(CcValueTest, NumbersWithALeast) {
  EXPECT_EQ(*ParseNumber("1", 1, 65535), 1u);
  EXPECT_EQ(*ParseNumber("65535", 1, 65535), 65535u);
  EXPECT_EQ(Refusal(ParseNumber("0", 1, 65535)), "out of range 1-65535");
  EXPECT_EQ(Refusal(ParseNumber("65536", 1, 65535)), "out of range 1-65535");
  EXPECT_EQ(Refusal(ParseNumber("x", 1, 65535)), "not a decimal number");
}

TEST(CcValueTest, EcnBothWays) {
  EXPECT_EQ(*ParseEcn("off"), uint32_t{RUE_ECN_OFF});
  EXPECT_EQ(*ParseEcn("ect0"), uint32_t{RUE_ECN_ECT0});
  EXPECT_EQ(*ParseEcn("ect1"), uint32_t{RUE_ECN_ECT1});
  EXPECT_EQ(EcnName(RUE_ECN_OFF), "off");
  EXPECT_EQ(EcnName(RUE_ECN_ECT0), "ect0");
  EXPECT_EQ(EcnName(RUE_ECN_ECT1), "ect1");
  EXPECT_EQ(EcnName(3), "UNKNOWN");
}

TEST(CcValueTest, BadEcn) {
  for (const char* bad : {"", "on", "ect", "ECT0", "1", "ce"})
    EXPECT_EQ(Refusal(ParseEcn(bad)), "expected off, ect0 or ect1") << bad;
}

TEST(CcValueTest, TsaBothWays) {
  EXPECT_EQ(*ParseTsa("strict"), uint32_t{RUE_TSA_STRICT});
  EXPECT_EQ(*ParseTsa("ets"), uint32_t{RUE_TSA_ETS});
  EXPECT_EQ(TsaName(RUE_TSA_STRICT), "strict");
  EXPECT_EQ(TsaName(RUE_TSA_ETS), "ets");
  EXPECT_EQ(TsaName(2), "UNKNOWN");
  for (const char* bad : {"", "ETS", "wrr", "0", "s"})
    EXPECT_EQ(Refusal(ParseTsa(bad)), "expected strict or ets") << bad;
}

TEST(CcValueTest, Flags) {
  EXPECT_TRUE(*ParseFlag("on"));
  EXPECT_TRUE(*ParseFlag("1"));
  EXPECT_FALSE(*ParseFlag("off"));
  EXPECT_FALSE(*ParseFlag("0"));
  for (const char* bad : {"", "yes", "true", "2", "On"})
    EXPECT_EQ(Refusal(ParseFlag(bad)), "expected on, off, 1 or 0") << bad;
}

TEST(CcValueTest, FormatPrios) {
  EXPECT_EQ(FormatPrios(0), "none");
  EXPECT_EQ(FormatPrios(0xff), "0-7");
  EXPECT_EQ(FormatPrios(0x28), "3,5");
  EXPECT_EQ(FormatPrios(0xe8), "3,5-7");
  EXPECT_EQ(FormatPrios(0x47), "0-2,6");
  EXPECT_EQ(FormatPrios(0x18), "3-4");
  EXPECT_EQ(FormatPrios(0x80), "7");
}

TEST(CcValueTest, PrioList) {
  EXPECT_EQ(PrioList(0), std::vector<uint64_t>{});
  EXPECT_EQ(PrioList(0xe8), (std::vector<uint64_t>{3, 5, 6, 7}));
}

TEST(CcValueTest, ParsePrios) {
  EXPECT_EQ(*ParsePrios("all"), 0xffu);
  EXPECT_EQ(*ParsePrios("none"), 0u);
  EXPECT_EQ(*ParsePrios("0-7"), 0xffu);
  EXPECT_EQ(*ParsePrios("3"), 0x08u);
  EXPECT_EQ(*ParsePrios("3,5"), 0x28u);
  EXPECT_EQ(*ParsePrios("5-7,3"), 0xe8u);
  EXPECT_EQ(*ParsePrios("3,3-4"), 0x18u);  // overlaps are harmless
  EXPECT_EQ(*ParsePrios("6-6"), 0x40u);
}

TEST(CcValueTest, PriosRoundTrip) {
  for (uint32_t mask = 0; mask < 256; ++mask)
    EXPECT_EQ(*ParsePrios(FormatPrios(mask)), mask) << FormatPrios(mask);
}

TEST(CcValueTest, BadPrios) {
  EXPECT_EQ(Refusal(ParsePrios("8")), "priority \"8\": out of range 0-7");
  EXPECT_EQ(Refusal(ParsePrios("0-8")), "priority \"8\": out of range 0-7");
  EXPECT_EQ(Refusal(ParsePrios("5-3")), "range \"5-3\" runs backwards");
  EXPECT_EQ(Refusal(ParsePrios("")), "empty entry");
  EXPECT_EQ(Refusal(ParsePrios("3,,5")), "empty entry");
  EXPECT_EQ(Refusal(ParsePrios("3,")), "empty entry");
  EXPECT_EQ(Refusal(ParsePrios("x")), "priority \"x\": not a decimal number");
  EXPECT_EQ(Refusal(ParsePrios("3-")), "priority \"\": not a decimal number");
  EXPECT_EQ(Refusal(ParsePrios("-3")), "priority \"\": not a decimal number");
  EXPECT_EQ(Refusal(ParsePrios("1-2-3")),
            "priority \"2-3\": not a decimal number");
  EXPECT_EQ(Refusal(ParsePrios("All")),
            "priority \"All\": not a decimal number");
}

DscpMap ByEight() {
  DscpMap map;
  for (size_t dscp = 0; dscp < map.size(); ++dscp) map[dscp] = dscp / 8;
  return map;
}

TEST(CcValueTest, FormatDscpMap) {
  EXPECT_EQ(FormatDscpMap(ByEight()),
            "0-7:0,8-15:1,16-23:2,24-31:3,32-39:4,40-47:5,48-55:6,56-63:7");
  DscpMap map = ByEight();
  map[26] = 3;
  map[48] = 7;
  map[63] = 0;
  EXPECT_EQ(FormatDscpMap(map),
            "0-7:0,8-15:1,16-23:2,24-31:3,32-39:4,40-47:5,48:7,49-55:6,"
            "56-62:7,63:0");
  EXPECT_EQ(FormatDscpMap(DscpMap{}), "0-63:0");
}

TEST(CcValueTest, ParseDscpPrio) {
  EXPECT_EQ(*ParseDscpPrio("26:3"), (std::vector<DscpPrio>{{26, 3}}));
  EXPECT_EQ(*ParseDscpPrio("26:3,48:6"),
            (std::vector<DscpPrio>{{26, 3}, {48, 6}}));
  EXPECT_EQ(*ParseDscpPrio("0-2:1,63:7"),
            (std::vector<DscpPrio>{{0, 1}, {1, 1}, {2, 1}, {63, 7}}));
}

TEST(CcValueTest, DscpMapRoundTrip) {
  DscpMap map = ByEight();
  map[26] = 5;
  nl::Result<std::vector<DscpPrio>> entries = ParseDscpPrio(FormatDscpMap(map));
  ASSERT_TRUE(entries.ok()) << entries.error().message;
  ASSERT_EQ(entries->size(), kDscpCount);
  DscpMap parsed{};
  for (const DscpPrio& e : *entries) parsed[e.dscp] = e.prio;
  EXPECT_EQ(parsed, map);
}

TEST(CcValueTest, BadDscpPrio) {
  EXPECT_EQ(Refusal(ParseDscpPrio("64:3")), "DSCP \"64\": out of range 0-63");
  EXPECT_EQ(Refusal(ParseDscpPrio("26:8")), "priority \"8\": out of range 0-7");
  EXPECT_EQ(Refusal(ParseDscpPrio("26")), "entry \"26\" is not DSCP:PRIO");
  EXPECT_EQ(Refusal(ParseDscpPrio("26:3:4")),
            "entry \"26:3:4\" is not DSCP:PRIO");
  EXPECT_EQ(Refusal(ParseDscpPrio("")), "entry \"\" is not DSCP:PRIO");
  EXPECT_EQ(Refusal(ParseDscpPrio("26:3,")), "entry \"\" is not DSCP:PRIO");
  EXPECT_EQ(Refusal(ParseDscpPrio(":3")), "empty entry");
  EXPECT_EQ(Refusal(ParseDscpPrio("26:")),
            "priority \"\": not a decimal number");
  EXPECT_EQ(Refusal(ParseDscpPrio("x:3")), "DSCP \"x\": not a decimal number");
  EXPECT_EQ(Refusal(ParseDscpPrio("30-20:1")),
            "range \"30-20\" runs backwards");
  EXPECT_EQ(Refusal(ParseDscpPrio("26:3,26:4")), "DSCP 26 given twice");
  EXPECT_EQ(Refusal(ParseDscpPrio("24-31:3,26:4")), "DSCP 26 given twice");
}

constexpr PrioTable kTwoEts = {0, 0, 0, 1, 1, 0, 0, 0};

TEST(CcValueTest, FormatTables) {
  EXPECT_EQ(FormatTsaTable(kTwoEts),
            "strict,strict,strict,ets,ets,strict,strict,strict");
  EXPECT_EQ(FormatTsaTable(PrioTable{0, 1, 2, 3, 0, 0, 0, 255}),
            "strict,ets,UNKNOWN,UNKNOWN,strict,strict,strict,UNKNOWN");
  EXPECT_EQ(TsaNames(kTwoEts),
            (std::vector<std::string>{"strict", "strict", "strict", "ets",
                                      "ets", "strict", "strict", "strict"}));
  EXPECT_EQ(FormatNumberTable(PrioTable{0, 0, 0, 60, 40, 0, 0, 0}),
            "0,0,0,60,40,0,0,0");
  EXPECT_EQ(FormatNumberTable(PrioTable{}), "0,0,0,0,0,0,0,0");
}

// PrioValue entries to the table they set (unset priorities stay 0).
PrioTable TableOf(const std::vector<PrioValue>& entries) {
  PrioTable table{};
  for (const PrioValue& e : entries) table[e.prio] = e.value;
  return table;
}

TEST(CcValueTest, ParseWholeTables) {
  nl::Result<std::vector<PrioValue>> tsa =
      ParseTsaTable("strict,strict,strict,ets,ets,strict,strict,strict");
  ASSERT_TRUE(tsa.ok()) << tsa.error().message;
  EXPECT_EQ(tsa->size(), kPrioCount);
  EXPECT_EQ(TableOf(*tsa), kTwoEts);
  nl::Result<std::vector<PrioValue>> weights =
      ParseNumberTable("0,0,0,60,40,0,0,100", 100);
  ASSERT_TRUE(weights.ok()) << weights.error().message;
  EXPECT_EQ(weights->size(), kPrioCount);
  EXPECT_EQ(TableOf(*weights), (PrioTable{0, 0, 0, 60, 40, 0, 0, 100}));
}

TEST(CcValueTest, ParseTableEntries) {
  EXPECT_EQ(*ParseTsaTable("3:ets,4:ets"),
            (std::vector<PrioValue>{{3, 1}, {4, 1}}));
  EXPECT_EQ(*ParseTsaTable("0-2:ets,7:strict"),
            (std::vector<PrioValue>{{0, 1}, {1, 1}, {2, 1}, {7, 0}}));
  EXPECT_EQ(*ParseNumberTable("3:60,4:40", 100),
            (std::vector<PrioValue>{{3, 60}, {4, 40}}));
  EXPECT_EQ(ParseNumberTable("0-7:12", 100)->size(), kPrioCount);
}

TEST(CcValueTest, TablesRoundTrip) {
  EXPECT_EQ(TableOf(*ParseTsaTable(FormatTsaTable(kTwoEts))), kTwoEts);
  PrioTable weights = {10, 20, 30, 40, 0, 0, 0, 100};
  EXPECT_EQ(TableOf(*ParseNumberTable(FormatNumberTable(weights), 100)),
            weights);
}

TEST(CcValueTest, BadTables) {
  EXPECT_EQ(Refusal(ParseTsaTable("")),
            "expected 8 values, priority 0 first, or PRIO:TSA entries; got 1");
  EXPECT_EQ(Refusal(ParseTsaTable("ets,ets,ets,ets,ets,ets,ets,ets,ets")),
            "expected 8 values, priority 0 first, or PRIO:TSA entries; got 9");
  EXPECT_EQ(Refusal(ParseNumberTable("0,0,0,60,40,0,0,0,", 100)),
            "expected 8 values, priority 0 first, or PRIO:VALUE entries; got "
            "9");
  EXPECT_EQ(Refusal(ParseTsaTable("strict,strict,strict,ets,wrr,strict,"
                                  "strict,strict")),
            "TSA \"wrr\": expected strict or ets");
  EXPECT_EQ(Refusal(ParseNumberTable("0,0,0,60,40,0,0,-1", 100)),
            "value \"-1\": not a decimal number");
  EXPECT_EQ(Refusal(ParseNumberTable("3:101", 100)),
            "value \"101\": out of range 0-100");
  EXPECT_EQ(Refusal(ParseTsaTable("8:ets")),
            "priority \"8\": out of range 0-7");
  EXPECT_EQ(Refusal(ParseTsaTable("4-3:ets")), "range \"4-3\" runs backwards");
  EXPECT_EQ(Refusal(ParseTsaTable("3:ets,4")), "entry \"4\" is not PRIO:TSA");
  EXPECT_EQ(Refusal(ParseTsaTable("3:ets:4")),
            "entry \"3:ets:4\" is not PRIO:TSA");
  EXPECT_EQ(Refusal(ParseTsaTable("3:ets,")), "entry \"\" is not PRIO:TSA");
  EXPECT_EQ(Refusal(ParseTsaTable(":ets")), "empty entry");
  EXPECT_EQ(Refusal(ParseTsaTable("3:")), "TSA \"\": expected strict or ets");
  EXPECT_EQ(Refusal(ParseNumberTable("3:50,2-4:10", 100)),
            "priority 3 given twice");
}

}  // namespace
}  // namespace rue::cli
