// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The extended verbs: CQs from ibv_create_cq_ex polled with
// start/next/end_poll and the read_* ops, and QPs posted to with
// ibv_wr_*() (IBV_QP_INIT_ATTR_SEND_OPS_FLAGS).  Every operation on RC
// and UD moves data that is checked end to end, and every completion
// field is read back; an aborted batch posts nothing, and operations a
// QP type cannot do fail at ibv_wr_complete() with nothing posted.
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

// One completion as the read_* ops give it.
struct ExWc {
  uint64_t wr_id;
  ibv_wc_status status;
  ibv_wc_opcode opcode;
  uint32_t vendor_err;
  uint32_t byte_len;
  uint32_t imm;
  uint32_t qp_num;
  uint32_t src_qp;
  unsigned int wc_flags;
  uint32_t slid;
  uint8_t sl;
  uint8_t dlid_path_bits;
  uint64_t ts;  // completion timestamp, device clock
};

ExWc ReadEx(ibv_cq_ex* cq) {
  ExWc w;
  w.wr_id = cq->wr_id;
  w.status = cq->status;
  w.opcode = ibv_wc_read_opcode(cq);
  w.vendor_err = ibv_wc_read_vendor_err(cq);
  w.byte_len = ibv_wc_read_byte_len(cq);
  w.imm = ibv_wc_read_imm_data(cq);
  w.qp_num = ibv_wc_read_qp_num(cq);
  w.src_qp = ibv_wc_read_src_qp(cq);
  w.wc_flags = ibv_wc_read_wc_flags(cq);
  w.slid = ibv_wc_read_slid(cq);
  w.sl = ibv_wc_read_sl(cq);
  w.dlid_path_bits = ibv_wc_read_dlid_path_bits(cq);
  w.ts = ibv_wc_read_completion_ts(cq);
  return w;
}

std::string ExWcString(const ExWc& w) {
  char buf[200];
  snprintf(buf, sizeof(buf),
           "wr_id 0x%llx status %s opcode %d len %u imm 0x%x qp %u src %u "
           "flags 0x%x",
           static_cast<unsigned long long>(w.wr_id),
           ibv_wc_status_str(w.status), w.opcode, w.byte_len, w.imm, w.qp_num,
           w.src_qp, w.wc_flags);
  return buf;
}

