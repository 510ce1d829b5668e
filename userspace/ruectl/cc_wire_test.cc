// SPDX-License-Identifier: GPL-2.0
//
// The "cc" object's messages: CC_GET replies built here as the kernel
// would send them, and the CC_SET requests ruectl builds, taken apart.
#include "ruectl/cc.h"

#include <gtest/gtest.h>
#include <linux/genetlink.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "nl/genl.h"
#include "nl/test_messages.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// The messages.

constexpr uint16_t kFamily = 0x1d;

DscpMap SampleMap() { return *testing::SampleCc()[0].cc.dscp_prio; }

// Every parameter, as a kernel fills RUE_A_DEV_CC.
void PutKernelCc(nl::MessageBuilder& m) {
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  m.PutU8(RUE_A_CC_ECN, RUE_ECN_ECT0);
  DscpMap map = SampleMap();
  m.PutBytes(RUE_A_CC_DSCP_PRIO, std::as_bytes(std::span(map)));
  m.PutU8(RUE_A_CC_CNP_DSCP, 48).PutU8(RUE_A_CC_CNP_PRIO, 6);
  m.PutU8(RUE_A_CC_NP_ENABLE, 0xe8).PutU8(RUE_A_CC_RP_ENABLE, 0xe8);
  m.PutU32(RUE_A_CC_MIN_TIME_BETWEEN_CNPS, 4);
  m.PutU32(RUE_A_CC_DCE_TCP_G, 1019).PutU32(RUE_A_CC_DCE_TCP_RTT, 1);
  m.PutU32(RUE_A_CC_INITIAL_ALPHA, 1023);
  m.PutU32(RUE_A_CC_RATE_REDUCE_MONITOR_PERIOD, 4);
  m.PutU32(RUE_A_CC_RPG_GD, 11).PutU32(RUE_A_CC_RPG_MIN_DEC_FAC, 50);
  m.PutU32(RUE_A_CC_RPG_MIN_RATE, 1).PutU32(RUE_A_CC_RPG_MAX_RATE, 0);
  m.PutU32(RUE_A_CC_RATE_TO_SET_ON_FIRST_CNP, 0);
  m.PutU8(RUE_A_CC_CLAMP_TGT_RATE, 0);
  m.PutU8(RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC, 1);
  m.PutU32(RUE_A_CC_RPG_TIME_RESET, 300);
  m.PutU32(RUE_A_CC_RPG_BYTE_RESET, 32767);
  m.PutU32(RUE_A_CC_RPG_THRESHOLD, 1);
  m.PutU32(RUE_A_CC_RPG_AI_RATE, 5).PutU32(RUE_A_CC_RPG_HAI_RATE, 50);
  m.PutU32(RUE_A_CC_LINK_SPEED, 25000);
  PrioTable tsa = *testing::SampleCc()[0].cc.ets_tsa;
  PrioTable weight = {0, 0, 0, 60, 40, 0, 0, 0};
  m.PutBytes(RUE_A_CC_ETS_TSA, std::as_bytes(std::span(tsa)));
  m.PutBytes(RUE_A_CC_ETS_WEIGHT, std::as_bytes(std::span(weight)));
  m.PutU8(RUE_A_CC_PFC_ENABLE, 0x18);
  m.PutU32(RUE_A_CC_PFC_XOFF, 65536).PutU32(RUE_A_CC_PFC_XON, 32768);
  m.PutU32(RUE_A_CC_PFC_QUANTA, 65535);
  m.PutU8(RUE_A_CC_PFC_PAUSED, 0).PutU8(RUE_A_CC_PFC_ASSERTED, 0x08);
  m.PutU8(RUE_A_CC_PRIO, 0).PutU8(RUE_A_CC_DCQCN_DIFFER, 0x08);
  m.EndNest(cc);
}

