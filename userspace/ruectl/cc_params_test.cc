// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_params.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <set>
#include <string>

namespace rue::cli {
namespace {

// A reminder, not a build break: a new rue_cc_attr in the uapi header
// needs its row (and a field in cc_fields.cc) before ruectl shows it.
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

}  // namespace
}  // namespace rue::cli