// Polls @cq with the extended API until @n completions arrived, taking
// as many as there are per start_poll/end_poll round.
::testing::AssertionResult PollEx(ibv_cq_ex* cq, size_t n,
                                  std::vector<ExWc>* out,
                                  milliseconds timeout = milliseconds(5000)) {
  ibv_poll_cq_attr attr{};
  auto deadline = Clock::now() + timeout;
  out->clear();
  while (out->size() < n) {
    int ret = ibv_start_poll(cq, &attr);
    if (ret == ENOENT) {
      if (Clock::now() > deadline)
        return ::testing::AssertionFailure()
               << out->size() << " of " << n << " completions";
      continue;
    }
    if (ret) return ::testing::AssertionFailure() << "start_poll: " << ret;
    do {
      out->push_back(ReadEx(cq));
    } while (out->size() < n && (ret = ibv_next_poll(cq)) == 0);
    ibv_end_poll(cq);
    if (ret && ret != ENOENT)
      return ::testing::AssertionFailure() << "next_poll: " << ret;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult EmptyEx(ibv_cq_ex* cq, milliseconds wait) {
  ibv_poll_cq_attr attr{};
  auto deadline = Clock::now() + wait;
  do {
    int ret = ibv_start_poll(cq, &attr);
    if (ret != ENOENT) {
      if (ret) return ::testing::AssertionFailure() << "start_poll: " << ret;
      ExWc w = ReadEx(cq);
      ibv_end_poll(cq);
      return ::testing::AssertionFailure()
             << "unexpected completion " << ExWcString(w);
    }
  } while (Clock::now() < deadline);
  return ::testing::AssertionSuccess();
}

constexpr uint64_t kRcOps =
    IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
    IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
    IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV |
    IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_BIND_MW;
constexpr uint64_t kUdOps = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM;
constexpr uint32_t kQkey = 0x11111111;

// A Side whose CQs come from ibv_create_cq_ex and whose QP has the
// extended API for @ops.
struct ExSide {
  Side s;
  ibv_cq_ex* scq = nullptr;
  ibv_cq_ex* rcq = nullptr;
  ibv_qp_ex* qpx = nullptr;
};

ibv_cq_ex* CreateCqEx(ibv_context* ctx, Cq* owner) {
  ibv_cq_init_attr_ex attr{};
  attr.cqe = 64;
  attr.wc_flags = uint64_t{IBV_WC_STANDARD_FLAGS} |
                  IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
  ibv_cq_ex* cq = ibv_create_cq_ex(ctx, &attr);
  if (cq) owner->reset(ibv_cq_ex_to_cq(cq));
  return cq;
}

void CreateExSide(const Endpoint& ep, ibv_qp_type type, uint64_t ops,
                  ExSide* out) {
  Side& s = out->s;
  s.ep = ep;
  s.opts.type = type;
  s.opts.qkey = kQkey;
  s.opts.mtu = ep.dev->ActiveMtu();
  s.opts.max_rd_atomic = static_cast<uint8_t>(
      std::min<int>(s.opts.max_rd_atomic, ep.dev->attr.max_qp_init_rd_atom));
  s.opts.max_dest_rd_atomic = static_cast<uint8_t>(
      std::min<int>(s.opts.max_dest_rd_atomic, ep.dev->attr.max_qp_rd_atom));
  s.pd.reset(ibv_alloc_pd(ep.ctx()));
  ASSERT_TRUE(s.pd) << "ibv_alloc_pd: " << strerror(errno);
  out->scq = CreateCqEx(ep.ctx(), &s.scq);
  ASSERT_NE(out->scq, nullptr) << "ibv_create_cq_ex: " << strerror(errno);
  out->rcq = CreateCqEx(ep.ctx(), &s.rcq);
  ASSERT_NE(out->rcq, nullptr) << "ibv_create_cq_ex: " << strerror(errno);

  ibv_qp_init_attr_ex init{};
  init.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  init.pd = s.pd.get();
  init.send_cq = s.scq.get();
  init.recv_cq = s.rcq.get();
  init.qp_type = type;
  init.cap.max_send_wr = 32;
  init.cap.max_recv_wr = 32;
  init.cap.max_send_sge = 4;
  init.cap.max_recv_sge = 4;
  init.cap.max_inline_data = 64;
  init.send_ops_flags = ops;
  s.qp.reset(ibv_create_qp_ex(ep.ctx(), &init));
  ASSERT_TRUE(s.qp) << "ibv_create_qp_ex: " << strerror(errno);
  s.cap = init.cap;
  out->qpx = ibv_qp_to_qp_ex(s.qp.get());
  ASSERT_NE(out->qpx, nullptr) << "ibv_qp_to_qp_ex";
}

// ---------------------------------------------------------------------
// RC

class ExRc : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(CreateExSide(a_, IBV_QPT_RC, kRcOps, &a));
    ASSERT_NO_FATAL_FAILURE(CreateExSide(b_, IBV_QPT_RC, kRcOps, &b));
    ASSERT_NO_FATAL_FAILURE(Connect(a.s, b.s));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(a.s.pd.get(), 8 * 4096, kAllAccess, &la));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(b.s.pd.get(), 8 * 4096, kAllAccess, &lb));
  }

  // Posts one requester completion's worth and checks its completion.
  void ExpectSendCompletion(uint64_t wr_id, ibv_wc_opcode op,
                            ibv_wc_status status = IBV_WC_SUCCESS) {
    std::vector<ExWc> wc;
    ASSERT_TRUE(PollEx(a.scq, 1, &wc));
    EXPECT_EQ(wc[0].status, status) << ExWcString(wc[0]);
    EXPECT_EQ(wc[0].wr_id, wr_id);
    EXPECT_EQ(wc[0].opcode, op) << ExWcString(wc[0]);
    EXPECT_EQ(wc[0].qp_num, a.s.qpn());
  }

  ExSide a, b;
  Region la, lb;
};

// SEND from three SGEs into one receive: the bytes, and every field of
// both completions through the read_* ops.
TEST_P(ExRc, SendSgeList) {
  FillRandom(la.buf.span(0, 3000), 1);
  ibv_sge rs = lb.sge(0, 4096);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 0x77, &rs, 1), 0);

  const ibv_sge sg[] = {la.sge(0, 1000), la.sge(1000, 1), la.sge(1001, 1999)};
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 0x5e0d;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_send(a.qpx);
  ibv_wr_set_sge_list(a.qpx, 3, sg);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);

  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(b.rcq, 1, &wc));
  EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS) << ExWcString(wc[0]);
  EXPECT_EQ(wc[0].wr_id, 0x77u);
  EXPECT_EQ(wc[0].opcode, IBV_WC_RECV);
  EXPECT_EQ(wc[0].byte_len, 3000u);
  EXPECT_EQ(wc[0].qp_num, b.s.qpn());
  EXPECT_EQ(wc[0].wc_flags & (IBV_WC_WITH_IMM | IBV_WC_WITH_INV), 0u);
  EXPECT_EQ(wc[0].vendor_err, 0u);
  EXPECT_EQ(wc[0].slid, 0u);
  EXPECT_EQ(wc[0].dlid_path_bits, 0u);
  EXPECT_TRUE(SameBytes(lb.buf.span(0, 3000), la.buf.span(0, 3000)));
  ASSERT_NO_FATAL_FAILURE(ExpectSendCompletion(0x5e0d, IBV_WC_SEND));
}

