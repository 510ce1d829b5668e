// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Memory windows (IBTA 10.6.7): B opens part of an MR to A through a
// window's rkey, with the window's bounds and rights; A's requests reach
// exactly that, and nothing once the window is bound elsewhere,
// invalidated or deallocated.  Type 1 windows through ibv_bind_mw(),
// type 2 through bind work requests (ibv_post_send and ibv_wr_bind_mw).
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <memory>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

constexpr size_t kSize = 16384;
constexpr int kBindAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND;

struct MwDeleter {
  void operator()(ibv_mw* mw) const {
    EXPECT_EQ(ibv_dealloc_mw(mw), 0) << "ibv_dealloc_mw";
  }
};
using Mw = std::unique_ptr<ibv_mw, MwDeleter>;

class MemoryWindow : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.retry_cnt = 0;  // an access error ends the test's QPs at once
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), kSize, kAllAccess, &la));
    FillRandom(la.buf.span(), 11);
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), kSize, kBindAccess, &lb));
    memset(lb.data(), 0, kSize);
  }

  Mw Alloc(ibv_mw_type type) {
    Mw mw(ibv_alloc_mw(p.b.pd.get(), type));
    EXPECT_TRUE(mw) << strerror(errno);
    return mw;
  }

  static ibv_mw_bind_info Info(ibv_mr* mr, uint64_t addr, uint64_t len,
                               unsigned access) {
    ibv_mw_bind_info i{};
    i.mr = mr;
    i.addr = addr;
    i.length = len;
    i.mw_access_flags = access;
    return i;
  }

  // B binds a type 1 window (the verb); the bind's completion status.
  ibv_wc_status Bind1(ibv_mw* mw, const ibv_mw_bind_info& info) {
    ibv_mw_bind b{};
    b.wr_id = 77;
    b.send_flags = IBV_SEND_SIGNALED;
    b.bind_info = info;
    EXPECT_EQ(ibv_bind_mw(p.b.qp.get(), mw, &b), 0);
    return BindCompletion();
  }

  // B binds a type 2 window with a work request; the bind's status.
  ibv_wc_status Bind2(ibv_mw* mw, uint32_t rkey, const ibv_mw_bind_info& info) {
    ibv_send_wr wr = SendWr(77, IBV_WR_BIND_MW, nullptr, 0);
    wr.bind_mw.mw = mw;
    wr.bind_mw.rkey = rkey;
    wr.bind_mw.bind_info = info;
    EXPECT_EQ(PostSend(p.b.qp.get(), &wr), 0);
    return BindCompletion();
  }

  ibv_wc_status BindCompletion() {
    ibv_wc wc{};
    EXPECT_TRUE(PollOne(p.b.scq.get(), &wc));
    EXPECT_EQ(wc.wr_id, 77u);
    if (wc.status == IBV_WC_SUCCESS) {
      EXPECT_EQ(wc.opcode, IBV_WC_BIND_MW);
    }
    return wc.status;
  }

  // A new type 1 window bound over @len bytes of lb at @off; null, and a
  // test failure, when the allocation or the bind fails.
  Mw Bound1(size_t off, uint64_t len, unsigned access) {
    Mw mw = Alloc(IBV_MW_TYPE_1);
    if (mw && Bind1(mw.get(), Info(lb.mr.get(), lb.addr(off), len,
                                   access)) != IBV_WC_SUCCESS) {
      ADD_FAILURE() << "binding a type 1 window failed";
      mw.reset();
    }
    return mw;
  }

  // The same for type 2, bound by a work request; *@rkey its new key.
  Mw Bound2(size_t off, uint64_t len, unsigned access, uint32_t* rkey) {
    Mw mw = Alloc(IBV_MW_TYPE_2);
    if (!mw) return mw;
    *rkey = ibv_inc_rkey(mw->rkey);
    if (Bind2(mw.get(), *rkey, Info(lb.mr.get(), lb.addr(off), len,
                                    access)) != IBV_WC_SUCCESS) {
      ADD_FAILURE() << "binding a type 2 window failed";
      mw.reset();
    }
    return mw;
  }

  // B's LOCAL_INV of @rkey; its completion.
  ibv_wc LocalInv(uint32_t rkey) {
    ibv_send_wr inv = SendWr(78, IBV_WR_LOCAL_INV, nullptr, 0);
    inv.invalidate_rkey = rkey;
    EXPECT_EQ(PostSend(p.b.qp.get(), &inv), 0);
    ibv_wc wc{};
    EXPECT_TRUE(PollOne(p.b.scq.get(), &wc));
    return wc;
  }

  // A's WRITE (or READ) of @len bytes at @addr through @rkey; the status.
  ibv_wc_status Rdma(ibv_wr_opcode op, uint64_t addr, uint32_t rkey,
                     uint32_t len, size_t off = 0) {
    ibv_sge s = la.sge(off, len);
    ibv_send_wr wr = RdmaWr(1, op, &s, 1, addr, rkey);
    EXPECT_EQ(PostSend(p.a.qp.get(), &wr), 0);
    ibv_wc wc{};
    EXPECT_TRUE(PollOne(p.a.scq.get(), &wc));
    return wc.status;
  }

  RcPair p;
  Region la;
  Region lb;
};

