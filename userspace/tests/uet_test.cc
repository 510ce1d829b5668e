// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UET QPs through ruedv: SEND and WRITE in RUD and ROD, data verified,
// with 64-bit header data, initiator and job in the receive completion;
// one QP talking to several peers; the target's checks (job, 64-bit key,
// job-restricted MR, unknown endpoint) answered with an error completion
// at the initiator and target memory untouched; a receive posted late.
//
// The jobs come from the suite script (selftests/rue_uet.sh), which
// grants kJob and kOtherJob on both devices to root before running us.
#include <infiniband/ruedv.h>

#include <unistd.h>

#include <cstring>
#include <thread>
#include <vector>

#include "tests/fixture.h"
#include "tests/module_param.h"
#include "tests/pattern.h"
#include "tests/uet_side.h"

namespace rue::test {
namespace {

constexpr uint32_t kJob = 0x4242;
constexpr uint32_t kOtherJob = 0x4343;
constexpr uint32_t kUngrantedJob = 0x777777;

class Uet : public ::testing::TestWithParam<std::tuple<Topology, int>> {
 protected:
  void SetUp() override {
    std::string why;
    if (!ResolveTopology(std::get<0>(GetParam()), &a_, &b_, &why))
      GTEST_SKIP() << why;
    mode_ = static_cast<uint8_t>(std::get<1>(GetParam()));
    ruedv_device_attr da{};
    ASSERT_EQ(ruedv_query_device(a_.ctx(), &da, sizeof(da)), 0);
    ASSERT_TRUE(da.caps & RUEDV_DEVICE_CAP_UET_SEND) << "no UET";
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(a_, kJob, mode_, 4 << 20, &a));
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(b_, kJob, mode_, 4 << 20, &b));
    ibv_ah_attr attr = AhAttr(a_, b_.gid());
    ah.reset(ibv_create_ah(a.pd.get(), &attr));
    ASSERT_TRUE(ah) << "ibv_create_ah: " << strerror(errno);
  }

  int Send(UetSide& from, ibv_ah* to, uint32_t to_addr, uint64_t id,
           uint64_t off, uint32_t len, const uint64_t* imm = nullptr) {
    ibv_wr_start(from.qpx);
    from.qpx->wr_id = id;
    from.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(from.qpx);
    if (imm) ruedv_wr_set_imm64(from.qpx, *imm);
    ruedv_wr_set_peer(from.qpx, to, to_addr);
    ibv_wr_set_sge(from.qpx, from.mem.lkey(), from.mem.addr(off), len);
    return ibv_wr_complete(from.qpx);
  }

  int Write(UetSide& from, ibv_ah* to, uint32_t to_addr, uint64_t id,
            uint64_t off, uint32_t len, uint64_t raddr, uint64_t key64,
            const uint64_t* imm = nullptr) {
    ibv_wr_start(from.qpx);
    from.qpx->wr_id = id;
    from.qpx->wr_flags = IBV_SEND_SIGNALED;
    if (imm)
      ibv_wr_rdma_write_imm(from.qpx, static_cast<uint32_t>(key64), raddr, 0);
    else
      ibv_wr_rdma_write(from.qpx, static_cast<uint32_t>(key64), raddr);
    ruedv_wr_set_key64(from.qpx, key64);
    if (imm) ruedv_wr_set_imm64(from.qpx, *imm);
    ruedv_wr_set_peer(from.qpx, to, to_addr);
    ibv_wr_set_sge(from.qpx, from.mem.lkey(), from.mem.addr(off), len);
    return ibv_wr_complete(from.qpx);
  }

  int Read(UetSide& from, ibv_ah* to, uint32_t to_addr, uint64_t id,
           uint64_t off, uint32_t len, uint64_t raddr, uint64_t key64) {
    ibv_wr_start(from.qpx);
    from.qpx->wr_id = id;
    from.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_rdma_read(from.qpx, static_cast<uint32_t>(key64), raddr);
    ruedv_wr_set_key64(from.qpx, key64);
    ruedv_wr_set_peer(from.qpx, to, to_addr);
    ibv_wr_set_sge(from.qpx, from.mem.lkey(), from.mem.addr(off), len);
    return ibv_wr_complete(from.qpx);
  }