nl::MessageBuilder Reply() {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_CC_GET, 1);
  m.PutU32(RUE_A_DEV_INDEX, 0).PutString(RUE_A_DEV_NAME, "rue0");
  return m;
}

nl::Result<DeviceCc> Parse(const nl::MessageBuilder& m) {
  EXPECT_TRUE(m.ok());
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  EXPECT_TRUE(genl.ok());
  return ParseDeviceCc(genl->attrs);
}

TEST(ParseDeviceCcTest, ReadsWhatTheKernelSends) {
  nl::MessageBuilder m = Reply();
  PutKernelCc(m);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(*d, testing::SampleCc()[0]);
}

// A reply to CC_GET with RUE_A_CC_PRIO 3: the priority it reports, and
// the priorities whose DCQCN parameters are not priority 0's.
TEST(ParseDeviceCcTest, ReadsPrioAndDcqcnDiffer) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  m.PutU32(RUE_A_CC_RPG_AI_RATE, 10).PutU32(RUE_A_CC_RPG_HAI_RATE, 100);
  m.PutU8(RUE_A_CC_PRIO, 3).PutU8(RUE_A_CC_DCQCN_DIFFER, 0xe8);
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  CcConfig want;
  want.rpg_ai_rate = 10;
  want.rpg_hai_rate = 100;
  want.prio = 3;
  want.dcqcn_differ = 0xe8;
  EXPECT_EQ(d->cc, want);
}

TEST(ParseDeviceCcTest, PrioIsAByte) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  m.PutU32(RUE_A_CC_PRIO, 3);
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, EBADMSG);
  EXPECT_EQ(d.error().message, "attribute \"prio\" (33): length 4, expected 1");
}

TEST(ParseDeviceCcTest, MissingParametersStayUnset) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  m.PutU8(RUE_A_CC_ECN, RUE_ECN_OFF).PutU8(RUE_A_CC_RP_ENABLE, 0);
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  CcConfig want;
  want.ecn = RUE_ECN_OFF;
  want.rp_enable = 0;  // set, to zero: not the same as absent
  EXPECT_EQ(d->cc, want);
  EXPECT_FALSE(d->cc.np_enable);
  EXPECT_FALSE(d->cc.dscp_prio);
}

TEST(ParseDeviceCcTest, EmptyNestIsAllAbsent) {
  nl::MessageBuilder m = Reply();
  m.EndNest(m.BeginNest(RUE_A_DEV_CC));
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->cc, CcConfig{});
}

TEST(ParseDeviceCcTest, SkipsUnknownAttributes) {
  nl::MessageBuilder m = Reply();
  m.PutU32(RUE_A_DEV_MAX + 5, 1);  // from a newer kernel
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  m.PutU64(RUE_A_CC_MAX + 1, 7);
  m.PutU32(RUE_A_CC_LINK_SPEED, 100000);
  m.PutBytes(RUE_A_CC_MAX + 9, {});
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  CcConfig want;
  want.link_speed = 100000;
  EXPECT_EQ(d->cc, want);
}

TEST(ParseDeviceCcTest, MissingNestIsBadMessage) {
  nl::Result<DeviceCc> d = Parse(Reply());
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, EBADMSG);
  EXPECT_EQ(d.error().message, "missing attribute \"dev-cc\" (13)");
}

TEST(ParseDeviceCcTest, MissingNameIsBadMessage) {
  nl::MessageBuilder m = nl::testing::MakeGenl(kFamily, RUE_CMD_CC_GET, 1);
  m.PutU32(RUE_A_DEV_INDEX, 0);
  PutKernelCc(m);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, "missing attribute \"dev-name\" (2)");
}

TEST(ParseDeviceCcTest, WrongWidthNamesTheParameter) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  m.PutU32(RUE_A_CC_ECN, RUE_ECN_ECT0);
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, EBADMSG);
  EXPECT_EQ(d.error().message, "attribute \"ecn\" (1): length 4, expected 1");
}

