// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Bad verb arguments get clean errors, and lose nothing: a rejected work
// request is not executed and the ones around it behave; rejected
// ibv_modify_qp calls leave the QP as it was; absurd object sizes fail
// without harm; the advertised limits can be created.
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

class Args : public TopologyTest {};

TEST_P(Args, TooManySges) {
  QpOptions o;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  const uint32_t n = p.a.cap.max_send_sge + 1;
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  FillRandom(l.buf.span(), 1);
  FillRandom(r.buf.span(), 2);
  std::vector<uint8_t> want(r.data(), r.data() + 4096);
  std::vector<ibv_sge> sges;
  for (uint32_t i = 0; i < n; i++) sges.push_back(l.sge(i * 8, 8));

  ibv_send_wr bad = RdmaWr(2, IBV_WR_RDMA_WRITE, sges.data(),
                           static_cast<int>(n), r.addr(1024), r.rkey());
  ibv_send_wr* bad_wr = nullptr;
  EXPECT_EQ(PostSend(p.a.qp.get(), &bad, &bad_wr), EINVAL);
  EXPECT_EQ(bad_wr, &bad);

  // In a chain: the WR before it runs, the one after it is not posted.
  ibv_send_wr good1 =
      RdmaWr(1, IBV_WR_RDMA_WRITE, sges.data(), 1, r.addr(0), r.rkey());
  ibv_send_wr good2 =
      RdmaWr(3, IBV_WR_RDMA_WRITE, sges.data(), 1, r.addr(2048), r.rkey());
  good1.next = &bad;
  bad.next = &good2;
  bad_wr = nullptr;
  EXPECT_EQ(PostSend(p.a.qp.get(), &good1, &bad_wr), EINVAL);
  EXPECT_EQ(bad_wr, &bad);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.wr_id, 1u);
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(NoCompletion(p.a.scq.get(), milliseconds(50)));
  memcpy(want.data(), l.data(), 8);
  EXPECT_TRUE(SameBytes(r.buf.span(), want))
      << "only the first WR may have run";

  // Receives too.
  std::vector<ibv_sge> rsges;
  for (uint32_t i = 0; i <= p.b.cap.max_recv_sge; i++)
    rsges.push_back(r.sge(i * 8, 8));
  ibv_recv_wr rwr{};
  rwr.wr_id = 66;
  rwr.sg_list = rsges.data();
  rwr.num_sge = static_cast<int>(rsges.size());
  ibv_recv_wr* bad_rwr = nullptr;
  EXPECT_EQ(ibv_post_recv(p.b.qp.get(), &rwr, &bad_rwr), EINVAL);
  EXPECT_EQ(bad_rwr, &rwr);
  ibv_sge rs = r.sge(3000, 64);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 67, &rs, 1), 0);
  ibv_send_wr send = SendWr(4, IBV_WR_SEND, sges.data(), 1);
  ASSERT_EQ(PostSend(p.a.qp.get(), &send), 0);
  ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
  EXPECT_EQ(wc.wr_id, 67u) << "the rejected receive was posted";
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
}

TEST_P(Args, UnsupportedOpcode) {
  QpOptions o;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  std::vector<uint8_t> before(r.data(), r.data() + 4096);
  ibv_sge s = l.sge(0, 8);
  const ibv_wr_opcode ops[] = {static_cast<ibv_wr_opcode>(99), IBV_WR_BIND_MW,
                               IBV_WR_TSO, IBV_WR_ATOMIC_WRITE, IBV_WR_DRIVER1};
  for (ibv_wr_opcode op : ops) {
    ibv_send_wr wr = RdmaWr(op, op, &s, 1, r.addr(), r.rkey());
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(PostSend(p.a.qp.get(), &wr, &bad), EINVAL) << "opcode " << op;
    EXPECT_EQ(bad, &wr) << "opcode " << op;
  }
  EXPECT_TRUE(NoCompletion(p.a.scq.get(), milliseconds(20)));
  EXPECT_TRUE(SameBytes(r.buf.span(), before));
  // The QP is fine.
  ibv_send_wr wr = RdmaWr(1000, IBV_WR_RDMA_WRITE, &s, 1, r.addr(), r.rkey());
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.wr_id, 1000u);
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
}

