// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UET's unreliable unordered delivery (UUD) through ruedv: a QP created
// in mode RUEDV_UET_UUD sends each message as one packet with no PDC and
// nothing acknowledged (kernel/uet/ses_ini.c, ses_tgt.c).  Messages
// arrive whole with their header data, initiator and job; one longer
// than a packet fails at the sender; RMA is refused at post; a message
// that finds no receive posted is gone, not held; a target QP of another
// mode takes UUD messages, one of another job does not.  rue_uet.sh
// checks the counters (uud_sent, uud_delivered, uud_dropped) and runs
// ArrivalsWholeAndOnce under netem.
#include <infiniband/ruedv.h>

#include <cstring>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"
#include "tests/uet_side.h"

namespace rue::test {
namespace {

constexpr uint32_t kJob = 0x4242;       // granted by rue_uet.sh
constexpr uint32_t kOtherJob = 0x4343;  // likewise
// Fits one packet at any MTU rue runs over (ruedv_create_qp(3)).
constexpr uint32_t kFits = 1024;
// Longer than an SES packet's payload can be (14 bits).
constexpr uint32_t kTooLong = 1 << 14;

class Uud : public ::testing::TestWithParam<Topology> {
 protected:
  void SetUp() override {
    std::string why;
    if (!ResolveTopology(GetParam(), &a_, &b_, &why)) GTEST_SKIP() << why;
    ruedv_device_attr da{};
    ASSERT_EQ(ruedv_query_device(a_.ctx(), &da, sizeof(da)), 0);
    if (!(da.caps & RUEDV_DEVICE_CAP_UET_UUD)) GTEST_SKIP() << "no UUD";
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(a_, kJob, RUEDV_UET_UUD, 1 << 20, &a));
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(b_, kJob, RUEDV_UET_UUD, 1 << 20, &b));
    ibv_ah_attr attr = AhAttr(a_, b_.gid());
    ah.reset(ibv_create_ah(a.pd.get(), &attr));
    ASSERT_TRUE(ah) << "ibv_create_ah: " << strerror(errno);
  }

  // A SEND of @len bytes at @off of a's region to @to_addr.
  int Send(uint64_t id, uint64_t off, uint32_t len, uint32_t to_addr,
           const uint64_t* imm = nullptr) {
    ibv_wr_start(a.qpx);
    a.qpx->wr_id = id;
    a.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(a.qpx);
    if (imm) ruedv_wr_set_imm64(a.qpx, *imm);
    ruedv_wr_set_peer(a.qpx, ah.get(), to_addr);
    ibv_wr_set_sge(a.qpx, a.mem.lkey(), a.mem.addr(off), len);
    return ibv_wr_complete(a.qpx);
  }

  int PostRecvAt(UetSide& s, uint64_t id, uint64_t off, uint32_t len) {
    ibv_sge sge = s.mem.sge(off, len);
    return PostRecv(s.qp.get(), id, &sge, 1);
  }

  // The send of @id completed with @want.
  void ExpectSent(uint64_t id, ibv_wc_status want = IBV_WC_SUCCESS) {
    std::vector<UetWc> sc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
    EXPECT_EQ(sc[0].wr_id, id);
    EXPECT_EQ(sc[0].status, want) << ibv_wc_status_str(sc[0].status);
  }

  Endpoint a_, b_;
  UetSide a, b;
  Ah ah;
};