TEST(ParseDeviceCcTest, ShortDscpMapIsBadMessage) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  DscpMap map = SampleMap();
  m.PutBytes(RUE_A_CC_DSCP_PRIO, std::as_bytes(std::span(map).first(63)));
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message,
            "attribute \"dscp-prio\" (2): length 63, expected 64");
}

TEST(ParseDeviceCcTest, PerPriorityTablesAreEightBytes) {
  for (size_t len : {7, 9, 64}) {
    nl::MessageBuilder m = Reply();
    nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
    std::vector<std::byte> raw(len);
    m.PutBytes(RUE_A_CC_ETS_WEIGHT, raw);
    m.EndNest(cc);
    nl::Result<DeviceCc> d = Parse(m);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().code, EBADMSG);
    EXPECT_EQ(d.error().message, "attribute \"ets-weight\" (26): length " +
                                     std::to_string(len) + ", expected 8");
  }
}

TEST(ParseDeviceCcTest, UnknownTsaIsKept) {
  nl::MessageBuilder m = Reply();
  nl::MessageBuilder::Nest cc = m.BeginNest(RUE_A_DEV_CC);
  PrioTable tsa = {0, 1, 2, 0, 0, 0, 0, 255};
  m.PutBytes(RUE_A_CC_ETS_TSA, std::as_bytes(std::span(tsa)));
  m.EndNest(cc);
  nl::Result<DeviceCc> d = Parse(m);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->cc.ets_tsa, tsa);
}

TEST(ParseDeviceCcTest, TruncatedNestIsBadMessage) {
  nl::MessageBuilder m = Reply();
  PutKernelCc(m);
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(m.bytes());
  ASSERT_TRUE(genl.ok());
  nl::Result<DeviceCc> d =
      ParseDeviceCc(genl->attrs.first(genl->attrs.size() - 4));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, EBADMSG);
}

// The attributes of the RUE_A_DEV_CC nest in `attrs`: type and length.
std::vector<std::pair<uint16_t, size_t>> NestContents(nl::Bytes attrs) {
  std::vector<std::pair<uint16_t, size_t>> seen;
  nl::Status walked = nl::ForEachAttr(attrs, [&](const nl::Attr& a) {
    if (a.type() != RUE_A_DEV_CC) return nl::Ok();
    return nl::ForEachAttr(a.payload(), [&](const nl::Attr& b) {
      seen.emplace_back(b.type(), b.payload().size());
      return nl::Ok();
    });
  });
  EXPECT_TRUE(walked.ok());
  return seen;
}

TEST(PutCcTest, OnlyWhatIsSetWithKernelWidths) {
  nl::MessageBuilder m(kFamily, 0);
  CcConfig cc;
  cc.cnp_dscp = 46;
  cc.rpg_ai_rate = 10;
  cc.clamp_tgt_rate = 1;
  PutCc(m, cc);
  ASSERT_TRUE(m.ok());
  using Seen = std::vector<std::pair<uint16_t, size_t>>;
  EXPECT_EQ(NestContents(m.bytes().subspan(NLMSG_HDRLEN)),
            (Seen{{RUE_A_CC_CNP_DSCP, 1},
                  {RUE_A_CC_CLAMP_TGT_RATE, 1},
                  {RUE_A_CC_RPG_AI_RATE, 4}}));
}

TEST(PutCcTest, TablesAndPfcWithKernelWidths) {
  nl::MessageBuilder m(kFamily, 0);
  CcConfig cc;
  cc.ets_weight = PrioTable{0, 0, 0, 50, 50, 0, 0, 0};
  cc.pfc_enable = 0x18;
  cc.pfc_quanta = 0xffff;
  cc.pfc_xoff = 1 << 20;
  PutCc(m, cc);
  ASSERT_TRUE(m.ok());
  using Seen = std::vector<std::pair<uint16_t, size_t>>;
  EXPECT_EQ(NestContents(m.bytes().subspan(NLMSG_HDRLEN)),
            (Seen{{RUE_A_CC_ETS_WEIGHT, 8},
                  {RUE_A_CC_PFC_ENABLE, 1},
                  {RUE_A_CC_PFC_XOFF, 4},
                  {RUE_A_CC_PFC_QUANTA, 4}}));
}