// A send queue full of WRs that cannot complete (the peer never leaves
// INIT, the timeout is infinite): one more is ENOMEM; moving the QP to
// ERR flushes exactly the WRs that were accepted.
TEST_P(Args, SendQueueOverflow) {
  QpOptions oa, ob;
  oa.max_send_wr = 16;
  oa.timeout = 0;  // infinite
  Side a, b;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, oa, &a));
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, ob, &b));
  ASSERT_EQ(ModifyToInit(a), 0);
  ASSERT_EQ(ModifyToInit(b), 0);
  ASSERT_EQ(ModifyToRtr(a, b.qpn(), b.opts.sq_psn, b.ep.gid()), 0);
  ASSERT_EQ(ModifyToRts(a), 0);
  const uint32_t depth = a.cap.max_send_wr;
  ASSERT_GE(depth, 16u);
  Region l;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 4096, kAllAccess, &l));
  ibv_sge s = l.sge(0, 8);
  std::vector<ibv_send_wr> wrs(depth + 3);
  for (uint32_t i = 0; i < wrs.size(); i++) {
    wrs[i] = RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1, 0x10000, 0x1234);
    if (i + 1 < wrs.size()) wrs[i].next = &wrs[i + 1];
  }
  ibv_send_wr* bad = nullptr;
  EXPECT_EQ(PostSend(a.qp.get(), wrs.data(), &bad), ENOMEM);
  EXPECT_EQ(bad, &wrs[depth])
      << "accepted " << (bad - wrs.data()) << " of depth " << depth;
  ibv_send_wr one = RdmaWr(999, IBV_WR_RDMA_WRITE, &s, 1, 0x10000, 0x1234);
  EXPECT_EQ(PostSend(a.qp.get(), &one), ENOMEM);
  EXPECT_TRUE(NoCompletion(a.scq.get(), milliseconds(20)));

  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ASSERT_EQ(ibv_modify_qp(a.qp.get(), &attr, IBV_QP_STATE), 0);
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(a.scq.get(), depth, &wcs));
  for (uint32_t i = 0; i < depth; i++) {
    EXPECT_EQ(wcs[i].wr_id, i);
    EXPECT_EQ(wcs[i].status, IBV_WC_WR_FLUSH_ERR) << WcString(wcs[i]);
  }
  EXPECT_TRUE(NoCompletion(a.scq.get(), milliseconds(20)));
}

TEST_P(Args, RecvQueueOverflow) {
  QpOptions o;
  o.max_recv_wr = 16;
  Side a;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
  ASSERT_EQ(ModifyToInit(a), 0);
  const uint32_t depth = a.cap.max_recv_wr;
  Region l;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 4096, kAllAccess, &l));
  ibv_sge s = l.sge(0, 64);
  for (uint32_t i = 0; i < depth; i++)
    ASSERT_EQ(PostRecv(a.qp.get(), i, &s, 1), 0) << i;
  EXPECT_EQ(PostRecv(a.qp.get(), depth, &s, 1), ENOMEM);
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ASSERT_EQ(ibv_modify_qp(a.qp.get(), &attr, IBV_QP_STATE), 0);
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(a.rcq.get(), depth, &wcs));
  for (uint32_t i = 0; i < depth; i++) {
    EXPECT_EQ(wcs[i].wr_id, i);
    EXPECT_EQ(wcs[i].status, IBV_WC_WR_FLUSH_ERR) << WcString(wcs[i]);
  }
  EXPECT_TRUE(NoCompletion(a.rcq.get(), milliseconds(10)));
}