  int PostRecvAt(UetSide& s, uint64_t id, uint64_t off, uint32_t len) {
    ibv_sge sge = s.mem.sge(off, len);
    return PostRecv(s.qp.get(), id, &sge, 1);
  }

  Endpoint a_, b_;
  uint8_t mode_ = RUEDV_UET_RUD;
  UetSide a, b;
  Ah ah;
};

std::string UetName(
    const ::testing::TestParamInfo<std::tuple<Topology, int>>& info) {
  return TopologyName(std::get<0>(info.param)) +
         (std::get<1>(info.param) == RUEDV_UET_ROD ? "Rod" : "Rud");
}

INSTANTIATE_TEST_SUITE_P(
    Verbs, Uet,
    ::testing::Combine(::testing::Values(Topology::kTwoDevices,
                                         Topology::kLoopback,
                                         Topology::kTwoDevicesIpv6),
                       ::testing::Values(static_cast<int>(RUEDV_UET_RUD),
                                         static_cast<int>(RUEDV_UET_ROD))),
    UetName);

constexpr uint32_t kSizes[] = {0, 1, 1000, 4096, 65536, 1 << 20};

TEST_P(Uet, SendAllSizes) {
  uint64_t id = 0;
  for (uint32_t len : kSizes) {
    SCOPED_TRACE(len);
    FillRandom(a.mem.buf.span(0, len), len + 1);
    memset(b.mem.data(), 0xee, len + 64);
    ASSERT_EQ(PostRecvAt(b, ++id, 0, len + 64), 0);
    uint64_t imm = 0x0123456789abcdefULL ^ len;
    ASSERT_EQ(Send(a, ah.get(), b.addr, id, 0, len, len % 2 ? nullptr : &imm),
              0);
    std::vector<UetWc> sc, rc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc, Deadline(len)));
    ASSERT_EQ(sc[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(sc[0].opcode, IBV_WC_SEND);
    EXPECT_EQ(sc[0].wr_id, id);
    ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc, Deadline(len)));
    ASSERT_EQ(rc[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(rc[0].opcode, IBV_WC_RECV);
    EXPECT_EQ(rc[0].byte_len, len);
    EXPECT_EQ(rc[0].initiator, a.addr);
    EXPECT_EQ(rc[0].job, kJob);
    if (len % 2 == 0) {
      EXPECT_TRUE(rc[0].flags & IBV_WC_WITH_IMM);
      EXPECT_EQ(rc[0].imm64, imm);
    } else {
      EXPECT_FALSE(rc[0].flags & IBV_WC_WITH_IMM);
    }
    EXPECT_TRUE(SameBytes(b.mem.buf.span(0, len), a.mem.buf.span(0, len)));
    EXPECT_EQ(b.mem.data()[len], 0xee) << "wrote past the message";
  }
}

TEST_P(Uet, WriteAllSizes) {
  uint64_t key = Key64(b.mem.mr.get());
  uint64_t id = 0;
  for (uint32_t len : kSizes) {
    SCOPED_TRACE(len);
    FillRandom(a.mem.buf.span(0, len), len + 7);
    memset(b.mem.data(), 0, 64 + len + 64);
    ASSERT_EQ(Write(a, ah.get(), b.addr, ++id, 0, len, b.mem.addr(64), key),
              0);
    std::vector<UetWc> sc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc, Deadline(len)));
    ASSERT_EQ(sc[0].status, IBV_WC_SUCCESS);
    EXPECT_EQ(sc[0].opcode, IBV_WC_RDMA_WRITE);
    EXPECT_TRUE(SameBytes(b.mem.buf.span(64, len), a.mem.buf.span(0, len)));
    EXPECT_EQ(b.mem.data()[63], 0);
    EXPECT_EQ(b.mem.data()[64 + len], 0);
  }
  std::vector<UetWc> rc;
  EXPECT_FALSE(PollEx(b.rcq.get(), 1, &rc, milliseconds(100)))
      << "a WRITE without header data consumed a receive";
}