TEST_P(MemoryWindow, DeviceReportsWindows) {
  ibv_device_attr attr{};
  ASSERT_EQ(ibv_query_device(p.b.ctx(), &attr), 0);
  EXPECT_GT(attr.max_mw, 0);
  EXPECT_TRUE(attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW);
  EXPECT_TRUE(attr.device_cap_flags & IBV_DEVICE_MEM_WINDOW_TYPE_2B);
}

// WRITE and READ land in the window, at the MR's addresses; one byte past
// its end is refused.
TEST_P(MemoryWindow, Type1BoundsAndData) {
  Mw mw = Alloc(IBV_MW_TYPE_1);
  ASSERT_TRUE(mw);
  const uint32_t unbound = mw->rkey;
  ASSERT_EQ(Bind1(mw.get(), Info(lb.mr.get(), lb.addr(4096), 8192,
                                 IBV_ACCESS_REMOTE_WRITE |
                                     IBV_ACCESS_REMOTE_READ)),
            IBV_WC_SUCCESS);
  EXPECT_NE(mw->rkey, unbound);
  EXPECT_EQ(mw->rkey >> 8, unbound >> 8);

  ASSERT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(4096), mw->rkey, 8192),
            IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(lb.data(4096), la.data(), 8192), 0);
  EXPECT_EQ(lb.data(4095)[0], 0);
  EXPECT_EQ(lb.data(12288)[0], 0);
  ASSERT_EQ(Rdma(IBV_WR_RDMA_READ, lb.addr(8192), mw->rkey, 4096, 8192),
            IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(la.data(8192), lb.data(8192), 4096), 0);

  EXPECT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(12288 - 63), mw->rkey, 64),
            IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(lb.data(12288)[0], 0);
}

// A window's rights are its own: read-only, although the MR may be written.
TEST_P(MemoryWindow, Type1RightsAreTheWindows) {
  Mw mw = Bound1(0, kSize, IBV_ACCESS_REMOTE_READ);
  ASSERT_TRUE(mw);
  ASSERT_EQ(Rdma(IBV_WR_RDMA_READ, lb.addr(), mw->rkey, 4096),
            IBV_WC_SUCCESS);
  EXPECT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), mw->rkey, 64),
            IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(lb.data()[0], 0);
}

// Binding again moves the window: the new rkey reaches the new range, the
// old rkey nothing.
TEST_P(MemoryWindow, Type1RebindRetiresTheOldKey) {
  Mw mw = Bound1(0, 4096, IBV_ACCESS_REMOTE_WRITE);
  ASSERT_TRUE(mw);
  const uint32_t old = mw->rkey;
  ASSERT_EQ(Bind1(mw.get(), Info(lb.mr.get(), lb.addr(8192), 4096,
                                 IBV_ACCESS_REMOTE_WRITE)),
            IBV_WC_SUCCESS);
  ASSERT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(8192), mw->rkey, 4096),
            IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(lb.data(8192), la.data(), 4096), 0);
  EXPECT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), old, 64),
            IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(lb.data()[0], 0);
}