// SEND_WITH_IMM with inline data from a list, then RDMA WRITE_WITH_IMM:
// the immediate arrives through read_imm_data as posted (big-endian).
TEST_P(ExRc, ImmediateAndInline) {
  uint8_t part1[20], part2[23];
  FillRandom({part1, sizeof(part1)}, 2);
  FillRandom({part2, sizeof(part2)}, 3);
  ibv_sge rs = lb.sge(0, 4096);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 1, &rs, 1), 0);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 2, &rs, 1), 0);
  FillRandom(la.buf.span(4096, 5000), 4);

  const ibv_data_buf bufs[] = {{part1, sizeof(part1)}, {part2, sizeof(part2)}};
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 11;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_send_imm(a.qpx, htonl(0xfeed0001));
  ibv_wr_set_inline_data_list(a.qpx, 2, bufs);
  a.qpx->wr_id = 12;
  ibv_wr_rdma_write_imm(a.qpx, lb.rkey(), lb.addr(8192), htonl(0xfeed0002));
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(4096), 5000);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  // The inline source may change right after wr_complete.
  memset(part1, 0, sizeof(part1));

  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(b.rcq, 2, &wc));
  EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS) << ExWcString(wc[0]);
  EXPECT_EQ(wc[0].opcode, IBV_WC_RECV);
  EXPECT_EQ(wc[0].byte_len, 43u);
  EXPECT_TRUE(wc[0].wc_flags & IBV_WC_WITH_IMM);
  EXPECT_EQ(wc[0].imm, htonl(0xfeed0001));
  EXPECT_EQ(wc[1].status, IBV_WC_SUCCESS) << ExWcString(wc[1]);
  EXPECT_EQ(wc[1].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
  EXPECT_EQ(wc[1].byte_len, 5000u);
  EXPECT_TRUE(wc[1].wc_flags & IBV_WC_WITH_IMM);
  EXPECT_EQ(wc[1].imm, htonl(0xfeed0002));
  FillRandom({part1, sizeof(part1)}, 2);
  EXPECT_TRUE(SameBytes(lb.buf.span(0, 20), {part1, sizeof(part1)}));
  EXPECT_TRUE(SameBytes(lb.buf.span(20, 23), {part2, sizeof(part2)}));
  EXPECT_TRUE(SameBytes(lb.buf.span(8192, 5000), la.buf.span(4096, 5000)));

  ASSERT_TRUE(PollEx(a.scq, 2, &wc));
  EXPECT_EQ(wc[0].wr_id, 11u);
  EXPECT_EQ(wc[0].opcode, IBV_WC_SEND);
  EXPECT_EQ(wc[1].wr_id, 12u);
  EXPECT_EQ(wc[1].opcode, IBV_WC_RDMA_WRITE);
}

// RDMA WRITE (with inline data too) and RDMA READ back.
TEST_P(ExRc, WriteAndRead) {
  FillRandom(la.buf.span(0, 6000), 5);
  uint8_t small[50];
  FillRandom({small, sizeof(small)}, 6);

  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 21;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(100));
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 6000);
  a.qpx->wr_id = 22;
  ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(7000));
  ibv_wr_set_inline_data(a.qpx, small, sizeof(small));
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(a.scq, 2, &wc));
  for (const ExWc& w : wc) {
    EXPECT_EQ(w.status, IBV_WC_SUCCESS) << ExWcString(w);
    EXPECT_EQ(w.opcode, IBV_WC_RDMA_WRITE);
  }
  EXPECT_TRUE(SameBytes(lb.buf.span(100, 6000), la.buf.span(0, 6000)));
  EXPECT_TRUE(SameBytes(lb.buf.span(7000, 50), {small, sizeof(small)}));

  // Read what was written into fresh local memory.
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 23;
  ibv_wr_rdma_read(a.qpx, lb.rkey(), lb.addr(100));
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(16384), 6000);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSendCompletion(23, IBV_WC_RDMA_READ));
  EXPECT_TRUE(SameBytes(la.buf.span(16384, 6000), la.buf.span(0, 6000)));
  EXPECT_TRUE(EmptyEx(b.rcq, milliseconds(10)));
}