// Small WRITEs one at a time: each is the last packet in flight, so a
// lost one opens no SACK hole and draws no NACK; the tail-loss probe finds
// it (rue_uet.sh drops every tenth request for this and checks that no
// RTO was needed).
TEST_P(Uet, SmallWritesOneByOne) {
  constexpr uint32_t kLen = 256;
  uint64_t key = Key64(b.mem.mr.get());
  for (uint64_t id = 1; id <= 100; id++) {
    SCOPED_TRACE(id);
    FillRandom(a.mem.buf.span(0, kLen), id);
    ASSERT_EQ(Write(a, ah.get(), b.addr, id, 0, kLen, b.mem.addr(0), key), 0);
    std::vector<UetWc> sc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc, Deadline(kLen)));
    ASSERT_EQ(sc[0].status, IBV_WC_SUCCESS);
    ASSERT_TRUE(SameBytes(b.mem.buf.span(0, kLen), a.mem.buf.span(0, kLen)));
  }
}

TEST_P(Uet, ReadAllSizes) {
  uint64_t key = Key64(b.mem.mr.get());
  uint64_t id = 0;
  for (uint32_t len : kSizes) {
    SCOPED_TRACE(len);
    FillRandom(b.mem.buf.span(32, len), len + 13);
    memset(a.mem.data(), 0, 64 + len + 64);
    ASSERT_EQ(Read(a, ah.get(), b.addr, ++id, 64, len, b.mem.addr(32), key),
              0);
    std::vector<UetWc> sc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc, Deadline(len)));
    ASSERT_EQ(sc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(sc[0].status);
    EXPECT_EQ(sc[0].opcode, IBV_WC_RDMA_READ);
    EXPECT_EQ(sc[0].byte_len, len);
    EXPECT_TRUE(SameBytes(a.mem.buf.span(64, len), b.mem.buf.span(32, len)));
    EXPECT_EQ(a.mem.data()[63], 0);
    EXPECT_EQ(a.mem.data()[64 + len], 0) << "read past the end";
  }
}

// Several READs in flight, to different parts of the target.
TEST_P(Uet, ManyReadsInFlight) {
  uint64_t key = Key64(b.mem.mr.get());
  constexpr int kN = 64;
  constexpr uint32_t kLen = 40000;
  FillRandom(b.mem.buf.span(0, kN * 65536), 77);
  memset(a.mem.data(), 0, kN * 65536);
  for (int i = 0; i < kN; i++)
    ASSERT_EQ(Read(a, ah.get(), b.addr, i, i * 65536, kLen,
                   b.mem.addr(i * 65536), key),
              0);
  std::vector<UetWc> sc;
  ASSERT_TRUE(PollEx(a.scq.get(), kN, &sc, Deadline(kN * kLen)));
  for (int i = 0; i < kN; i++) {
    ASSERT_EQ(sc[i].status, IBV_WC_SUCCESS) << i;
    ASSERT_EQ(sc[i].wr_id, static_cast<uint64_t>(i));
    ASSERT_TRUE(SameBytes(a.mem.buf.span(i * 65536, kLen),
                          b.mem.buf.span(i * 65536, kLen)))
        << "read " << i;
  }
}