// A bind of length 0 unbinds a type 1 window: its keys reach nothing.
TEST_P(MemoryWindow, Type1UnbindByZeroLength) {
  Mw mw = Bound1(0, 4096, IBV_ACCESS_REMOTE_WRITE);
  ASSERT_TRUE(mw);
  const uint32_t bound = mw->rkey;
  ASSERT_EQ(Bind1(mw.get(), Info(nullptr, 0, 0, 0)), IBV_WC_SUCCESS);
  EXPECT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), bound, 64),
            IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(lb.data()[0], 0);
}

// Atomics through a window act on the MR's memory.
TEST_P(MemoryWindow, AtomicThroughWindow) {
  Mw mw = Bound1(64, 64, IBV_ACCESS_REMOTE_ATOMIC);
  ASSERT_TRUE(mw);
  uint64_t v = 40;
  memcpy(lb.data(64), &v, sizeof(v));
  ibv_sge s = la.sge(0, 8);
  ibv_send_wr wr = SendWr(3, IBV_WR_ATOMIC_FETCH_AND_ADD, &s, 1);
  wr.wr.atomic.remote_addr = lb.addr(64);
  wr.wr.atomic.rkey = mw->rkey;
  wr.wr.atomic.compare_add = 2;
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_wc wc{};
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  memcpy(&v, lb.data(64), sizeof(v));
  EXPECT_EQ(v, 42u);
  memcpy(&v, la.data(), sizeof(v));
  EXPECT_EQ(v, 40u);
}

// A type 2 window bound by a work request, then invalidated locally.
TEST_P(MemoryWindow, Type2BindAndLocalInvalidate) {
  uint32_t rkey = 0;
  Mw mw = Bound2(0, 4096, IBV_ACCESS_REMOTE_WRITE, &rkey);
  ASSERT_TRUE(mw);
  ASSERT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), rkey, 4096), IBV_WC_SUCCESS);
  EXPECT_EQ(memcmp(lb.data(), la.data(), 4096), 0);

  const ibv_wc wc = LocalInv(rkey);
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.opcode, IBV_WC_LOCAL_INV);

  memset(lb.data(), 0, 64);
  EXPECT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), rkey, 64),
            IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(lb.data()[0], 0);
}

// SEND with invalidate from A ends B's type 2 window; B's receive says
// which rkey.
TEST_P(MemoryWindow, Type2RemoteInvalidate) {
  uint32_t rkey = 0;
  Mw mw = Bound2(0, 4096, IBV_ACCESS_REMOTE_WRITE, &rkey);
  ASSERT_TRUE(mw);
  ibv_sge rs = lb.sge(8192, 64);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 5, &rs, 1), 0);
  ibv_sge s = la.sge(0, 64);
  ibv_send_wr wr = SendWr(4, IBV_WR_SEND_WITH_INV, &s, 1);
  wr.invalidate_rkey = rkey;
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_wc wc{};
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(wc.wc_flags & IBV_WC_WITH_INV);
  EXPECT_EQ(wc.invalidated_rkey, rkey);

  EXPECT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), rkey, 64),
            IBV_WC_REM_ACCESS_ERR);
  EXPECT_EQ(lb.data()[0], 0);
}

// A type 2 window serves only the QP it is bound to, even in its PD.
TEST_P(MemoryWindow, Type2OnlyForItsQp) {
  QpOptions oa, ob;
  oa.retry_cnt = 0;
  ob.retry_cnt = 0;
  ob.pd = p.b.pd.get();
  RcPair q;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &q));
  uint32_t rkey = 0;
  Mw mw = Bound2(0, 4096, IBV_ACCESS_REMOTE_WRITE, &rkey);
  ASSERT_TRUE(mw);

  Region qa;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(q.a.pd.get(), 64, kAllAccess, &qa));
  ibv_sge s = qa.sge(0, 64);
  ibv_send_wr wr = RdmaWr(6, IBV_WR_RDMA_WRITE, &s, 1, lb.addr(), rkey);
  ASSERT_EQ(PostSend(q.a.qp.get(), &wr), 0);
  ibv_wc wc{};
  ASSERT_TRUE(PollOne(q.a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_REM_ACCESS_ERR) << WcString(wc);
  ASSERT_EQ(Rdma(IBV_WR_RDMA_WRITE, lb.addr(), rkey, 64), IBV_WC_SUCCESS);
}

