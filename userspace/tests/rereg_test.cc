// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ibv_rereg_mr(): a new translation, new access rights or a new PD for a
// registered MR.  The keys it returns reach exactly what the MR now
// covers, with exactly its new rights; the old rkey reaches nothing.
#include <algorithm>
#include <cstring>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

constexpr size_t kSize = 16384;

class Rereg : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.retry_cnt = 0;  // an access error ends the test's QP at once
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), kSize, kAllAccess, &la));
    FillRandom(la.buf.span(), 7);
  }

  // a WRITEs la's first @len bytes to @addr with @rkey; the status.
  ibv_wc_status Write(uint64_t addr, uint32_t rkey, uint32_t len) {
    ibv_sge s = la.sge(0, len);
    ibv_send_wr wr = RdmaWr(1, IBV_WR_RDMA_WRITE, &s, 1, addr, rkey);
    EXPECT_EQ(PostSend(p.a.qp.get(), &wr), 0);
    ibv_wc wc{};
    EXPECT_TRUE(PollOne(p.a.scq.get(), &wc));
    return wc.status;
  }

  RcPair p;
  Region la;
};

// The MR moves to another buffer: WRITEs through the new rkey land there,
// the old buffer is left alone, and the old rkey is refused.
TEST_P(Rereg, Translation) {
  Buffer x(kSize), y(kSize);
  memset(x.data(), 0, kSize);
  memset(y.data(), 0, kSize);
  Mr mr(ibv_reg_mr(p.b.pd.get(), x.data(), kSize, kAllAccess));
  ASSERT_TRUE(mr) << strerror(errno);
  const uint32_t old_rkey = mr->rkey;
  ASSERT_EQ(Write(x.addr(), mr->rkey, 4096), IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(x.data(), la.data(), 4096), 0);

  memset(x.data(), 0, kSize);
  ASSERT_EQ(ibv_rereg_mr(mr.get(), IBV_REREG_MR_CHANGE_TRANSLATION, nullptr,
                         y.data(), kSize, 0),
            0);
  EXPECT_EQ(mr->addr, y.data());
  ASSERT_EQ(Write(y.addr(1024), mr->rkey, 4096), IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(y.data() + 1024, la.data(), 4096), 0);
  EXPECT_TRUE(std::all_of(x.data(), x.data() + kSize,
                          [](uint8_t c) { return c == 0; }))
      << "written through the MR's old translation";
  if (old_rkey != mr->rkey) {
    EXPECT_EQ(Write(x.addr(), old_rkey, 64), IBV_WC_REM_ACCESS_ERR);
  }
}

// Rights change both ways.
TEST_P(Rereg, Access) {
  Buffer x(kSize);
  Mr mr(ibv_reg_mr(p.b.pd.get(), x.data(), kSize, IBV_ACCESS_LOCAL_WRITE));
  ASSERT_TRUE(mr) << strerror(errno);
  ASSERT_EQ(ibv_rereg_mr(mr.get(), IBV_REREG_MR_CHANGE_ACCESS, nullptr,
                         nullptr, 0,
                         IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE),
            0);
  ASSERT_EQ(Write(x.addr(), mr->rkey, 4096), IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(x.data(), la.data(), 4096), 0);
  ASSERT_EQ(ibv_rereg_mr(mr.get(), IBV_REREG_MR_CHANGE_ACCESS, nullptr,
                         nullptr, 0, IBV_ACCESS_LOCAL_WRITE),
            0);
  EXPECT_EQ(Write(x.addr(), mr->rkey, 64), IBV_WC_REM_ACCESS_ERR);
}

// An MR moved to the QP's PD serves its SENDs; its old PD is free to go.
TEST_P(Rereg, ProtectionDomain) {
  Pd other(ibv_alloc_pd(a_.ctx()));
  ASSERT_TRUE(other);
  Buffer x(kSize);
  FillRandom(x.span(), 9);
  Mr mr(ibv_reg_mr(other.get(), x.data(), kSize, kAllAccess));
  ASSERT_TRUE(mr) << strerror(errno);
  ASSERT_EQ(ibv_rereg_mr(mr.get(), IBV_REREG_MR_CHANGE_PD, p.a.pd.get(),
                         nullptr, 0, 0),
            0);
  EXPECT_EQ(mr->pd, p.a.pd.get());
  other.reset();  // fails the test if the MR still held it

  Region lb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), kSize, kAllAccess, &lb));
  ibv_sge rs = lb.sge(0, 4096);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 2, &rs, 1), 0);
  ibv_sge s = {x.addr(), 4096, mr->lkey};
  ibv_send_wr wr = SendWr(2, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
  EXPECT_EQ(memcmp(lb.data(), x.data(), 4096), 0);
}

// A new translation needs an address and a length.
TEST_P(Rereg, BadTranslationRefused) {
  Buffer x(kSize);
  Mr mr(ibv_reg_mr(p.b.pd.get(), x.data(), kSize, kAllAccess));
  ASSERT_TRUE(mr) << strerror(errno);
  const uint32_t rkey = mr->rkey;
  EXPECT_NE(ibv_rereg_mr(mr.get(), IBV_REREG_MR_CHANGE_TRANSLATION, nullptr,
                         nullptr, kSize, 0),
            0);
  EXPECT_NE(ibv_rereg_mr(mr.get(), IBV_REREG_MR_CHANGE_TRANSLATION, nullptr,
                         x.data(), 0, 0),
            0);
  EXPECT_EQ(mr->rkey, rkey);
  EXPECT_EQ(Write(x.addr(), mr->rkey, 64), IBV_WC_SUCCESS);
}

RUE_TOPOLOGIES(Rereg);

}  // namespace
}  // namespace rue::test