TEST_P(Uet, WriteWithImm64CompletesAReceive) {
  uint64_t key = Key64(b.mem.mr.get());
  constexpr uint32_t kLen = 100000;
  FillRandom(a.mem.buf.span(0, kLen), 99);
  ASSERT_EQ(PostRecvAt(b, 500, 2 << 20, 16), 0);
  uint64_t imm = 0xfeedfacecafebeefULL;
  ASSERT_EQ(
      Write(a, ah.get(), b.addr, 1, 0, kLen, b.mem.addr(4096), key, &imm), 0);
  std::vector<UetWc> sc, rc;
  ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
  ASSERT_EQ(sc[0].status, IBV_WC_SUCCESS);
  ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
  EXPECT_EQ(rc[0].status, IBV_WC_SUCCESS);
  EXPECT_EQ(rc[0].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
  EXPECT_EQ(rc[0].wr_id, 500u);
  EXPECT_EQ(rc[0].imm64, imm);
  EXPECT_EQ(rc[0].initiator, a.addr);
  EXPECT_TRUE(SameBytes(b.mem.buf.span(4096, kLen), a.mem.buf.span(0, kLen)));
}

// Many messages in flight, completions in posting order.
TEST_P(Uet, ManySendsInFlight) {
  constexpr int kN = 250;
  constexpr uint32_t kLen = 3000;
  for (int i = 0; i < kN; i++)
    ASSERT_EQ(PostRecvAt(b, 1000 + i, i * 4096, 4096), 0);
  FillRandom(a.mem.buf.span(0, kN * 4096), 5);
  // RUD fills receives in arrival order: a message says which it is
  for (uint64_t i = 0; i < kN; i++) memcpy(a.mem.data(i * 4096), &i, 8);
  std::vector<UetWc> sc, rc;
  int posted = 0;
  while (static_cast<int>(sc.size()) < kN) {
    while (posted < kN && posted - static_cast<int>(sc.size()) < 128) {
      ASSERT_EQ(Send(a, ah.get(), b.addr, posted, posted * 4096, kLen), 0);
      posted++;
    }
    ASSERT_TRUE(PollEx(a.scq.get(), sc.size() + 1, &sc));
  }
  for (int i = 0; i < kN; i++) {
    ASSERT_EQ(sc[i].status, IBV_WC_SUCCESS) << i;
    ASSERT_EQ(sc[i].wr_id, static_cast<uint64_t>(i)) << "out of order";
  }
  ASSERT_TRUE(PollEx(b.rcq.get(), kN, &rc));
  std::vector<bool> seen(kN);
  for (size_t k = 0; k < rc.size(); k++) {
    const UetWc& w = rc[k];
    ASSERT_EQ(w.status, IBV_WC_SUCCESS);
    ASSERT_EQ(w.byte_len, kLen);
    size_t slot = w.wr_id - 1000;
    uint64_t i;
    memcpy(&i, b.mem.data(slot * 4096), 8);
    ASSERT_LT(i, static_cast<uint64_t>(kN));
    ASSERT_FALSE(seen[i]) << "message " << i << " delivered twice";
    seen[i] = true;
    // ROD: messages complete in the order they were sent (and take the
    // receive WQEs in order)
    if (mode_ == RUEDV_UET_ROD) {
      ASSERT_EQ(i, k) << "out of order";
    }
    ASSERT_TRUE(SameBytes(b.mem.buf.span(slot * 4096, kLen),
                          a.mem.buf.span(i * 4096, kLen)))
        << "message " << i;
  }
  // and nothing more arrives
  std::vector<UetWc> extra;
  EXPECT_FALSE(PollEx(b.rcq.get(), 1, &extra, milliseconds(200)))
      << "a message was delivered twice";
}

// One QP, three peers: every WR names its own.
TEST_P(Uet, OneQpSeveralPeers) {
  UetSide peers[3];
  for (auto& p : peers)
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(b_, kJob, mode_, 1 << 20, &p));
  constexpr uint32_t kLen = 20000;
  for (int round = 0; round < 4; round++) {
    for (int i = 0; i < 3; i++) {
      ASSERT_EQ(PostRecvAt(peers[i], round, round * kLen, kLen), 0);
      uint64_t tag = round * 3 + i;
      FillRandom(a.mem.buf.span(tag * kLen, kLen), tag);
      memcpy(a.mem.data(tag * kLen), &tag, 8);
      ASSERT_EQ(Send(a, ah.get(), peers[i].addr, round * 3 + i,
                     (round * 3 + i) * kLen, kLen),
                0);
    }
  }
  std::vector<UetWc> sc;
  ASSERT_TRUE(PollEx(a.scq.get(), 12, &sc));
  for (auto& w : sc) EXPECT_EQ(w.status, IBV_WC_SUCCESS);
  for (int i = 0; i < 3; i++) {
    std::vector<UetWc> rc;
    ASSERT_TRUE(PollEx(peers[i].rcq.get(), 4, &rc));
    for (auto& w : rc) {
      ASSERT_EQ(w.status, IBV_WC_SUCCESS);
      EXPECT_EQ(w.initiator, a.addr);
      size_t slot = w.wr_id;
      uint64_t tag;
      memcpy(&tag, peers[i].mem.data(slot * kLen), 8);
      EXPECT_EQ(tag % 3, static_cast<uint64_t>(i)) << "went to the wrong peer";
      EXPECT_TRUE(SameBytes(peers[i].mem.buf.span(slot * kLen, kLen),
                            a.mem.buf.span(tag * kLen, kLen)))
          << "peer " << i << " message " << tag;
    }
  }
}