// A destroyed QP's type 2 windows end with it: their MR can then go.
TEST_P(MemoryWindow, Type2EndsWithItsQp) {
  QpOptions oa, ob;
  ob.pd = p.b.pd.get();
  RcPair q;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &q));
  Buffer x(kSize);
  ibv_mr* mr = ibv_reg_mr(p.b.pd.get(), x.data(), kSize, kBindAccess);
  ASSERT_TRUE(mr) << strerror(errno);
  Mw mw = Alloc(IBV_MW_TYPE_2);
  ASSERT_TRUE(mw);
  ibv_send_wr wr = SendWr(82, IBV_WR_BIND_MW, nullptr, 0);
  wr.bind_mw.mw = mw.get();
  wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
  wr.bind_mw.bind_info = Info(mr, x.addr(), 4096, IBV_ACCESS_REMOTE_READ);
  ASSERT_EQ(PostSend(q.b.qp.get(), &wr), 0);
  ibv_wc wc{};
  ASSERT_TRUE(PollOne(q.b.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  const int busy = ibv_dereg_mr(mr);
  EXPECT_EQ(busy, EBUSY);
  q.b.qp.reset();
  if (busy) {
    EXPECT_EQ(ibv_dereg_mr(mr), 0);
  }
}

// An MR with a window bound to it cannot be deregistered; once the window
// is gone it can.
TEST_P(MemoryWindow, DeregisterWaitsForWindows) {
  Buffer x(kSize);
  ibv_mr* mr = ibv_reg_mr(p.b.pd.get(), x.data(), kSize, kBindAccess);
  ASSERT_TRUE(mr) << strerror(errno);
  int busy = 0;
  {
    Mw mw = Alloc(IBV_MW_TYPE_1);
    ASSERT_TRUE(mw);
    ASSERT_EQ(Bind1(mw.get(), Info(mr, x.addr(), 4096,
                                   IBV_ACCESS_REMOTE_READ)),
              IBV_WC_SUCCESS);
    busy = ibv_dereg_mr(mr);
    EXPECT_EQ(busy, EBUSY);
  }
  if (busy) {
    EXPECT_EQ(ibv_dereg_mr(mr), 0);
  }
}

// Binds the MR does not allow fail in their completion and open nothing.
TEST_P(MemoryWindow, BindWithoutMwBindRightFails) {
  Region plain;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), 4096, IBV_ACCESS_LOCAL_WRITE, &plain));
  Mw mw = Alloc(IBV_MW_TYPE_1);
  ASSERT_TRUE(mw);
  const uint32_t rkey = mw->rkey;
  EXPECT_EQ(Bind1(mw.get(), Info(plain.mr.get(), plain.addr(), 4096,
                                 IBV_ACCESS_REMOTE_READ)),
            IBV_WC_MW_BIND_ERR);
  mw->rkey = rkey;  // the consumer restores it after a failed bind
}

// Remote write rights need a locally writable MR (IBTA C10-74).
TEST_P(MemoryWindow, WriteWindowNeedsWritableMr) {
  Region ro;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), 4096, IBV_ACCESS_MW_BIND, &ro));
  Mw mw = Alloc(IBV_MW_TYPE_1);
  ASSERT_TRUE(mw);
  EXPECT_EQ(Bind1(mw.get(), Info(ro.mr.get(), ro.addr(), 4096,
                                 IBV_ACCESS_REMOTE_WRITE)),
            IBV_WC_MW_BIND_ERR);
}

// A window beyond its MR's end is refused (C10-75).
TEST_P(MemoryWindow, WindowBeyondMrFails) {
  Mw mw = Alloc(IBV_MW_TYPE_2);
  ASSERT_TRUE(mw);
  EXPECT_EQ(Bind2(mw.get(), ibv_inc_rkey(mw->rkey),
                  Info(lb.mr.get(), lb.addr(4096), kSize,
                       IBV_ACCESS_REMOTE_READ)),
            IBV_WC_MW_BIND_ERR);
}