TEST_P(ExRc, Atomics) {
  uint64_t* target = reinterpret_cast<uint64_t*>(lb.data(64));
  *target = 1000;
  uint64_t* old = reinterpret_cast<uint64_t*>(la.data(0));

  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 31;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_atomic_fetch_add(a.qpx, lb.rkey(), lb.addr(64), 234);
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 8);
  a.qpx->wr_id = 32;
  ibv_wr_atomic_cmp_swp(a.qpx, lb.rkey(), lb.addr(64), 1234, 0xabcdef);
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(8), 8);
  a.qpx->wr_id = 33;
  // compare fails: nothing swapped
  ibv_wr_atomic_cmp_swp(a.qpx, lb.rkey(), lb.addr(64), 1234, 77);
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(16), 8);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(a.scq, 3, &wc));
  EXPECT_EQ(wc[0].opcode, IBV_WC_FETCH_ADD);
  EXPECT_EQ(wc[1].opcode, IBV_WC_COMP_SWAP);
  EXPECT_EQ(wc[2].opcode, IBV_WC_COMP_SWAP);
  for (const ExWc& w : wc) EXPECT_EQ(w.status, IBV_WC_SUCCESS) << ExWcString(w);
  EXPECT_EQ(old[0], 1000u);
  EXPECT_EQ(old[1], 1234u);
  EXPECT_EQ(old[2], 0xabcdefu);
  EXPECT_EQ(*target, 0xabcdefu);
}

// rue lets user space invalidate no MR (only kernel fast-registration
// MRs can be): SEND_WITH_INV of a user MR's rkey reaches the responder
// as one (its receive fails with REM_INV_REQ_ERR, where a SEND would
// succeed), and LOCAL_INV completes as LOCAL_INV, in error.
TEST_P(ExRc, SendInvReachesResponder) {
  ibv_sge rs = lb.sge(0, 4096);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 41, &rs, 1), 0);
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 42;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_send_inv(a.qpx, lb.rkey());
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 64);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(b.rcq, 1, &wc));
  EXPECT_EQ(wc[0].wr_id, 41u);
  EXPECT_EQ(wc[0].status, IBV_WC_REM_INV_REQ_ERR) << ExWcString(wc[0]);
  ASSERT_TRUE(PollEx(a.scq, 1, &wc));
  EXPECT_EQ(wc[0].wr_id, 42u);
  EXPECT_EQ(wc[0].status, IBV_WC_REM_INV_REQ_ERR) << ExWcString(wc[0]);
}

TEST_P(ExRc, LocalInvCompletes) {
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 51;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_local_inv(a.qpx, la.lkey());
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  ASSERT_NO_FATAL_FAILURE(
      ExpectSendCompletion(51, IBV_WC_LOCAL_INV, IBV_WC_MW_BIND_ERR));
}

// wr_abort: nothing of the batch reaches the wire or the CQ, and the next
// batch uses the same slots.
// ibv_wr_bind_mw() binds a type 2 window, which A then writes through;
// a type 1 window is the bind verb's, and fails the batch.
TEST_P(ExRc, BindMwType2) {
  Region wb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(
      b.s.pd.get(), 8192, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND, &wb));
  ibv_mw* mw = ibv_alloc_mw(b.s.pd.get(), IBV_MW_TYPE_2);
  ASSERT_NE(mw, nullptr) << strerror(errno);
  ibv_mw* one = ibv_alloc_mw(b.s.pd.get(), IBV_MW_TYPE_1);
  ASSERT_NE(one, nullptr) << strerror(errno);
  ibv_mw_bind_info info{};
  info.mr = wb.mr.get();
  info.addr = wb.addr(4096);
  info.length = 4096;
  info.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
  const uint32_t rkey = ibv_inc_rkey(mw->rkey);

  ibv_wr_start(b.qpx);
  ibv_wr_bind_mw(b.qpx, one, ibv_inc_rkey(one->rkey), &info);
  EXPECT_EQ(ibv_wr_complete(b.qpx), EINVAL);

  ibv_wr_start(b.qpx);
  b.qpx->wr_id = 31;
  b.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_bind_mw(b.qpx, mw, rkey, &info);
  ASSERT_EQ(ibv_wr_complete(b.qpx), 0);
  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(b.scq, 1, &wc));
  ASSERT_EQ(wc[0].status, IBV_WC_SUCCESS) << ExWcString(wc[0]);
  EXPECT_EQ(wc[0].opcode, IBV_WC_BIND_MW);
  EXPECT_EQ(wc[0].wr_id, 31u);

  FillRandom(la.buf.span(0, 4096), 31);
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 32;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_rdma_write(a.qpx, rkey, wb.addr(4096));
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 4096);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSendCompletion(32, IBV_WC_RDMA_WRITE));
  EXPECT_TRUE(SameBytes(wb.buf.span(4096, 4096), la.buf.span(0, 4096)));
  EXPECT_EQ(ibv_dealloc_mw(one), 0);
  EXPECT_EQ(ibv_dealloc_mw(mw), 0);
}

