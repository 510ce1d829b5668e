// SPDX-License-Identifier: GPL-2.0
//
// The parameters' table, and "cc set" arguments: every value form, good
// and bad, and the errors that name the key and the value.
#include "ruectl/cc_params.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <set>
#include <string>

#include "ruectl/cli.h"

namespace rue::cli {
namespace {

// The table.

// A reminder, not a build break: a new rue_cc_attr in the uapi header
// needs its row (and a field in cc.cc) before ruectl shows it.
TEST(CcParamsTest, EveryAttributeHasOneRow) {
  std::set<uint16_t> attrs;
  for (const CcParam& p : CcParams()) attrs.insert(p.attr);
  EXPECT_EQ(attrs.size(), CcParams().size());
  for (uint16_t attr = RUE_A_CC_UNSPEC + 1; attr <= RUE_A_CC_MAX; ++attr)
    EXPECT_TRUE(attrs.count(attr)) << "rue_cc_attr " << attr;
}

TEST(CcParamsTest, KeysAreUniqueKebabCase) {
  std::set<std::string_view> keys;
  for (const CcParam& p : CcParams()) {
    EXPECT_TRUE(keys.insert(p.key).second) << p.key;
    for (char c : p.key)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')
          << p.key;
  }
}

// The widths of uapi/linux/rue_netlink.h.
TEST(CcParamsTest, WireWidths) {
  const std::set<uint16_t> u8 = {RUE_A_CC_ECN,
                                 RUE_A_CC_CNP_DSCP,
                                 RUE_A_CC_CNP_PRIO,
                                 RUE_A_CC_NP_ENABLE,
                                 RUE_A_CC_RP_ENABLE,
                                 RUE_A_CC_CLAMP_TGT_RATE,
                                 RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC,
                                 RUE_A_CC_PFC_ENABLE,
                                 RUE_A_CC_PFC_PAUSED,
                                 RUE_A_CC_PFC_ASSERTED,
                                 RUE_A_CC_PRIO,
                                 RUE_A_CC_DCQCN_DIFFER};
  const std::set<uint16_t> tables = {RUE_A_CC_ETS_TSA, RUE_A_CC_ETS_WEIGHT};
  for (const CcParam& p : CcParams()) {
    if (p.attr == RUE_A_CC_DSCP_PRIO) {
      EXPECT_EQ(p.wire, nl::AttrKind::kBinary);
      EXPECT_EQ(p.member, nullptr);
      EXPECT_EQ(p.table, nullptr);
      EXPECT_EQ(BinaryLength(p), 64);
      continue;
    }
    if (tables.count(p.attr)) {
      EXPECT_EQ(p.wire, nl::AttrKind::kBinary) << p.key;
      EXPECT_EQ(p.member, nullptr) << p.key;
      EXPECT_NE(p.table, nullptr) << p.key;
      EXPECT_EQ(BinaryLength(p), 8) << p.key;
      EXPECT_LE(p.max, 255u) << p.key;  // a byte per priority
      continue;
    }
    EXPECT_EQ(p.wire, u8.count(p.attr) ? nl::AttrKind::kU8 : nl::AttrKind::kU32)
        << p.key;
    EXPECT_NE(p.member, nullptr) << p.key;
    EXPECT_EQ(p.table, nullptr) << p.key;
    if (p.wire == nl::AttrKind::kU8) {
      EXPECT_LE(p.max, 255u) << p.key;
    }
  }
}

// prio is read only as a key: "prio P" is a keyword after DEV.
TEST(CcParamsTest, OnlyLinkSpeedPfcStatePrioAndDcqcnDifferAreReadOnly) {
  const std::set<uint16_t> read_only = {
      RUE_A_CC_LINK_SPEED, RUE_A_CC_PFC_PAUSED, RUE_A_CC_PFC_ASSERTED,
      RUE_A_CC_PRIO, RUE_A_CC_DCQCN_DIFFER};
  for (const CcParam& p : CcParams())
    EXPECT_EQ(p.read_only, read_only.count(p.attr) == 1) << p.key;
}

// The DCQCN parameters, kept per priority by the kernel; rpg-max-rate,
// though among them in rue_cc_attr, is per device.
TEST(CcParamsTest, PerPriorityAreExactlyTheDcqcnParameters) {
  const std::set<std::string_view> dcqcn = {
      "dce-tcp-g",      "dce-tcp-rtt",
      "initial-alpha",  "rate-reduce-monitor-period",
      "rpg-gd",         "rpg-min-dec-fac",
      "rpg-min-rate",   "rate-to-set-on-first-cnp",
      "clamp-tgt-rate", "clamp-tgt-rate-after-time-inc",
      "rpg-time-reset", "rpg-byte-reset",
      "rpg-threshold",  "rpg-ai-rate",
      "rpg-hai-rate"};
  size_t per_prio = 0;
  for (const CcParam& p : CcParams()) {
    EXPECT_EQ(p.per_prio, dcqcn.count(p.key) == 1) << p.key;
    per_prio += p.per_prio;
  }
  EXPECT_EQ(per_prio, dcqcn.size());
}

TEST(CcParamsTest, PrioRow) {
  const CcParam* prio = *FindCcParam(kPrioKeyword);
  EXPECT_EQ(prio->attr, RUE_A_CC_PRIO);
  EXPECT_EQ(prio->key, "prio");
  EXPECT_EQ(prio->max, 7u);
  EXPECT_EQ(prio->member, &CcConfig::prio);
  const CcParam* differ = *FindCcParam("dcqcn-differ");
  EXPECT_EQ(differ->syntax, CcSyntax::kPrios);
  EXPECT_EQ(differ->member, &CcConfig::dcqcn_differ);
}

// What ruectl checks itself; the kernel checks again.
TEST(CcParamsTest, Ranges) {
  EXPECT_EQ((*FindCcParam("pfc-quanta"))->min, 1u);
  EXPECT_EQ((*FindCcParam("pfc-quanta"))->max, 65535u);
  EXPECT_EQ((*FindCcParam("ets-weight"))->max, 100u);
  for (const CcParam& p : CcParams()) {
    if (p.attr != RUE_A_CC_PFC_QUANTA) {
      EXPECT_EQ(p.min, 0u) << p.key;
    }
  }
}

TEST(CcParamsTest, FindByKeyOrPrefix) {
  EXPECT_EQ((*FindCcParam("ecn"))->attr, RUE_A_CC_ECN);
  EXPECT_EQ((*FindCcParam("dscp"))->attr, RUE_A_CC_DSCP_PRIO);
  EXPECT_EQ((*FindCcParam("rpg-ma"))->attr, RUE_A_CC_RPG_MAX_RATE);
  EXPECT_EQ((*FindCcParam("l"))->attr, RUE_A_CC_LINK_SPEED);
  EXPECT_EQ((*FindCcParam("ec"))->attr, RUE_A_CC_ECN);
  EXPECT_EQ((*FindCcParam("ets-t"))->attr, RUE_A_CC_ETS_TSA);
  EXPECT_EQ((*FindCcParam("pfc-q"))->attr, RUE_A_CC_PFC_QUANTA);
  EXPECT_EQ((*FindCcParam("pfc-p"))->attr, RUE_A_CC_PFC_PAUSED);
  EXPECT_EQ((*FindCcParam("pr"))->attr, RUE_A_CC_PRIO);
  EXPECT_EQ((*FindCcParam("dcq"))->attr, RUE_A_CC_DCQCN_DIFFER);
  // A key that is a prefix of another still names itself.
  EXPECT_EQ((*FindCcParam("clamp-tgt-rate"))->attr, RUE_A_CC_CLAMP_TGT_RATE);
  EXPECT_EQ((*FindCcParam("clamp-tgt-rate-"))->attr,
            RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC);
}

TEST(CcParamsTest, UnknownAndAmbiguousKeys) {
  nl::Result<const CcParam*> unknown = FindCcParam("speed");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, EINVAL);
  EXPECT_EQ(unknown.error().message, "unknown cc parameter \"speed\"");
  EXPECT_EQ(FindCcParam("rate").error().message,
            "ambiguous cc parameter \"rate\": rate-reduce-monitor-period, "
            "rate-to-set-on-first-cnp");
  EXPECT_EQ(FindCcParam("rpg-mi").error().message,
            "ambiguous cc parameter \"rpg-mi\": rpg-min-dec-fac, rpg-min-rate");
  EXPECT_EQ(FindCcParam("cnp").error().message,
            "ambiguous cc parameter \"cnp\": cnp-dscp, cnp-prio");
  EXPECT_EQ(FindCcParam("e").error().message,
            "ambiguous cc parameter \"e\": ecn, ets-tsa, ets-weight");
  EXPECT_EQ(FindCcParam("dc").error().message,
            "ambiguous cc parameter \"dc\": dcqcn-differ, dce-tcp-g, "
            "dce-tcp-rtt");
  EXPECT_EQ(FindCcParam("p").error().message,
            "ambiguous cc parameter \"p\": prio, pfc-enable, pfc-xoff, "
            "pfc-xon, pfc-quanta, pfc-paused, pfc-asserted");
  EXPECT_EQ(FindCcParam("pfc-x").error().message,
            "ambiguous cc parameter \"pfc-x\": pfc-xoff, pfc-xon");
  EXPECT_FALSE(FindCcParam("").ok());
}

// The words of "cc set".

nl::Result<CcChanges> Parse(std::vector<std::string> words) {
  Args args(std::move(words));
  return ParseCcChanges(args);
}

std::string Refusal(std::vector<std::string> words) {
  nl::Result<CcChanges> changes = Parse(std::move(words));
  EXPECT_FALSE(changes.ok());
  if (changes.ok()) return "";
  EXPECT_EQ(changes.error().code, EINVAL);
  return changes.error().message;
}

TEST(CcSetTest, SetsOnlyWhatIsGiven) {
  nl::Result<CcChanges> changes = Parse({"cnp-dscp", "46"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  CcConfig want;
  want.cnp_dscp = 46;
  EXPECT_EQ(changes->config, want);
  EXPECT_TRUE(changes->dscp_prio.empty());
}

TEST(CcSetTest, EveryValueForm) {
  nl::Result<CcChanges> changes =
      Parse({"ecn", "ect1", "np-enable", "3,5-7", "rp-enable", "all",
             "clamp-tgt-rate", "on", "clamp-tgt-rate-after-time-inc", "0",
             "rpg-ai-rate", "10", "cnp-prio", "7", "dscp-prio", "26:3,48:6"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  CcConfig want;
  want.ecn = RUE_ECN_ECT1;
  want.np_enable = 0xe8;
  want.rp_enable = 0xff;
  want.clamp_tgt_rate = 1;
  want.clamp_tgt_rate_after_time_inc = 0;
  want.rpg_ai_rate = 10;
  want.cnp_prio = 7;
  EXPECT_EQ(changes->config, want);
  EXPECT_EQ(changes->dscp_prio, (std::vector<DscpPrio>{{26, 3}, {48, 6}}));
}

TEST(CcSetTest, EveryWritableKeyByItsFullName) {
  nl::Result<CcChanges> changes = Parse({"ecn",
                                         "off",
                                         "cnp-dscp",
                                         "0",
                                         "cnp-prio",
                                         "0",
                                         "np-enable",
                                         "none",
                                         "rp-enable",
                                         "none",
                                         "min-time-between-cnps",
                                         "1",
                                         "dce-tcp-g",
                                         "2",
                                         "dce-tcp-rtt",
                                         "3",
                                         "initial-alpha",
                                         "1023",
                                         "rate-reduce-monitor-period",
                                         "5",
                                         "rpg-gd",
                                         "6",
                                         "rpg-min-dec-fac",
                                         "100",
                                         "rpg-min-rate",
                                         "8",
                                         "rpg-max-rate",
                                         "9",
                                         "rate-to-set-on-first-cnp",
                                         "10",
                                         "clamp-tgt-rate",
                                         "off",
                                         "clamp-tgt-rate-after-time-inc",
                                         "1",
                                         "rpg-time-reset",
                                         "11",
                                         "rpg-byte-reset",
                                         "4294967295",
                                         "rpg-threshold",
                                         "13",
                                         "rpg-ai-rate",
                                         "14",
                                         "rpg-hai-rate",
                                         "15",
                                         "dscp-prio",
                                         "0:0",
                                         "ets-tsa",
                                         "3:ets",
                                         "ets-weight",
                                         "3:100",
                                         "pfc-enable",
                                         "3",
                                         "pfc-xoff",
                                         "65536",
                                         "pfc-xon",
                                         "0",
                                         "pfc-quanta",
                                         "65535"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  EXPECT_EQ(changes->config.rpg_byte_reset, UINT32_MAX);
  EXPECT_EQ(changes->config.initial_alpha, 1023u);
  EXPECT_EQ(changes->config.rpg_hai_rate, 15u);
  EXPECT_FALSE(changes->config.link_speed);
  EXPECT_FALSE(changes->config.dscp_prio);
  EXPECT_EQ(changes->dscp_prio.size(), 1u);
  EXPECT_EQ(changes->tables.size(), 2u);
  EXPECT_EQ(changes->config.pfc_enable, 0x08u);
  EXPECT_EQ(changes->config.pfc_xoff, 65536u);
  EXPECT_EQ(changes->config.pfc_xon, 0u);
  EXPECT_EQ(changes->config.pfc_quanta, 65535u);
  EXPECT_FALSE(changes->config.pfc_paused);
  EXPECT_FALSE(changes->config.pfc_asserted);
}

// A whole table goes as it is; entries wait for the current table.
TEST(CcSetTest, EtsWholeTables) {
  nl::Result<CcChanges> changes =
      Parse({"ets-tsa", "strict,strict,strict,ets,ets,strict,strict,strict",
             "ets-weight", "0,0,0,60,40,0,0,0"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  CcConfig want;
  want.ets_tsa = PrioTable{0, 0, 0, RUE_TSA_ETS, RUE_TSA_ETS, 0, 0, 0};
  want.ets_weight = PrioTable{0, 0, 0, 60, 40, 0, 0, 0};
  EXPECT_EQ(changes->config, want);
  EXPECT_TRUE(changes->tables.empty());
}

TEST(CcSetTest, EtsEntries) {
  nl::Result<CcChanges> changes =
      Parse({"ets-t", "3:ets,4:ets", "ets-w", "3:60,4:40,0-2:0"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  EXPECT_EQ(changes->config, CcConfig{});
  ASSERT_EQ(changes->tables.size(), 2u);
  EXPECT_EQ(changes->tables[0].param->key, "ets-tsa");
  EXPECT_EQ(changes->tables[0].entries,
            (std::vector<PrioValue>{{3, RUE_TSA_ETS}, {4, RUE_TSA_ETS}}));
  EXPECT_EQ(changes->tables[1].param->key, "ets-weight");
  EXPECT_EQ(changes->tables[1].entries,
            (std::vector<PrioValue>{{3, 60}, {4, 40}, {0, 0}, {1, 0}, {2, 0}}));
}

// Entries for every priority are a whole table too.
TEST(CcSetTest, EtsEntriesForEveryPriority) {
  nl::Result<CcChanges> changes = Parse({"ets-tsa", "0-7:ets"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  EXPECT_EQ(changes->config.ets_tsa, (PrioTable{1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_TRUE(changes->tables.empty());
}

TEST(CcSetTest, KeyPrefixes) {
  nl::Result<CcChanges> changes = Parse({"ec", "ect0", "rpg-h", "100"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  EXPECT_EQ(changes->config.ecn, uint32_t{RUE_ECN_ECT0});
  EXPECT_EQ(changes->config.rpg_hai_rate, 100u);
  EXPECT_EQ(changes->keys,
            (std::vector<std::string_view>{"ecn", "rpg-hai-rate"}));
}

TEST(CcSetTest, Ranges) {
  EXPECT_EQ(Refusal({"cnp-dscp", "64"}),
            "invalid cnp-dscp \"64\": out of range 0-63");
  EXPECT_EQ(Refusal({"cnp-prio", "8"}),
            "invalid cnp-prio \"8\": out of range 0-7");
  EXPECT_EQ(Refusal({"initial-alpha", "1024"}),
            "invalid initial-alpha \"1024\": out of range 0-1023");
  EXPECT_EQ(Refusal({"dce-tcp-g", "1024"}),
            "invalid dce-tcp-g \"1024\": out of range 0-1023");
  EXPECT_EQ(Refusal({"rpg-min-dec-fac", "101"}),
            "invalid rpg-min-dec-fac \"101\": out of range 0-100");
  EXPECT_EQ(Refusal({"rpg-ai-rate", "4294967296"}),
            "invalid rpg-ai-rate \"4294967296\": out of range 0-4294967295");
  EXPECT_EQ(Refusal({"pfc-quanta", "0"}),
            "invalid pfc-quanta \"0\": out of range 1-65535");
  EXPECT_EQ(Refusal({"pfc-quanta", "65536"}),
            "invalid pfc-quanta \"65536\": out of range 1-65535");
  EXPECT_EQ(Refusal({"pfc-xoff", "4294967296"}),
            "invalid pfc-xoff \"4294967296\": out of range 0-4294967295");
  EXPECT_EQ(Refusal({"ets-weight", "3:101"}),
            "invalid ets-weight \"3:101\": value \"101\": out of range 0-100");
  EXPECT_EQ(Refusal({"ets-weight", "0,0,0,60,140,0,0,0"}),
            "invalid ets-weight \"0,0,0,60,140,0,0,0\": value \"140\": out of "
            "range 0-100");
  EXPECT_EQ(Refusal({"ets-tsa", "8:ets"}),
            "invalid ets-tsa \"8:ets\": priority \"8\": out of range 0-7");
}

TEST(CcSetTest, BadValues) {
  EXPECT_EQ(Refusal({"ecn", "on"}),
            "invalid ecn \"on\": expected off, ect0 or ect1");
  EXPECT_EQ(Refusal({"np-enable", "8"}),
            "invalid np-enable \"8\": priority \"8\": out of range 0-7");
  EXPECT_EQ(Refusal({"rp-enable", "7-3"}),
            "invalid rp-enable \"7-3\": range \"7-3\" runs backwards");
  EXPECT_EQ(Refusal({"clamp-tgt-rate", "yes"}),
            "invalid clamp-tgt-rate \"yes\": expected on, off, 1 or 0");
  EXPECT_EQ(Refusal({"rpg-gd", "-1"}),
            "invalid rpg-gd \"-1\": not a decimal number");
  EXPECT_EQ(Refusal({"dscp-prio", "64:1"}),
            "invalid dscp-prio \"64:1\": DSCP \"64\": out of range 0-63");
  EXPECT_EQ(Refusal({"dscp-prio", "26"}),
            "invalid dscp-prio \"26\": entry \"26\" is not DSCP:PRIO");
  EXPECT_EQ(Refusal({"ets-tsa", "3:wrr"}),
            "invalid ets-tsa \"3:wrr\": TSA \"wrr\": expected strict or ets");
  EXPECT_EQ(Refusal({"ets-tsa", "ets,ets"}),
            "invalid ets-tsa \"ets,ets\": expected 8 values, priority 0 first, "
            "or PRIO:TSA entries; got 2");
  EXPECT_EQ(Refusal({"ets-weight", "3:60,40"}),
            "invalid ets-weight \"3:60,40\": entry \"40\" is not PRIO:VALUE");
  EXPECT_EQ(Refusal({"ets-weight", "3:60,3:40"}),
            "invalid ets-weight \"3:60,3:40\": priority 3 given twice");
  EXPECT_EQ(Refusal({"pfc-enable", "all,8"}),
            "invalid pfc-enable \"all,8\": priority \"all\": not a decimal "
            "number");
}

TEST(CcSetTest, BadKeys) {
  EXPECT_EQ(Refusal({}), "missing KEY VALUE");
  EXPECT_EQ(Refusal({"frob", "1"}),
            "unknown cc parameter \"frob\"; try \"ruectl cc help\"");
  EXPECT_EQ(Refusal({"rpg-m", "1"}),
            "ambiguous cc parameter \"rpg-m\": rpg-min-dec-fac, rpg-min-rate, "
            "rpg-max-rate; try \"ruectl cc help\"");
  EXPECT_EQ(Refusal({"link-speed", "100000"}), "link-speed is read only");
  EXPECT_EQ(Refusal({"link", "100000"}), "link-speed is read only");
  EXPECT_EQ(Refusal({"pfc-paused", "none"}), "pfc-paused is read only");
  EXPECT_EQ(Refusal({"pfc-a", "3"}), "pfc-asserted is read only");
  EXPECT_EQ(Refusal({"ecn"}), "missing value for ecn");
  EXPECT_EQ(Refusal({"ecn", "off", "cnp-dscp"}), "missing value for cnp-dscp");
  EXPECT_EQ(Refusal({"ecn", "off", "ec", "ect0"}), "ecn given twice");
  EXPECT_EQ(Refusal({"e", "off"}),
            "ambiguous cc parameter \"e\": ecn, ets-tsa, ets-weight; try "
            "\"ruectl cc help\"");
  EXPECT_EQ(Refusal({"ets-tsa", "3:ets", "ets-t", "4:ets"}),
            "ets-tsa given twice");
  EXPECT_EQ(Refusal({"dscp-prio", "1:1", "dscp", "2:2"}),
            "dscp-prio given twice");
}

TEST(CcSetTest, FirstErrorWins) {
  EXPECT_EQ(Refusal({"cnp-dscp", "99", "frob", "1"}),
            "invalid cnp-dscp \"99\": out of range 0-63");
}

// "prio P" first: the DCQCN parameters given change for priority P only.
TEST(CcSetTest, Prio) {
  nl::Result<CcChanges> changes =
      Parse({"prio", "3", "rpg-ai-rate", "10", "rpg-hai", "100"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  CcConfig want;
  want.prio = 3;
  want.rpg_ai_rate = 10;
  want.rpg_hai_rate = 100;
  EXPECT_EQ(changes->config, want);
  EXPECT_EQ(changes->keys,
            (std::vector<std::string_view>{"rpg-ai-rate", "rpg-hai-rate"}));
}

TEST(CcSetTest, WithoutPrioEveryPriority) {
  nl::Result<CcChanges> changes = Parse({"rpg-ai-rate", "10"});
  ASSERT_TRUE(changes.ok()) << changes.error().message;
  EXPECT_FALSE(changes->config.prio);
}

TEST(CcSetTest, PrioTakesEveryDcqcnKey) {
  for (uint32_t prio = 0; prio < kPrioCount; ++prio) {
    std::string p = std::to_string(prio);
    nl::Result<CcChanges> changes = Parse({"prio",
                                           p,
                                           "dce-tcp-g",
                                           "2",
                                           "dce-tcp-rtt",
                                           "3",
                                           "initial-alpha",
                                           "1023",
                                           "rate-reduce-monitor-period",
                                           "5",
                                           "rpg-gd",
                                           "6",
                                           "rpg-min-dec-fac",
                                           "100",
                                           "rpg-min-rate",
                                           "8",
                                           "rate-to-set-on-first-cnp",
                                           "10",
                                           "clamp-tgt-rate",
                                           "off",
                                           "clamp-tgt-rate-after-time-inc",
                                           "1",
                                           "rpg-time-reset",
                                           "11",
                                           "rpg-byte-reset",
                                           "12",
                                           "rpg-threshold",
                                           "13",
                                           "rpg-ai-rate",
                                           "14",
                                           "rpg-hai-rate",
                                           "15"});
    ASSERT_TRUE(changes.ok()) << changes.error().message;
    EXPECT_EQ(changes->config.prio, prio);
    EXPECT_EQ(changes->keys.size(), 15u);
  }
}

TEST(CcSetTest, PrioRange) {
  EXPECT_EQ(Refusal({"prio", "8", "rpg-ai-rate", "10"}),
            "invalid prio \"8\": out of range 0-7");
  EXPECT_EQ(Refusal({"prio", "-1", "rpg-ai-rate", "10"}),
            "invalid prio \"-1\": not a decimal number");
  EXPECT_EQ(Refusal({"prio", "all", "rpg-ai-rate", "10"}),
            "invalid prio \"all\": not a decimal number");
  EXPECT_EQ(Refusal({"prio"}), "missing PRIO after prio");
  EXPECT_EQ(Refusal({"prio", "3"}), "missing KEY VALUE");
}

// With prio, a per-device key is refused, whatever its place.
TEST(CcSetTest, PrioRefusesPerDeviceKeys) {
  for (const char* key :
       {"ecn", "cnp-dscp", "cnp-prio", "np-enable", "rp-enable",
        "min-time-between-cnps", "rpg-max-rate", "dscp-prio", "ets-tsa",
        "ets-weight", "pfc-enable", "pfc-xoff", "pfc-xon", "pfc-quanta"}) {
    EXPECT_EQ(Refusal({"prio", "3", key, "1"}),
              std::string(key) +
                  " is per device; prio applies to DCQCN parameters only");
    EXPECT_EQ(Refusal({"prio", "3", "rpg-ai-rate", "10", key, "1"}),
              std::string(key) +
                  " is per device; prio applies to DCQCN parameters only");
  }
  // A prefix is named in full.
  EXPECT_EQ(Refusal({"prio", "3", "ec", "off"}),
            "ecn is per device; prio applies to DCQCN parameters only");
  // Read only comes first.
  EXPECT_EQ(Refusal({"prio", "3", "link-speed", "1"}),
            "link-speed is read only");
}

TEST(CcSetTest, PrioAndDcqcnDifferAreNotKeys) {
  EXPECT_EQ(Refusal({"dcqcn-differ", "3"}), "dcqcn-differ is read only");
  EXPECT_EQ(Refusal({"dcq", "3"}), "dcqcn-differ is read only");
  EXPECT_EQ(Refusal({"prio", "3", "dcqcn-differ", "3"}),
            "dcqcn-differ is read only");
  const char kPrioNotAKey[] =
      "prio is read only as a key; give \"prio PRIO\" right after DEV";
  EXPECT_EQ(Refusal({"rpg-ai-rate", "10", "prio", "3"}), kPrioNotAKey);
  EXPECT_EQ(Refusal({"rpg-ai-rate", "10", "pr", "3"}), kPrioNotAKey);
  EXPECT_EQ(Refusal({"prio", "3", "prio", "4"}), kPrioNotAKey);
}

TEST(CcSetTest, TakePrio) {
  Args none({"rpg-ai-rate", "10"});
  nl::Result<std::optional<uint32_t>> absent = TakePrio(none);
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(*absent);
  EXPECT_EQ(none.Peek(), "rpg-ai-rate");  // nothing taken

  Args empty({});
  ASSERT_TRUE(TakePrio(empty).ok());

  Args given({"prio", "7", "x"});
  nl::Result<std::optional<uint32_t>> seven = TakePrio(given);
  ASSERT_TRUE(seven.ok());
  EXPECT_EQ(*seven, 7u);
  EXPECT_EQ(given.Peek(), "x");

  // The keyword in full only: "pr" is no keyword.
  Args prefix({"pr", "3"});
  nl::Result<std::optional<uint32_t>> short_word = TakePrio(prefix);
  ASSERT_TRUE(short_word.ok());
  EXPECT_FALSE(*short_word);
}

TEST(CcSetTest, ApplyPrioValues) {
  PrioTable table = {0, 0, 0, 60, 40, 0, 0, 0};
  std::vector<PrioValue> changes = {{3, 50}, {4, 50}, {7, 0}};
  EXPECT_EQ(ApplyPrioValues(table, changes),
            (PrioTable{0, 0, 0, 50, 50, 0, 0, 0}));
  EXPECT_EQ(ApplyPrioValues(table, {}), table);
}

TEST(CcSetTest, ApplyDscpPrio) {
  DscpMap map{};
  std::vector<DscpPrio> changes = {{26, 3}, {63, 7}};
  DscpMap changed = ApplyDscpPrio(map, changes);
  EXPECT_EQ(changed[26], 3);
  EXPECT_EQ(changed[63], 7);
  changed[26] = changed[63] = 0;
  EXPECT_EQ(changed, map);
}

}  // namespace
}  // namespace rue::cli