// Arguments refused before anything is posted.
TEST_P(MemoryWindow, BadArgumentsRefused) {
  Mw one = Alloc(IBV_MW_TYPE_1);
  Mw two = Alloc(IBV_MW_TYPE_2);
  ASSERT_TRUE(one && two);
  const ibv_mw_bind_info info =
      Info(lb.mr.get(), lb.addr(), 4096, IBV_ACCESS_REMOTE_READ);

  // a type 1 window in a work request, a type 2 window to the verb
  ibv_send_wr wr = SendWr(1, IBV_WR_BIND_MW, nullptr, 0);
  wr.bind_mw.mw = one.get();
  wr.bind_mw.rkey = ibv_inc_rkey(one->rkey);
  wr.bind_mw.bind_info = info;
  EXPECT_EQ(PostSend(p.b.qp.get(), &wr), EINVAL);
  ibv_mw_bind b{};
  b.bind_info = info;
  EXPECT_EQ(ibv_bind_mw(p.b.qp.get(), two.get(), &b), EINVAL);

  // another window's index in the new rkey; zero-based or local rights
  wr.bind_mw.mw = two.get();
  wr.bind_mw.rkey = one->rkey;
  EXPECT_EQ(PostSend(p.b.qp.get(), &wr), EINVAL);
  wr.bind_mw.rkey = ibv_inc_rkey(two->rkey);
  wr.bind_mw.bind_info.mw_access_flags |= IBV_ACCESS_ZERO_BASED;
  EXPECT_EQ(PostSend(p.b.qp.get(), &wr), EINVAL);
  wr.bind_mw.bind_info.mw_access_flags = IBV_ACCESS_LOCAL_WRITE;
  EXPECT_EQ(PostSend(p.b.qp.get(), &wr), EINVAL);
  EXPECT_TRUE(NoCompletion(p.b.scq.get(), milliseconds(100)));
}