TEST_P(Uud, MessagesArriveWhole) {
  const uint32_t sizes[] = {0, 1, 100, kFits};
  uint64_t id = 0;
  for (uint32_t len : sizes) {
    SCOPED_TRACE(len);
    FillRandom(a.mem.buf.span(0, len), len + 7);
    memset(b.mem.data(), 0xee, len + 64);
    ASSERT_EQ(PostRecvAt(b, ++id, 0, len + 64), 0);
    const uint64_t imm = 0xfedcba9876543210ULL ^ len;
    ASSERT_EQ(Send(id, 0, len, b.addr, len % 2 ? nullptr : &imm), 0);
    ASSERT_NO_FATAL_FAILURE(ExpectSent(id));
    std::vector<UetWc> rc;
    ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
    ASSERT_EQ(rc[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(rc[0].opcode, IBV_WC_RECV);
    EXPECT_EQ(rc[0].wr_id, id);
    EXPECT_EQ(rc[0].byte_len, len);
    EXPECT_EQ(rc[0].initiator, a.addr);
    EXPECT_EQ(rc[0].job, kJob);
    EXPECT_EQ(!!(rc[0].flags & IBV_WC_WITH_IMM), len % 2 == 0);
    if (len % 2 == 0) {
      EXPECT_EQ(rc[0].imm64, imm);
    }
    EXPECT_TRUE(SameBytes(b.mem.buf.span(0, len), a.mem.buf.span(0, len)));
    EXPECT_EQ(b.mem.data()[len], 0xee) << "wrote past the message";
  }
}

// Longer than a packet: the WQE fails, the QP goes on.  A receive too
// short for a message completes in error, as UD's does.
TEST_P(Uud, LengthsChecked) {
  ASSERT_EQ(PostRecvAt(b, 1, 0, kTooLong + 64), 0);
  ASSERT_EQ(Send(1, 0, kTooLong, b.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(1, IBV_WC_LOC_LEN_ERR));
  std::vector<UetWc> rc;
  EXPECT_FALSE(PollEx(b.rcq.get(), 1, &rc, milliseconds(100)));

  ASSERT_EQ(Send(2, 0, kFits, b.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(2));
  ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
  EXPECT_EQ(rc[0].status, IBV_WC_SUCCESS);
  EXPECT_EQ(rc[0].byte_len, kFits);

  rc.clear();
  ASSERT_EQ(PostRecvAt(b, 3, 0, 10), 0);
  ASSERT_EQ(Send(3, 0, 11, b.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(3));
  ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
  EXPECT_EQ(rc[0].wr_id, 3u);
  EXPECT_EQ(rc[0].status, IBV_WC_LOC_LEN_ERR);
}

// UUD has no RMA (UE 1.0.1 3.5): refused when posted.
TEST_P(Uud, RmaRefused) {
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 9;
  ibv_wr_rdma_write(a.qpx, 1, b.mem.addr(0));
  ruedv_wr_set_peer(a.qpx, ah.get(), b.addr);
  ibv_wr_set_sge(a.qpx, a.mem.lkey(), a.mem.addr(0), 64);
  EXPECT_EQ(ibv_wr_complete(a.qpx), EINVAL);
  ibv_wr_start(a.qpx);
  ibv_wr_rdma_read(a.qpx, 1, b.mem.addr(0));
  ruedv_wr_set_peer(a.qpx, ah.get(), b.addr);
  ibv_wr_set_sge(a.qpx, a.mem.lkey(), a.mem.addr(0), 64);
  EXPECT_EQ(ibv_wr_complete(a.qpx), EINVAL);
}

// No receive posted: the sender completes, the message is gone (not
// held for a receive posted later, as RUD holds it).
TEST_P(Uud, NoReceiveLosesTheMessage) {
  FillRandom(a.mem.buf.span(0, 2 * kFits), 5);
  ASSERT_EQ(Send(1, 0, kFits, b.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(1));
  std::vector<UetWc> rc;
  EXPECT_FALSE(PollEx(b.rcq.get(), 1, &rc, milliseconds(200)));
  ASSERT_EQ(PostRecvAt(b, 2, 0, kFits), 0);
  ASSERT_EQ(Send(2, kFits, kFits, b.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(2));
  ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
  EXPECT_EQ(rc[0].wr_id, 2u);
  EXPECT_TRUE(SameBytes(b.mem.buf.span(0, kFits), a.mem.buf.span(kFits, kFits)))
      << "the second message";
}

// The mode is what a QP sends: a RUD QP receives UUD messages.  A QP of
// another job does not.
TEST_P(Uud, TargetsOfOtherModesAndJobs) {
  UetSide rud, other;
  ASSERT_NO_FATAL_FAILURE(MakeUetSide(b_, kJob, RUEDV_UET_RUD, 1 << 16, &rud));
  ASSERT_NO_FATAL_FAILURE(
      MakeUetSide(b_, kOtherJob, RUEDV_UET_UUD, 1 << 16, &other));
  FillRandom(a.mem.buf.span(0, kFits), 9);
  ASSERT_EQ(PostRecvAt(rud, 1, 0, kFits), 0);
  ASSERT_EQ(PostRecvAt(other, 2, 0, kFits), 0);

  ASSERT_EQ(Send(1, 0, kFits, rud.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(1));
  std::vector<UetWc> rc;
  ASSERT_TRUE(PollEx(rud.rcq.get(), 1, &rc));
  EXPECT_EQ(rc[0].status, IBV_WC_SUCCESS);
  EXPECT_TRUE(SameBytes(rud.mem.buf.span(0, kFits), a.mem.buf.span(0, kFits)));

  ASSERT_EQ(Send(2, 0, kFits, other.addr), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSent(2));
  rc.clear();
  EXPECT_FALSE(PollEx(other.rcq.get(), 1, &rc, milliseconds(200)))
      << "a QP of another job took it";
}

// Under loss (rue_uet.sh runs it under netem and compares the count
// with uud_sent and uud_delivered): the sender completes every message;
// what arrives arrives whole, each message at most once, in any order.
TEST_P(Uud, ArrivalsWholeAndOnce) {
  // in rounds: the receive queue holds 256 (uet_side.cc)
  constexpr uint32_t kRounds = 4, kPerRound = 100, kLen = 512;
  constexpr uint32_t kMessages = kRounds * kPerRound;
  FillRandom(a.mem.buf.span(0, kMessages * kLen), 77);
  std::vector<bool> taken(kMessages);
  size_t arrived = 0;
  for (uint32_t r = 0; r < kRounds; r++) {
    const uint32_t first = r * kPerRound;
    for (uint32_t i = first; i < first + kPerRound; i++)
      ASSERT_EQ(PostRecvAt(b, i, i * kLen, kLen), 0);
    for (uint32_t i = first; i < first + kPerRound; i++) {
      ASSERT_EQ(Send(i, i * kLen, kLen, b.addr), 0);
      ASSERT_NO_FATAL_FAILURE(ExpectSent(i));
    }
    std::vector<UetWc> rc;
    PollEx(b.rcq.get(), kPerRound, &rc, milliseconds(1000));
    arrived += rc.size();
    for (const UetWc& wc : rc) {
      ASSERT_EQ(wc.status, IBV_WC_SUCCESS);
      ASSERT_LT(wc.wr_id, kMessages);
      ASSERT_EQ(wc.byte_len, kLen);
      // receives are taken in posting order, messages as they come
      const uint8_t* got = b.mem.data(wc.wr_id * kLen);
      uint32_t m = 0;
      while (m < kMessages && memcmp(got, a.mem.data(m * kLen), kLen)) m++;
      ASSERT_LT(m, kMessages) << "receive " << wc.wr_id << " holds none";
      EXPECT_FALSE(taken[m]) << "message " << m << " arrived twice";
      taken[m] = true;
    }
  }
  printf("# UUD: %zu of %u messages arrived\n", arrived, kMessages);
}

INSTANTIATE_TEST_SUITE_P(Verbs, Uud,
                         ::testing::Values(Topology::kTwoDevices,
                                           Topology::kTwoDevicesIpv6),
                         [](const ::testing::TestParamInfo<Topology>& info) {
                           return TopologyName(info.param);
                         });

}  // namespace
}  // namespace rue::test