TEST(PutCcTest, PrioWithKernelWidth) {
  nl::MessageBuilder m(kFamily, 0);
  CcConfig cc;
  cc.prio = 3;
  cc.rpg_ai_rate = 10;
  PutCc(m, cc);
  ASSERT_TRUE(m.ok());
  using Seen = std::vector<std::pair<uint16_t, size_t>>;
  EXPECT_EQ(NestContents(m.bytes().subspan(NLMSG_HDRLEN)),
            (Seen{{RUE_A_CC_PRIO, 1}, {RUE_A_CC_RPG_AI_RATE, 4}}));
}

TEST(PutCcTest, NothingSetIsAnEmptyNest) {
  nl::MessageBuilder m(kFamily, 0);
  PutCc(m, CcConfig{});
  EXPECT_TRUE(NestContents(m.bytes().subspan(NLMSG_HDRLEN)).empty());
  EXPECT_EQ(m.bytes().size(), NLMSG_HDRLEN + 4u);
}

TEST(PutCcTest, RoundTrip) {
  CcConfig all = testing::SampleCc()[0].cc;
  nl::MessageBuilder m(kFamily, 0);
  PutCc(m, all);
  ASSERT_TRUE(m.ok());
  std::optional<nl::Bytes> nest;
  nl::Status walked =
      nl::ForEachAttr(m.bytes().subspan(NLMSG_HDRLEN), [&](const nl::Attr& a) {
        nest = a.payload();
        return nl::Ok();
      });
  ASSERT_TRUE(walked.ok() && nest);
  nl::Result<CcConfig> parsed = ParseCc(*nest);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, all);
}