TEST_P(ExRc, AbortPostsNothing) {
  std::vector<uint8_t> before(lb.data(), lb.data() + 4096);
  FillRandom(la.buf.span(0, 4096), 7);
  ibv_wr_start(a.qpx);
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  for (int i = 0; i < 5; i++) {
    a.qpx->wr_id = 60 + i;
    ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(0));
    ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 4096);
  }
  ibv_wr_abort(a.qpx);
  EXPECT_TRUE(EmptyEx(a.scq, milliseconds(50)));
  EXPECT_TRUE(SameBytes(lb.buf.span(0, 4096), before));

  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 70;
  ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(100));
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 10);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSendCompletion(70, IBV_WC_RDMA_WRITE));
  EXPECT_TRUE(SameBytes(lb.buf.span(100, 10), la.buf.span(0, 10)));
  EXPECT_TRUE(EmptyEx(a.scq, milliseconds(10)));
}

// Bad batches fail at wr_complete with nothing of them posted, the good
// WQEs before the bad one included.
TEST_P(ExRc, BadBatchesPostNothing) {
  std::vector<uint8_t> before(lb.data(), lb.data() + 4096);
  FillRandom(la.buf.span(0, 4096), 8);
  struct Case {
    const char* what;
    int err;
    void (*bad)(ibv_qp_ex* qpx, const Region& la);
  };
  const Case cases[] = {
      {"set_ud_addr on RC", EINVAL,
       [](ibv_qp_ex* q, const Region&) {
         ibv_wr_send(q);
         ibv_wr_set_ud_addr(q, nullptr, 1, 1);
       }},
      {"SGE on LOCAL_INV", EINVAL,
       [](ibv_qp_ex* q, const Region& l) {
         ibv_wr_local_inv(q, l.lkey());
         ibv_wr_set_sge(q, l.lkey(), l.addr(), 8);
       }},
      {"too many SGEs", EINVAL,
       [](ibv_qp_ex* q, const Region& l) {
         const ibv_sge sg[5] = {l.sge(0, 1), l.sge(1, 1), l.sge(2, 1),
                                l.sge(3, 1), l.sge(4, 1)};
         ibv_wr_send(q);
         ibv_wr_set_sge_list(q, 5, sg);
       }},
      {"inline data past max_inline", EINVAL,
       [](ibv_qp_ex* q, const Region& l) {
         ibv_wr_send(q);
         ibv_wr_set_inline_data(q, l.data(), 4096);
       }},
      {"inline READ", EINVAL,
       [](ibv_qp_ex* q, const Region& l) {
         ibv_wr_rdma_read(q, 1, 0);
         ibv_wr_set_inline_data(q, l.data(), 8);
       }},
      {"bind_mw without a window", EINVAL,
       [](ibv_qp_ex* q, const Region&) {
         ibv_wr_bind_mw(q, nullptr, 0, nullptr);
       }},
      {"send_tso", EOPNOTSUPP,
       [](ibv_qp_ex* q, const Region&) {
         ibv_wr_send_tso(q, nullptr, 0, 0);
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    ibv_wr_start(a.qpx);
    a.qpx->wr_id = 80;
    a.qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(0));
    ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 4096);
    c.bad(a.qpx, la);
    EXPECT_EQ(ibv_wr_complete(a.qpx), c.err);
  }
  // A setter with no operation started.
  ibv_wr_start(a.qpx);
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(), 8);
  EXPECT_EQ(ibv_wr_complete(a.qpx), EINVAL) << "setter before any op";
  EXPECT_TRUE(EmptyEx(a.scq, milliseconds(50)));
  EXPECT_TRUE(SameBytes(lb.buf.span(0, 4096), before));
  // The QP is fine.
  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 81;
  ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(0));
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 4096);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectSendCompletion(81, IBV_WC_RDMA_WRITE));
  EXPECT_TRUE(SameBytes(lb.buf.span(0, 4096), la.buf.span(0, 4096)));
}

RUE_TOPOLOGIES(ExRc);

// ---------------------------------------------------------------------
// UD

class ExUd : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(CreateExSide(a_, IBV_QPT_UD, kUdOps, &a));
    ASSERT_NO_FATAL_FAILURE(CreateExSide(b_, IBV_QPT_UD, kUdOps, &b));
    ASSERT_EQ(ModifyUdToRts(a.s), 0);
    ASSERT_EQ(ModifyUdToRts(b.s), 0);
    ibv_ah_attr attr = AhAttr(a_, b_.gid());
    ah.reset(ibv_create_ah(a.s.pd.get(), &attr));
    ASSERT_TRUE(ah) << "ibv_create_ah: " << strerror(errno);
    ASSERT_NO_FATAL_FAILURE(MakeRegion(a.s.pd.get(), 4 * 4096, kAllAccess, &la));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(b.s.pd.get(), 4 * 4096, kAllAccess, &lb));
  }

  ExSide a, b;
  Ah ah;
  Region la, lb;
};