// A window's rkey is no lkey: a local SGE naming it is a protection error.
TEST_P(MemoryWindow, WindowKeyIsNoLocalKey) {
  Mw mw = Bound1(0, kSize, IBV_ACCESS_REMOTE_READ);
  ASSERT_TRUE(mw);
  ibv_sge rs = la.sge(0, 64);
  ASSERT_EQ(PostRecv(p.a.qp.get(), 5, &rs, 1), 0);
  ibv_sge s = {lb.addr(), 64, mw->rkey};
  ibv_send_wr wr = SendWr(8, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(p.b.qp.get(), &wr), 0);
  ibv_wc wc{};
  ASSERT_TRUE(PollOne(p.b.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_LOC_PROT_ERR) << WcString(wc);
}

// Type 1 windows cannot be invalidated (C10-71): LOCAL_INV fails.
TEST_P(MemoryWindow, Type1NotInvalidated) {
  Mw mw = Bound1(0, 4096, IBV_ACCESS_REMOTE_READ);
  ASSERT_TRUE(mw);
  EXPECT_NE(LocalInv(mw->rkey).status, IBV_WC_SUCCESS);
}

// A bind naming an MR's key as the window's is refused by the kernel,
// whatever librue was told the window's key is.
TEST_P(MemoryWindow, MrKeyIsNoWindow) {
  Mw mw = Alloc(IBV_MW_TYPE_2);
  ASSERT_TRUE(mw);
  const uint32_t own = mw->rkey;
  mw->rkey = lb.mr->rkey;
  EXPECT_EQ(Bind2(mw.get(), ibv_inc_rkey(lb.mr->rkey),
                  Info(lb.mr.get(), lb.addr(), 4096, IBV_ACCESS_REMOTE_READ)),
            IBV_WC_MW_BIND_ERR);
  mw->rkey = own;
}

// A window of another PD is not the QP's to bind (IBTA C10-72).
TEST_P(MemoryWindow, WindowOfAnotherPdFails) {
  Pd other(ibv_alloc_pd(p.b.ctx()));
  ASSERT_TRUE(other);
  Mw mw(ibv_alloc_mw(other.get(), IBV_MW_TYPE_2));
  ASSERT_TRUE(mw) << strerror(errno);
  EXPECT_EQ(Bind2(mw.get(), ibv_inc_rkey(mw->rkey),
                  Info(lb.mr.get(), lb.addr(), 4096, IBV_ACCESS_REMOTE_READ)),
            IBV_WC_MW_BIND_ERR);
}

// A UC QP binds a type 2 window too; a WRITE with immediate lands in it
// (its receive completion says when).
TEST_P(MemoryWindow, Type2OnUc) {
  QpOptions oa, ob;
  oa.type = ob.type = IBV_QPT_UC;
  ob.pd = p.b.pd.get();
  ob.sq_psn = 0x2000;
  RcPair u;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &u));
  Region ua;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(u.a.pd.get(), 4096, kAllAccess, &ua));
  FillRandom(ua.buf.span(), 12);
  Mw mw = Alloc(IBV_MW_TYPE_2);
  ASSERT_TRUE(mw);
  const uint32_t rkey = ibv_inc_rkey(mw->rkey);
  ibv_send_wr bind = SendWr(79, IBV_WR_BIND_MW, nullptr, 0);
  bind.bind_mw.mw = mw.get();
  bind.bind_mw.rkey = rkey;
  bind.bind_mw.bind_info =
      Info(lb.mr.get(), lb.addr(4096), 4096, IBV_ACCESS_REMOTE_WRITE);
  ASSERT_EQ(PostSend(u.b.qp.get(), &bind), 0);
  ibv_wc wc{};
  ASSERT_TRUE(PollOne(u.b.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.opcode, IBV_WC_BIND_MW);

  ASSERT_EQ(PostRecv(u.b.qp.get(), 80, nullptr, 0), 0);
  ibv_sge s = ua.sge(0, 4096);
  ibv_send_wr wr = RdmaWr(81, IBV_WR_RDMA_WRITE_WITH_IMM, &s, 1,
                          lb.addr(4096), rkey);
  ASSERT_EQ(PostSend(u.a.qp.get(), &wr), 0);
  ASSERT_TRUE(PollOne(u.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ASSERT_TRUE(PollOne(u.b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(memcmp(lb.data(4096), ua.data(), 4096), 0);
}

// The child of ProcessExitsWithBoundWindow: on a context of its own,
// binds a window over an MR and exits without freeing anything, which
// leaves uverbs to deregister the MR, refused while the window is bound,
// and deallocate the window.  How far it got is its exit status.
[[noreturn]] void BindAndExit(const Endpoint& parent) {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  ibv_device* dev = nullptr;
  for (int i = 0; list && i < n; i++) {
    if (parent.dev->name == ibv_get_device_name(list[i])) dev = list[i];
  }
  auto* d = new Device;  // never freed: the process ends with it
  d->name = parent.dev->name;
  d->ctx = dev ? ibv_open_device(dev) : nullptr;
  if (!d->ctx || ibv_query_device(d->ctx, &d->attr) ||
      ibv_query_port(d->ctx, 1, &d->port))
    _exit(2);
  Endpoint e{d, parent.gid_index};
  auto* c = new RcPair;
  CreateSide(e, QpOptions{}, &c->a);
  CreateSide(e, QpOptions{}, &c->b);
  Connect(c->a, c->b);
  auto* r = new Region;
  MakeRegion(c->a.pd.get(), 8192, kBindAccess, r);
  if (::testing::Test::HasFailure()) _exit(3);
  ibv_mw* mw = ibv_alloc_mw(c->a.pd.get(), IBV_MW_TYPE_1);
  if (!mw) _exit(4);
  ibv_mw_bind b{};
  b.send_flags = IBV_SEND_SIGNALED;
  b.bind_info.mr = r->mr.get();
  b.bind_info.addr = r->addr();
  b.bind_info.length = 4096;
  b.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ;
  ibv_wc wc{};
  if (ibv_bind_mw(c->a.qp.get(), mw, &b) ||
      !PollOne(c->a.scq.get(), &wc) || wc.status != IBV_WC_SUCCESS)
    _exit(5);
  _exit(0);
}

// A process that exits with a window bound over its MR leaves nothing
// behind (the suite's last case counts every MR and window released) and
// no warning in the kernel log.
TEST_P(MemoryWindow, ProcessExitsWithBoundWindow) {
  const pid_t pid = fork();
  ASSERT_GE(pid, 0) << strerror(errno);
  if (pid == 0) BindAndExit(a_);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

RUE_TOPOLOGIES(MemoryWindow);

}  // namespace
}  // namespace rue::test