// A PDC idle for longer than rue.uet_idle_ms (1 s) closes (CTRL CLOSE,
// acknowledged); the next message opens a new one (a new SYN).
TEST_P(Uet, IdlePdcClosesAndReopens) {
  for (int round = 0; round < 2; round++) {
    SCOPED_TRACE(round);
    FillRandom(a.mem.buf.span(0, 3000), round);
    ASSERT_EQ(PostRecvAt(b, round, 0, 4096), 0);
    ASSERT_EQ(Send(a, ah.get(), b.addr, round, 0, 3000), 0);
    std::vector<UetWc> sc, rc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
    ASSERT_EQ(sc[0].status, IBV_WC_SUCCESS);
    ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
    EXPECT_TRUE(SameBytes(b.mem.buf.span(0, 3000), a.mem.buf.span(0, 3000)));
    if (round == 0) std::this_thread::sleep_for(milliseconds(2500));
  }
}

// A SEND with no receive posted waits (NACK, then the RTO) for one.
TEST_P(Uet, ReceivePostedLate) {
  FillRandom(a.mem.buf.span(0, 5000), 3);
  ASSERT_EQ(Send(a, ah.get(), b.addr, 7, 0, 5000), 0);
  std::vector<UetWc> sc, rc;
  EXPECT_FALSE(PollEx(a.scq.get(), 1, &sc, milliseconds(20)));
  ASSERT_EQ(PostRecvAt(b, 8, 0, 8192), 0);
  ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
  EXPECT_EQ(sc[0].status, IBV_WC_SUCCESS);
  ASSERT_TRUE(PollEx(b.rcq.get(), 1, &rc));
  EXPECT_EQ(rc[0].byte_len, 5000u);
  EXPECT_TRUE(SameBytes(b.mem.buf.span(0, 5000), a.mem.buf.span(0, 5000)));
}

// The target refuses; the initiator's WQE fails, the QP goes on, target
// memory is untouched.
TEST_P(Uet, TargetChecks) {
  uint64_t key = Key64(b.mem.mr.get());
  memset(b.mem.data(), 0x5a, 8192);
  FillRandom(a.mem.buf.span(0, 4096), 11);

  struct Case {
    const char* what;
    uint64_t key;
    uint32_t addr;
    ibv_wc_status want;
  } cases[] = {
      {"wrong upper key half", key ^ (1ULL << 40), b.addr,
       IBV_WC_REM_ACCESS_ERR},
      {"wrong rkey", key ^ 0x100, b.addr, IBV_WC_REM_ACCESS_ERR},
      {"no such endpoint", key, RUEDV_UET_ADDR(0xfff, 0),
       IBV_WC_REM_INV_REQ_ERR},
      {"wrong resource index", key,
       RUEDV_UET_ADDR(RUEDV_UET_ADDR_PID(b.addr), 5), IBV_WC_REM_INV_REQ_ERR},
  };
  uint64_t id = 0;
  for (auto& c : cases) {
    SCOPED_TRACE(c.what);
    ASSERT_EQ(Write(a, ah.get(), c.addr, ++id, 0, 4096, b.mem.addr(0), c.key),
              0);
    std::vector<UetWc> sc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
    EXPECT_EQ(sc[0].status, c.want) << ibv_wc_status_str(sc[0].status);
    for (int i = 0; i < 8192; i++)
      ASSERT_EQ(b.mem.data()[i], 0x5a) << "target memory changed at " << i;
  }
  // a READ with a bad key: an error, and nothing placed locally
  memset(a.mem.data(8192), 0x33, 4096);
  ASSERT_EQ(Read(a, ah.get(), b.addr, ++id, 8192, 4096, b.mem.addr(0),
                 key ^ (1ULL << 40)),
            0);
  {
    std::vector<UetWc> sc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
    EXPECT_EQ(sc[0].status, IBV_WC_REM_ACCESS_ERR);
    for (int i = 0; i < 4096; i++)
      ASSERT_EQ(a.mem.data(8192)[i], 0x33) << "placed at " << i;
  }
  // and the QP still works
  ASSERT_EQ(Write(a, ah.get(), b.addr, ++id, 0, 4096, b.mem.addr(0), key), 0);
  std::vector<UetWc> sc;
  ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
  EXPECT_EQ(sc[0].status, IBV_WC_SUCCESS);
  EXPECT_TRUE(SameBytes(b.mem.buf.span(0, 4096), a.mem.buf.span(0, 4096)));
}