// SEND and SEND_WITH_IMM (inline): the datagram behind its 40-byte GRH,
// with the sender's QPN, GRH flag and immediate in the completion.
TEST_P(ExUd, SendAndSendImm) {
  constexpr uint32_t kGrh = 40;
  FillRandom(la.buf.span(0, 500), 9);
  ibv_sge rs0 = lb.sge(0, 4096), rs1 = lb.sge(4096, 4096);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 1, &rs0, 1), 0);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 2, &rs1, 1), 0);

  ibv_wr_start(a.qpx);
  a.qpx->wr_id = 91;
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  ibv_wr_send(a.qpx);
  ibv_wr_set_ud_addr(a.qpx, ah.get(), b.s.qpn(), kQkey);
  ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(0), 500);
  a.qpx->wr_id = 92;
  ibv_wr_send_imm(a.qpx, htonl(0x0dd0));
  ibv_wr_set_inline_data(a.qpx, la.data(100), 30);
  ibv_wr_set_ud_addr(a.qpx, ah.get(), b.s.qpn(), kQkey);
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);

  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(b.rcq, 2, &wc));
  for (const ExWc& w : wc) {
    EXPECT_EQ(w.status, IBV_WC_SUCCESS) << ExWcString(w);
    EXPECT_EQ(w.opcode, IBV_WC_RECV);
    EXPECT_EQ(w.src_qp, a.s.qpn());
    EXPECT_EQ(w.qp_num, b.s.qpn());
    EXPECT_TRUE(w.wc_flags & IBV_WC_GRH);
  }
  EXPECT_EQ(wc[0].byte_len, kGrh + 500);
  EXPECT_FALSE(wc[0].wc_flags & IBV_WC_WITH_IMM);
  EXPECT_EQ(wc[1].byte_len, kGrh + 30);
  EXPECT_TRUE(wc[1].wc_flags & IBV_WC_WITH_IMM);
  EXPECT_EQ(wc[1].imm, htonl(0x0dd0));
  EXPECT_TRUE(SameBytes(lb.buf.span(kGrh, 500), la.buf.span(0, 500)));
  EXPECT_TRUE(SameBytes(lb.buf.span(4096 + kGrh, 30), la.buf.span(100, 30)));
  ASSERT_TRUE(PollEx(a.scq, 2, &wc));
  EXPECT_EQ(wc[0].wr_id, 91u);
  EXPECT_EQ(wc[1].wr_id, 92u);
  EXPECT_EQ(wc[1].opcode, IBV_WC_SEND);
}

// RDMA and atomics on UD, and a SEND with no address: EINVAL at
// wr_complete, nothing posted.
TEST_P(ExUd, BadOpsRejected) {
  ibv_sge rs = lb.sge(0, 4096);
  ASSERT_EQ(PostRecv(b.s.qp.get(), 1, &rs, 1), 0);
  void (*const bad[])(ibv_qp_ex*, ibv_ah*, const Region&, uint32_t) = {
      [](ibv_qp_ex* q, ibv_ah* ah, const Region& l, uint32_t qpn) {
        ibv_wr_rdma_write(q, l.rkey(), l.addr());
        ibv_wr_set_ud_addr(q, ah, qpn, kQkey);
      },
      [](ibv_qp_ex* q, ibv_ah* ah, const Region& l, uint32_t qpn) {
        ibv_wr_rdma_read(q, l.rkey(), l.addr());
        ibv_wr_set_ud_addr(q, ah, qpn, kQkey);
      },
      [](ibv_qp_ex* q, ibv_ah* ah, const Region& l, uint32_t qpn) {
        ibv_wr_atomic_fetch_add(q, l.rkey(), l.addr(), 1);
        ibv_wr_set_ud_addr(q, ah, qpn, kQkey);
      },
      [](ibv_qp_ex* q, ibv_ah* ah, const Region& l, uint32_t qpn) {
        ibv_wr_send_inv(q, l.rkey());
        ibv_wr_set_ud_addr(q, ah, qpn, kQkey);
      },
      [](ibv_qp_ex* q, ibv_ah*, const Region& l, uint32_t) {
        ibv_wr_send(q);  // no ibv_wr_set_ud_addr
        ibv_wr_set_sge(q, l.lkey(), l.addr(), 8);
      },
  };
  int i = 0;
  for (auto f : bad) {
    SCOPED_TRACE(::testing::Message() << "case " << i++);
    ibv_wr_start(a.qpx);
    a.qpx->wr_flags = IBV_SEND_SIGNALED;
    // a good SEND first: it must not go out either
    ibv_wr_send(a.qpx);
    ibv_wr_set_ud_addr(a.qpx, ah.get(), b.s.qpn(), kQkey);
    f(a.qpx, ah.get(), la, b.s.qpn());
    EXPECT_EQ(ibv_wr_complete(a.qpx), EINVAL);
  }
  EXPECT_TRUE(EmptyEx(a.scq, milliseconds(50)));
  EXPECT_TRUE(EmptyEx(b.rcq, milliseconds(50)));
}