TEST(CcSetRequestTest, NameAndNest) {
  CcConfig changes;
  changes.ecn = RUE_ECN_ECT1;
  changes.dscp_prio = SampleMap();
  nl::MessageBuilder request = CcSetRequest(kFamily, "rue0", changes);
  ASSERT_TRUE(request.ok());
  EXPECT_EQ(request.header()->nlmsg_type, kFamily);
  EXPECT_TRUE(request.header()->nlmsg_flags & NLM_F_REQUEST);
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(request.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_EQ(genl->cmd, RUE_CMD_CC_SET);
  EXPECT_EQ(genl->version, RUE_GENL_VERSION);
  std::vector<uint16_t> top;
  nl::Status walked = nl::ForEachAttr(genl->attrs, [&](const nl::Attr& a) {
    top.push_back(a.type());
    if (a.type() == RUE_A_DEV_NAME) {
      EXPECT_EQ(a.Str(), "rue0");
    }
    // genetlink's strict validation refuses a nest without NLA_F_NESTED.
    if (a.type() == RUE_A_DEV_CC) {
      nlattr header;
      std::memcpy(&header, a.payload().data() - NLA_HDRLEN, sizeof(header));
      EXPECT_TRUE(header.nla_type & NLA_F_NESTED);
    }
    return nl::Ok();
  });
  ASSERT_TRUE(walked.ok());
  EXPECT_EQ(top, (std::vector<uint16_t>{RUE_A_DEV_NAME, RUE_A_DEV_CC}));
  using Seen = std::vector<std::pair<uint16_t, size_t>>;
  EXPECT_EQ(NestContents(genl->attrs),
            (Seen{{RUE_A_CC_ECN, 1}, {RUE_A_CC_DSCP_PRIO, 64}}));
}

// The top-level attributes of a request: their types, the name checked,
// and the nest's payload (empty without one).
struct RequestAttrs {
  std::vector<uint16_t> types;
  nl::Bytes nest;
};

RequestAttrs TopLevel(const nl::GenlMessage& genl, std::string_view name) {
  RequestAttrs attrs;
  nl::Status walked = nl::ForEachAttr(genl.attrs, [&](const nl::Attr& a) {
    attrs.types.push_back(a.type());
    if (a.type() == RUE_A_DEV_NAME) {
      EXPECT_EQ(a.Str(), name);
    }
    if (a.type() == RUE_A_DEV_CC) {
      nlattr header;
      std::memcpy(&header, a.payload().data() - NLA_HDRLEN, sizeof(header));
      EXPECT_TRUE(header.nla_type & NLA_F_NESTED);
      attrs.nest = a.payload();
    }
    return nl::Ok();
  });
  EXPECT_TRUE(walked.ok());
  return attrs;
}

TEST(CcSetRequestTest, PrioGoesInTheNest) {
  CcConfig changes;
  changes.prio = 3;
  changes.rpg_ai_rate = 10;
  changes.rpg_hai_rate = 100;
  nl::MessageBuilder request = CcSetRequest(kFamily, "rue0", changes);
  ASSERT_TRUE(request.ok());
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(request.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_EQ(genl->cmd, RUE_CMD_CC_SET);
  RequestAttrs attrs = TopLevel(*genl, "rue0");
  EXPECT_EQ(attrs.types, (std::vector<uint16_t>{RUE_A_DEV_NAME, RUE_A_DEV_CC}));
  using Seen = std::vector<std::pair<uint16_t, size_t>>;
  EXPECT_EQ(NestContents(genl->attrs), (Seen{{RUE_A_CC_PRIO, 1},
                                             {RUE_A_CC_RPG_AI_RATE, 4},
                                             {RUE_A_CC_RPG_HAI_RATE, 4}}));
  nl::Result<CcConfig> back = ParseCc(attrs.nest);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(*back, changes);
}

TEST(CcGetRequestTest, WithoutPrioNameOnly) {
  nl::MessageBuilder request = CcGetRequest(kFamily, "rue0", std::nullopt);
  ASSERT_TRUE(request.ok());
  EXPECT_EQ(request.header()->nlmsg_type, kFamily);
  EXPECT_TRUE(request.header()->nlmsg_flags & NLM_F_REQUEST);
  nl::Result<nl::GenlMessage> genl = nl::ParseGenl(request.bytes());
  ASSERT_TRUE(genl.ok());
  EXPECT_EQ(genl->cmd, RUE_CMD_CC_GET);
  EXPECT_EQ(genl->version, RUE_GENL_VERSION);
  EXPECT_EQ(TopLevel(*genl, "rue0").types,
            (std::vector<uint16_t>{RUE_A_DEV_NAME}));
}

TEST(CcGetRequestTest, PrioInANestOfItsOwn) {
  for (uint32_t prio : {0u, 3u, 7u}) {
    nl::MessageBuilder request = CcGetRequest(kFamily, "rue0", prio);
    ASSERT_TRUE(request.ok());
    nl::Result<nl::GenlMessage> genl = nl::ParseGenl(request.bytes());
    ASSERT_TRUE(genl.ok());
    EXPECT_EQ(genl->cmd, RUE_CMD_CC_GET);
    RequestAttrs attrs = TopLevel(*genl, "rue0");
    EXPECT_EQ(attrs.types,
              (std::vector<uint16_t>{RUE_A_DEV_NAME, RUE_A_DEV_CC}));
    using Seen = std::vector<std::pair<uint16_t, size_t>>;
    EXPECT_EQ(NestContents(genl->attrs), (Seen{{RUE_A_CC_PRIO, 1}}));
    nl::Result<CcConfig> asked = ParseCc(attrs.nest);
    ASSERT_TRUE(asked.ok()) << asked.error().message;
    EXPECT_EQ(asked->prio, prio);
  }
}

}  // namespace
}  // namespace rue::cli