// Jobs: a QP of another job, and an MR restricted to another job.
TEST_P(Uet, JobIsolation) {
  UetSide other;
  ASSERT_NO_FATAL_FAILURE(MakeUetSide(b_, kOtherJob, mode_, 8192, &other));
  memset(other.mem.data(), 0x5a, 8192);
  FillRandom(a.mem.buf.span(0, 4096), 12);
  ASSERT_EQ(PostRecvAt(other, 1, 0, 8192), 0);
  ASSERT_EQ(Send(a, ah.get(), other.addr, 1, 0, 4096), 0);
  std::vector<UetWc> sc;
  ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
  EXPECT_EQ(sc[0].status, IBV_WC_REM_ACCESS_ERR)
      << ibv_wc_status_str(sc[0].status);
  EXPECT_EQ(other.mem.data()[0], 0x5a);
  std::vector<UetWc> rc;
  EXPECT_FALSE(PollEx(other.rcq.get(), 1, &rc, milliseconds(50)));

  // an MR of b's PD restricted to the other job
  Buffer buf(8192);
  memset(buf.data(), 0x5a, 8192);
  ruedv_mr_init_attr ma{};
  ma.comp_mask = RUEDV_MR_INIT_ATTR_MASK_JOB;
  ma.job_id = kOtherJob;
  Mr mr(ruedv_reg_mr(b.pd.get(), buf.data(), 8192, kAllAccess, &ma,
                     sizeof(ma)));
  ASSERT_TRUE(mr) << "ruedv_reg_mr: " << strerror(errno);
  ruedv_mr_attr mq{};
  ASSERT_EQ(ruedv_query_mr(mr.get(), &mq, sizeof(mq)), 0);
  EXPECT_EQ(mq.job_id, kOtherJob);
  EXPECT_TRUE(mq.flags & RUEDV_MR_F_JOB);
  sc.clear();
  ASSERT_EQ(Write(a, ah.get(), b.addr, 2, 0, 4096, buf.addr(), mq.key64), 0);
  ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
  EXPECT_EQ(sc[0].status, IBV_WC_REM_ACCESS_ERR);
  for (int i = 0; i < 8192; i++) ASSERT_EQ(buf.data()[i], 0x5a) << i;
}

// Creates a UET QP in @job on device A: 0 or the errno.
int TryCreate(uint32_t job, uint8_t mode = RUEDV_UET_RUD) {
  Device& d = DevA();
  Pd pd(ibv_alloc_pd(d.ctx));
  if (!pd) return errno;
  CqEx cq = MakeCqEx(d.ctx, 16);
  if (!cq) return errno;
  ibv_qp_init_attr_ex ax{};
  ax.qp_type = IBV_QPT_DRIVER;
  ax.send_cq = ibv_cq_ex_to_cq(cq.get());
  ax.recv_cq = ibv_cq_ex_to_cq(cq.get());
  ax.cap.max_send_wr = 4;
  ax.cap.max_recv_wr = 4;
  ax.cap.max_send_sge = 1;
  ax.cap.max_recv_sge = 1;
  ax.pd = pd.get();
  ax.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  ax.send_ops_flags = IBV_QP_EX_WITH_SEND;
  ruedv_qp_init_attr ua{};
  ua.job_id = job;
  ua.mode = mode;
  errno = 0;
  Qp qp(ruedv_create_qp(d.ctx, &ax, &ua, sizeof(ua)));
  return qp ? 0 : errno;
}