RUE_TOPOLOGIES(ExUd);

// ---------------------------------------------------------------------
// CQ and QP creation

class ExCreate : public TopologyTest {};

// Wall-clock timestamps and other fields rue cannot give are refused;
// the standard ones and device-clock timestamps are fine.
TEST_P(ExCreate, CqWcFlags) {
  ibv_cq_init_attr_ex attr{};
  attr.cqe = 8;
  const uint64_t bad[] = {IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
                          IBV_WC_EX_WITH_CVLAN, IBV_WC_EX_WITH_FLOW_TAG};
  for (uint64_t f : bad) {
    attr.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | f;
    errno = 0;
    EXPECT_EQ(ibv_create_cq_ex(a_.ctx(), &attr), nullptr) << "0x" << std::hex << f;
    EXPECT_EQ(errno, EOPNOTSUPP) << "0x" << std::hex << f;
  }
  attr.wc_flags = IBV_WC_STANDARD_FLAGS;
  Cq cq;
  ibv_cq_ex* cqx = CreateCqEx(a_.ctx(), &cq);
  ASSERT_NE(cqx, nullptr) << strerror(errno);
  ibv_poll_cq_attr pattr{};
  EXPECT_EQ(ibv_start_poll(cqx, &pattr), ENOENT);
}

// The single-threaded hint is taken (mlx5 acts on it, rue keeps its lock),
// and so is ignoring overruns (CompletionQueue.OverrunIgnored); flags
// libibverbs does not know are refused.
TEST_P(ExCreate, CqCreateFlags) {
  ibv_cq_init_attr_ex attr{};
  attr.cqe = 8;
  attr.wc_flags = IBV_WC_STANDARD_FLAGS;
  attr.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
  attr.flags = 1u << 7;
  errno = 0;
  EXPECT_EQ(ibv_create_cq_ex(a_.ctx(), &attr), nullptr);
  EXPECT_EQ(errno, EOPNOTSUPP);
  for (uint32_t f : {uint32_t{IBV_CREATE_CQ_ATTR_SINGLE_THREADED},
                     uint32_t{IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN}}) {
    attr.flags = f;
    ibv_cq_ex* cqx = ibv_create_cq_ex(a_.ctx(), &attr);
    ASSERT_NE(cqx, nullptr) << "0x" << std::hex << f << ": " << strerror(errno);
    Cq cq(ibv_cq_ex_to_cq(cqx));
    ibv_poll_cq_attr pattr{};
    EXPECT_EQ(ibv_start_poll(cqx, &pattr), ENOENT);
  }
}

// Send ops a QP type cannot do are refused at creation.
TEST_P(ExCreate, QpSendOps) {
  Pd pd(ibv_alloc_pd(a_.ctx()));
  ASSERT_TRUE(pd);
  Cq cq(ibv_create_cq(a_.ctx(), 8, nullptr, nullptr, 0));
  ASSERT_TRUE(cq);
  ibv_qp_init_attr_ex init{};
  init.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  init.pd = pd.get();
  init.send_cq = cq.get();
  init.recv_cq = cq.get();
  init.cap = {8, 8, 1, 1, 0};
  init.qp_type = IBV_QPT_UD;
  init.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE;
  errno = 0;
  EXPECT_EQ(ibv_create_qp_ex(a_.ctx(), &init), nullptr);
  EXPECT_EQ(errno, EOPNOTSUPP);
  init.qp_type = IBV_QPT_RC;
  init.send_ops_flags = IBV_QP_EX_WITH_TSO;
  errno = 0;
  EXPECT_EQ(ibv_create_qp_ex(a_.ctx(), &init), nullptr);
  EXPECT_EQ(errno, EOPNOTSUPP);
  // IBV_QPT_DRIVER only through ruedv_create_qp
  init.qp_type = IBV_QPT_DRIVER;
  init.send_ops_flags = IBV_QP_EX_WITH_SEND;
  errno = 0;
  EXPECT_EQ(ibv_create_qp_ex(a_.ctx(), &init), nullptr);
  EXPECT_EQ(errno, EOPNOTSUPP);
  // A QP created without the flag has no extended API.
  init.comp_mask = IBV_QP_INIT_ATTR_PD;
  init.qp_type = IBV_QPT_RC;
  Qp qp(ibv_create_qp_ex(a_.ctx(), &init));
  ASSERT_TRUE(qp) << strerror(errno);
  EXPECT_EQ(ibv_qp_to_qp_ex(qp.get()), nullptr);
}