TEST_P(Args, InlineTooLarge) {
  QpOptions o;
  o.max_inline_data = 64;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  const uint32_t max = p.a.cap.max_inline_data;
  Region r;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), 2 * max + 64, kAllAccess, &r));
  ibv_sge rs = r.sge(0, 2 * max + 64);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 1, &rs, 1), 0);
  std::vector<uint8_t> src(max + 1, 0x77);
  ibv_sge s = {reinterpret_cast<uintptr_t>(src.data()), max + 1, 0};
  ibv_send_wr wr =
      SendWr(1, IBV_WR_SEND, &s, 1, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
  ibv_send_wr* bad = nullptr;
  EXPECT_EQ(PostSend(p.a.qp.get(), &wr, &bad), EINVAL);
  EXPECT_EQ(bad, &wr);
  // Over the limit only in total.
  ibv_sge two[2] = {{reinterpret_cast<uintptr_t>(src.data()), max / 2 + 1, 0},
                    {reinterpret_cast<uintptr_t>(src.data()), max / 2 + 1, 0}};
  wr = SendWr(2, IBV_WR_SEND, two, 2, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
  EXPECT_EQ(PostSend(p.a.qp.get(), &wr, &bad), EINVAL);
  EXPECT_TRUE(NoCompletion(p.b.rcq.get(), milliseconds(20)))
      << "a rejected WR ran";
  // The receive is still there for a good one.
  s.length = 10;
  wr = SendWr(3, IBV_WR_SEND, &s, 1, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, 10u);
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.wr_id, 3u);
  EXPECT_TRUE(NoCompletion(p.a.scq.get(), milliseconds(10)));
}