// Run by selftests/rue_uet.sh as nobody, to whom only 0x4444 is granted.
TEST(UetCreate, UnprivilegedUserOnlyInItsJob) {
  if (geteuid() == 0) GTEST_SKIP() << "run as an unprivileged user";
  EXPECT_EQ(TryCreate(0x4444), 0);
  EXPECT_EQ(TryCreate(kJob), EPERM);
  EXPECT_EQ(TryCreate(kUngrantedJob), ENOENT);
}

TEST(UetCreate, UngrantedJobIsRefused) {
  EXPECT_EQ(TryCreate(kJob), 0);
  EXPECT_EQ(TryCreate(kUngrantedJob), ENOENT);
  EXPECT_EQ(TryCreate(1U << 24), EINVAL) << "not a job ID";
  EXPECT_EQ(TryCreate(kJob, 7), EINVAL) << "no such delivery mode";
}

// A QP at rue.uet_max_qp_pdcs (1 here) closes its initiator PDC idle
// longest to open one to a new peer (kernel/uet/pds_ini.c,
// rue_pdc_make_room()): messages to three addresses in turn - device B's
// IPv4 and IPv6 and device A's own - and back to the first each complete,
// data checked, each after the PDC before it closed.  rue_uet.sh then
// finds pdc_recycled moved.
TEST(UetPdcBound, QpAtItsBoundRecyclesTheIdlest) {
  Endpoint a4, b4;
  std::string why;
  if (!ResolveTopology(Topology::kTwoDevices, &a4, &b4, &why))
    GTEST_SKIP() << why;
  if (!a4.dev->gid6 || !b4.dev->gid6) GTEST_SKIP() << "no IPv6 GIDs";
  const Endpoint a6 = {a4.dev, *a4.dev->gid6};
  ParamOverride bound("uet_max_qp_pdcs", "1");
  ASSERT_TRUE(bound.ok()) << "rue has no uet_max_qp_pdcs";
  UetSide a, b, self;
  ASSERT_NO_FATAL_FAILURE(MakeUetSide(a4, kJob, RUEDV_UET_RUD, 1 << 16, &a));
  ASSERT_NO_FATAL_FAILURE(MakeUetSide(b4, kJob, RUEDV_UET_RUD, 1 << 16, &b));
  ASSERT_NO_FATAL_FAILURE(
      MakeUetSide(a4, kJob, RUEDV_UET_RUD, 1 << 16, &self));
  struct Hop {
    const Endpoint* from;
    ibv_gid to_gid;
    UetSide* to;
  } hops[] = {{&a4, b4.gid(), &b},
              {&a6, b4.dev->Gid(*b4.dev->gid6), &b},
              {&a4, a4.gid(), &self},
              {&a4, b4.gid(), &b}};
  constexpr uint32_t kLen = 5000;
  for (uint32_t i = 0; i < std::size(hops); i++) {
    SCOPED_TRACE(i);
    const Hop& h = hops[i];
    ibv_ah_attr attr = AhAttr(*h.from, h.to_gid);
    Ah ah(ibv_create_ah(a.pd.get(), &attr));
    ASSERT_TRUE(ah) << "ibv_create_ah: " << strerror(errno);
    ibv_sge sge = h.to->mem.sge(i * 8192, 8192);
    ASSERT_EQ(PostRecv(h.to->qp.get(), i, &sge, 1), 0);
    FillRandom(a.mem.buf.span(i * 8192, kLen), i + 11);
    ibv_wr_start(a.qpx);
    a.qpx->wr_id = i;
    a.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(a.qpx);
    ruedv_wr_set_peer(a.qpx, ah.get(), h.to->addr);
    ibv_wr_set_sge(a.qpx, a.mem.lkey(), a.mem.addr(i * 8192), kLen);
    ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
    std::vector<UetWc> sc, rc;
    ASSERT_TRUE(PollEx(a.scq.get(), 1, &sc));
    EXPECT_EQ(sc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(sc[0].status);
    ASSERT_TRUE(PollEx(h.to->rcq.get(), 1, &rc));
    EXPECT_EQ(rc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(rc[0].status);
    EXPECT_TRUE(SameBytes(h.to->mem.buf.span(i * 8192, kLen),
                          a.mem.buf.span(i * 8192, kLen)));
  }
}

// The QPs of one user hold at most rue.uet_max_user_pdcs (1 here)
// initiator PDCs on a device (kernel/uet/pdc_owner.c): a second QP's
// message waits while the first QP's PDC is open, and goes once that
// PDC, idle for rue.uet_idle_ms (1 s), has closed and kicked it.
// rue_uet.sh then finds pdc_user_waits moved.
TEST(UetPdcBound, UserAtItsBoundWaitsForAPdcToClose) {
  Endpoint a4, b4;
  std::string why;
  if (!ResolveTopology(Topology::kTwoDevices, &a4, &b4, &why))
    GTEST_SKIP() << why;
  ParamOverride bound("uet_max_user_pdcs", "1");
  ASSERT_TRUE(bound.ok()) << "rue has no uet_max_user_pdcs";
  UetSide first, second, b;
  ASSERT_NO_FATAL_FAILURE(
      MakeUetSide(a4, kJob, RUEDV_UET_RUD, 1 << 16, &first));
  ASSERT_NO_FATAL_FAILURE(
      MakeUetSide(a4, kJob, RUEDV_UET_RUD, 1 << 16, &second));
  ASSERT_NO_FATAL_FAILURE(MakeUetSide(b4, kJob, RUEDV_UET_RUD, 1 << 16, &b));
  ibv_ah_attr attr = AhAttr(a4, b4.gid());
  Ah ah1(ibv_create_ah(first.pd.get(), &attr));
  Ah ah2(ibv_create_ah(second.pd.get(), &attr));
  ASSERT_TRUE(ah1 && ah2) << "ibv_create_ah: " << strerror(errno);
  constexpr uint32_t kLen = 3000;
  UetSide* from[] = {&first, &second};
  Ah* ahs[] = {&ah1, &ah2};
  for (uint32_t i = 0; i < 2; i++) {
    ibv_sge sge = b.mem.sge(i * 8192, 8192);
    ASSERT_EQ(PostRecv(b.qp.get(), i, &sge, 1), 0);
    FillRandom(from[i]->mem.buf.span(0, kLen), i + 21);
    ibv_wr_start(from[i]->qpx);
    from[i]->qpx->wr_id = i;
    from[i]->qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(from[i]->qpx);
    ruedv_wr_set_peer(from[i]->qpx, ahs[i]->get(), b.addr);
    ibv_wr_set_sge(from[i]->qpx, from[i]->mem.lkey(), from[i]->mem.addr(0),
                   kLen);
    ASSERT_EQ(ibv_wr_complete(from[i]->qpx), 0);
  }
  std::vector<UetWc> sc, rc;
  ASSERT_TRUE(PollEx(first.scq.get(), 1, &sc));
  EXPECT_EQ(sc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(sc[0].status);
  // the first PDC cannot close before it has been idle for 1 s
  sc.clear();
  EXPECT_FALSE(PollEx(second.scq.get(), 1, &sc, milliseconds(500)))
      << "the second QP sent past its user's bound";
  sc.clear();
  ASSERT_TRUE(PollEx(second.scq.get(), 1, &sc));
  EXPECT_EQ(sc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(sc[0].status);
  ASSERT_TRUE(PollEx(b.rcq.get(), 2, &rc));
  for (const UetWc& wc : rc) {
    ASSERT_LT(wc.wr_id, 2u);
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc.status);
    EXPECT_TRUE(SameBytes(b.mem.buf.span(wc.wr_id * 8192, kLen),
                          from[wc.wr_id]->mem.buf.span(0, kLen)))
        << "message " << wc.wr_id;
  }
}

}  // namespace
}  // namespace rue::test