// One CQ drained partly with the extended API and partly with
// ibv_poll_cq: both see the completions in order, each once.
TEST_P(ExCreate, ExAndClassicPollShareTheRing) {
  ExSide a, b;
  ASSERT_NO_FATAL_FAILURE(CreateExSide(a_, IBV_QPT_RC, kRcOps, &a));
  ASSERT_NO_FATAL_FAILURE(CreateExSide(b_, IBV_QPT_RC, kRcOps, &b));
  ASSERT_NO_FATAL_FAILURE(Connect(a.s, b.s));
  Region la, lb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(a.s.pd.get(), 4096, kAllAccess, &la));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(b.s.pd.get(), 4096, kAllAccess, &lb));
  ibv_wr_start(a.qpx);
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  for (int i = 0; i < 10; i++) {
    a.qpx->wr_id = 100 + i;
    ibv_wr_rdma_write(a.qpx, lb.rkey(), lb.addr(i * 8));
    ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(i * 8), 8);
  }
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  std::vector<ExWc> wc;
  ASSERT_TRUE(PollEx(a.scq, 4, &wc));
  for (int i = 0; i < 4; i++) EXPECT_EQ(wc[i].wr_id, 100u + i);
  std::vector<ibv_wc> rest;
  ASSERT_TRUE(PollCq(a.s.scq.get(), 6, &rest));
  for (int i = 0; i < 6; i++) EXPECT_EQ(rest[i].wr_id, 104u + i);
  EXPECT_TRUE(EmptyEx(a.scq, milliseconds(10)));
}

// ibv_query_rt_values_ex() now, as the device clock's ticks.
uint64_t DeviceClock(ibv_context* ctx) {
  ibv_values_ex v{};
  v.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
  int ret = ibv_query_rt_values_ex(ctx, &v);
  EXPECT_EQ(ret, 0) << strerror(ret);
  EXPECT_EQ(v.comp_mask, uint32_t{IBV_VALUES_MASK_RAW_CLOCK});
  return static_cast<uint64_t>(v.raw_clock.tv_nsec);
}

// Completion timestamps are ticks of the clock ibv_query_rt_values_ex()
// reads, at hca_core_clock (1 GHz): each completion's stamp lies between
// the clock read before its post and after its poll, and the stamps of
// one CQ do not go back.  Send and receive sides both.
TEST_P(ExCreate, CompletionTimestamps) {
  ibv_device_attr_ex dattr{};
  ASSERT_EQ(ibv_query_device_ex(a_.ctx(), nullptr, &dattr), 0);
  EXPECT_EQ(dattr.hca_core_clock, 1000000u);  // kHz
  EXPECT_NE(dattr.completion_timestamp_mask, 0u);

  ExSide a, b;
  ASSERT_NO_FATAL_FAILURE(CreateExSide(a_, IBV_QPT_RC, kRcOps, &a));
  ASSERT_NO_FATAL_FAILURE(CreateExSide(b_, IBV_QPT_RC, kRcOps, &b));
  ASSERT_NO_FATAL_FAILURE(Connect(a.s, b.s));
  Region la, lb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(a.s.pd.get(), 4096, kAllAccess, &la));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(b.s.pd.get(), 4096, kAllAccess, &lb));
  for (int i = 0; i < 8; i++) {
    ibv_sge rs = lb.sge(i * 64, 64);
    ASSERT_EQ(PostRecv(b.s.qp.get(), i, &rs, 1), 0);
  }

  const uint64_t before = DeviceClock(a_.ctx());
  ibv_wr_start(a.qpx);
  a.qpx->wr_flags = IBV_SEND_SIGNALED;
  for (int i = 0; i < 8; i++) {
    a.qpx->wr_id = 200 + i;
    ibv_wr_send(a.qpx);
    ibv_wr_set_sge(a.qpx, la.lkey(), la.addr(i * 64), 64);
  }
  ASSERT_EQ(ibv_wr_complete(a.qpx), 0);
  std::vector<ExWc> sent, got;
  ASSERT_TRUE(PollEx(a.scq, 8, &sent));
  ASSERT_TRUE(PollEx(b.rcq, 8, &got));
  const uint64_t after = DeviceClock(a_.ctx());
  for (const auto* wcs : {&sent, &got}) {
    uint64_t last = 0;
    for (const ExWc& w : *wcs) {
      EXPECT_EQ(w.status, IBV_WC_SUCCESS) << ExWcString(w);
      EXPECT_GE(w.ts, before) << ExWcString(w);
      EXPECT_LE(w.ts, after) << ExWcString(w);
      EXPECT_GE(w.ts, last) << ExWcString(w);
      last = w.ts;
    }
  }
}

RUE_TOPOLOGIES(ExCreate);

}  // namespace
}  // namespace rue::test