// Illegal transitions and out-of-range values: EINVAL, and the QP stays
// where it was; afterwards the right values still work.
TEST_P(Args, ModifyQpRejectsIllegal) {
  QpOptions o;
  Side a, b;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &b));
  ibv_qp* qp = a.qp.get();
  ibv_qp_attr attr{};

  attr.qp_state = IBV_QPS_RTS;
  EXPECT_EQ(ibv_modify_qp(qp, &attr, IBV_QP_STATE), EINVAL) << "RESET -> RTS";
  attr.qp_state = IBV_QPS_RTR;
  EXPECT_EQ(ibv_modify_qp(qp, &attr, IBV_QP_STATE), EINVAL) << "RESET -> RTR";
  EXPECT_EQ(QpState(qp), IBV_QPS_RESET);

  const int init_mask =
      IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
  attr = {};
  attr.qp_state = IBV_QPS_INIT;
  attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
  for (uint8_t port : {0, 2, 255}) {
    attr.port_num = port;
    EXPECT_EQ(ibv_modify_qp(qp, &attr, init_mask), EINVAL)
        << "port " << int{port};
  }
  EXPECT_EQ(QpState(qp), IBV_QPS_RESET);
  ASSERT_EQ(ModifyToInit(a), 0);
  ASSERT_EQ(ModifyToInit(b), 0);

  attr = {};
  attr.qp_state = IBV_QPS_RTS;
  EXPECT_EQ(ibv_modify_qp(qp, &attr, IBV_QP_STATE), EINVAL) << "INIT -> RTS";

  // RTR: each attribute bad in turn.
  auto rtr = [&](auto&& spoil, int drop_mask = 0) {
    ibv_qp_attr x{};
    x.qp_state = IBV_QPS_RTR;
    x.path_mtu = a.opts.mtu;
    x.dest_qp_num = b.qpn();
    x.rq_psn = b.opts.sq_psn;
    x.max_dest_rd_atomic = 1;
    x.min_rnr_timer = 1;
    x.ah_attr = AhAttr(a.ep, b.ep.gid());
    spoil(x);
    int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
               IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    return ibv_modify_qp(qp, &x, mask & ~drop_mask);
  };
  if (a.ep.dev->ActiveMtu() < IBV_MTU_4096) {
    EXPECT_EQ(rtr([&](ibv_qp_attr& x) {
                x.path_mtu = static_cast<ibv_mtu>(a.ep.dev->ActiveMtu() + 1);
              }),
              EINVAL)
        << "path MTU above the port's active MTU";
  }
  EXPECT_EQ(rtr([](ibv_qp_attr& x) { x.path_mtu = static_cast<ibv_mtu>(6); }),
            EINVAL)
      << "path MTU 6";
  EXPECT_EQ(rtr([](ibv_qp_attr&) {}, IBV_QP_AV), EINVAL)
      << "RTR without an address";
  EXPECT_EQ(rtr([](ibv_qp_attr& x) { x.min_rnr_timer = 32; }), EINVAL)
      << "min_rnr_timer 32";
  EXPECT_EQ(rtr([&](ibv_qp_attr& x) {
              x.max_dest_rd_atomic =
                  static_cast<uint8_t>(a.ep.dev->attr.max_qp_rd_atom + 1);
            }),
            EINVAL)
      << "max_dest_rd_atomic above max_qp_rd_atom";
  EXPECT_EQ(rtr([](ibv_qp_attr& x) { x.ah_attr.grh.sgid_index = 200; }), EINVAL)
      << "source GID index out of the table";
  EXPECT_EQ(QpState(qp), IBV_QPS_INIT);
  ASSERT_EQ(rtr([](ibv_qp_attr&) {}), 0);
  EXPECT_EQ(QpState(qp), IBV_QPS_RTR);

  auto rts = [&](auto&& spoil) {
    ibv_qp_attr x{};
    x.qp_state = IBV_QPS_RTS;
    x.timeout = 14;
    x.retry_cnt = 7;
    x.rnr_retry = 7;
    x.sq_psn = a.opts.sq_psn;
    x.max_rd_atomic = 1;
    spoil(x);
    return ibv_modify_qp(qp, &x,
                         IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                             IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                             IBV_QP_MAX_QP_RD_ATOMIC);
  };
  EXPECT_EQ(rts([](ibv_qp_attr& x) { x.timeout = 32; }), EINVAL)
      << "timeout 32";
  EXPECT_EQ(rts([](ibv_qp_attr& x) { x.retry_cnt = 8; }), EINVAL)
      << "retry_cnt 8";
  EXPECT_EQ(rts([](ibv_qp_attr& x) { x.rnr_retry = 8; }), EINVAL)
      << "rnr_retry 8";
  EXPECT_EQ(rts([&](ibv_qp_attr& x) {
              x.max_rd_atomic =
                  static_cast<uint8_t>(a.ep.dev->attr.max_qp_init_rd_atom + 1);
            }),
            EINVAL)
      << "max_rd_atomic above max_qp_init_rd_atom";
  EXPECT_EQ(QpState(qp), IBV_QPS_RTR);
  ASSERT_EQ(rts([](ibv_qp_attr&) {}), 0);
  EXPECT_EQ(QpState(qp), IBV_QPS_RTS);

  // And the QP works.
  ASSERT_EQ(ModifyToRtr(b, a.qpn(), a.opts.sq_psn, a.ep.gid()), 0);
  ASSERT_EQ(ModifyToRts(b), 0);
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 64, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(b.pd.get(), 64, kAllAccess, &r));
  ibv_sge rs = r.sge(0, 64), s = l.sge(0, 64);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_send_wr wr = SendWr(2, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(qp, &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
}

TEST_P(Args, AbsurdSizesFail) {
  ibv_context* ctx = a_.ctx();
  const ibv_device_attr& dev = a_.dev->attr;
  for (int cqe : {-1, dev.max_cqe + 1, INT_MAX}) {
    errno = 0;
    ibv_cq* cq = ibv_create_cq(ctx, cqe, nullptr, nullptr, 0);
    EXPECT_EQ(cq, nullptr) << "ibv_create_cq(" << cqe << ") succeeded";
    if (cq) ibv_destroy_cq(cq);
  }
  Pd pd(ibv_alloc_pd(ctx));
  ASSERT_TRUE(pd);
  Cq cq(ibv_create_cq(ctx, 16, nullptr, nullptr, 0));
  ASSERT_TRUE(cq);
  struct Case {
    const char* what;
    ibv_qp_cap cap;
  };
  const uint32_t wr_max = static_cast<uint32_t>(dev.max_qp_wr);
  const uint32_t sge_max = static_cast<uint32_t>(dev.max_sge);
  const Case cases[] = {
      {"max_send_wr above max_qp_wr", {wr_max + 1, 1, 1, 1, 0}},
      {"max_recv_wr above max_qp_wr", {1, wr_max + 1, 1, 1, 0}},
      {"max_send_wr 2^30", {1u << 30, 1, 1, 1, 0}},
      {"max_send_wr 2^32-1", {UINT32_MAX, 1, 1, 1, 0}},
      {"max_send_sge above max_sge", {1, 1, sge_max + 1, 1, 0}},
      {"max_recv_sge 1000", {1, 1, 1, 1000, 0}},
      {"max_inline_data 1 MiB", {1, 1, 1, 1, 1u << 20}},
      {"max_inline_data 2^32-1", {1, 1, 1, 1, UINT32_MAX}},
  };
  for (const Case& c : cases) {
    ibv_qp_init_attr init{};
    init.send_cq = cq.get();
    init.recv_cq = cq.get();
    init.qp_type = IBV_QPT_RC;
    init.cap = c.cap;
    ibv_qp* qp = ibv_create_qp(pd.get(), &init);
    EXPECT_EQ(qp, nullptr) << c.what << ": ibv_create_qp succeeded";
    if (qp) ibv_destroy_qp(qp);
  }
  // Nothing broke.
  ibv_qp_init_attr init{};
  init.send_cq = cq.get();
  init.recv_cq = cq.get();
  init.qp_type = IBV_QPT_RC;
  init.cap = {8, 8, 1, 1, 0};
  Qp qp(ibv_create_qp(pd.get(), &init));
  EXPECT_TRUE(qp) << strerror(errno);
}

// What the device advertises can be created.
TEST_P(Args, DeviceLimitsCanBeCreated) {
  ibv_context* ctx = a_.ctx();
  const ibv_device_attr& dev = a_.dev->attr;
  {
    errno = 0;
    Cq cq(ibv_create_cq(ctx, dev.max_cqe, nullptr, nullptr, 0));
    EXPECT_TRUE(cq) << "ibv_create_cq(max_cqe " << dev.max_cqe
                    << "): " << strerror(errno);
    if (cq) {
      EXPECT_GE(cq->cqe, dev.max_cqe);
    }
  }
  Pd pd(ibv_alloc_pd(ctx));
  ASSERT_TRUE(pd);
  Cq cq(ibv_create_cq(ctx, 16, nullptr, nullptr, 0));
  ASSERT_TRUE(cq);
  const uint32_t wr_max = static_cast<uint32_t>(dev.max_qp_wr);
  const uint32_t sge_max = static_cast<uint32_t>(dev.max_sge);
  struct Case {
    const char* what;
    ibv_qp_cap cap;
  };
  const Case cases[] = {
      {"max_qp_wr send and receive WRs", {wr_max, wr_max, 1, 1, 0}},
      {"max_sge send and receive SGEs", {16, 16, sge_max, sge_max, 0}},
  };
  for (const Case& c : cases) {
    ibv_qp_init_attr init{};
    init.send_cq = cq.get();
    init.recv_cq = cq.get();
    init.qp_type = IBV_QPT_RC;
    init.cap = c.cap;
    errno = 0;
    Qp qp(ibv_create_qp(pd.get(), &init));
    EXPECT_TRUE(qp) << c.what << ": " << strerror(errno);
    if (!qp) continue;
    EXPECT_GE(init.cap.max_send_wr, c.cap.max_send_wr) << c.what;
    EXPECT_GE(init.cap.max_recv_wr, c.cap.max_recv_wr) << c.what;
    EXPECT_GE(init.cap.max_send_sge, c.cap.max_send_sge) << c.what;
    EXPECT_GE(init.cap.max_recv_sge, c.cap.max_recv_sge) << c.what;
  }
}

TEST_P(Args, RegMrInvalidAccess) {
  Pd pd(ibv_alloc_pd(a_.ctx()));
  ASSERT_TRUE(pd);
  Buffer buf(8192);
  const int bad[] = {IBV_ACCESS_REMOTE_WRITE, IBV_ACCESS_REMOTE_ATOMIC,
                     IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ};
  for (int access : bad) {
    errno = 0;
    Mr mr(ibv_reg_mr(pd.get(), buf.data(), 8192, access));
    EXPECT_FALSE(mr) << "ibv_reg_mr(access 0x" << std::hex << access
                     << ") succeeded";
  }
  // Legal: remote read only, and local only.
  Mr ro(ibv_reg_mr(pd.get(), buf.data(), 8192, IBV_ACCESS_REMOTE_READ));
  EXPECT_TRUE(ro) << strerror(errno);
  Mr local(ibv_reg_mr(pd.get(), buf.data(), 8192, 0));
  EXPECT_TRUE(local) << strerror(errno);
}

INSTANTIATE_TEST_SUITE_P(Verbs, Args, ::testing::Values(Topology::kTwoDevices),
                         TopologyParamName);

}  // namespace
}  // namespace rue::test
