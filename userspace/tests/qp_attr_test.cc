// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ibv_query_qp returns what ibv_create_qp and ibv_modify_qp set, in every
// state on the way to RTS.
#include <cstring>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

class QpAttr : public TopologyTest {};

constexpr int kAllMask =
    IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX |
    IBV_QP_PORT | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_TIMEOUT |
    IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN |
    IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN |
    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_DEST_QPN | IBV_QP_CAP;

TEST_P(QpAttr, QueryReturnsWhatWasSet) {
  QpOptions oa, ob;
  oa.max_send_wr = 33;
  oa.max_recv_wr = 17;
  oa.max_send_sge = 3;
  oa.max_recv_sge = 5;
  oa.max_inline_data = 40;
  oa.sq_sig_all = true;
  oa.mtu = IBV_MTU_512;
  oa.timeout = 17;
  oa.retry_cnt = 5;
  oa.rnr_retry = 6;
  oa.min_rnr_timer = 13;
  oa.max_rd_atomic = 3;
  oa.max_dest_rd_atomic = 5;
  oa.access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  oa.sq_psn = 0x123456;
  ob.sq_psn = 0xabcdef;
  ob.mtu = IBV_MTU_512;
  Side a, b;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, oa, &a));
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, ob, &b));
  ibv_qp* qp = a.qp.get();
  EXPECT_GE(a.cap.max_send_wr, 33u);
  EXPECT_GE(a.cap.max_recv_wr, 17u);
  EXPECT_GE(a.cap.max_send_sge, 3u);
  EXPECT_GE(a.cap.max_recv_sge, 5u);
  EXPECT_GE(a.cap.max_inline_data, 40u);

  ibv_qp_attr attr;
  ibv_qp_init_attr init;
  auto query = [&] {
    memset(&attr, 0xa5, sizeof(attr));
    memset(&init, 0xa5, sizeof(init));
    return ibv_query_qp(qp, &attr, kAllMask, &init);
  };

  ASSERT_EQ(query(), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_RESET);
  EXPECT_EQ(init.qp_type, IBV_QPT_RC);
  EXPECT_EQ(init.sq_sig_all, 1);
  EXPECT_EQ(init.send_cq, a.scq.get());
  EXPECT_EQ(init.recv_cq, a.rcq.get());
  EXPECT_EQ(init.srq, nullptr);
  EXPECT_EQ(init.cap.max_send_wr, a.cap.max_send_wr);
  EXPECT_EQ(init.cap.max_recv_wr, a.cap.max_recv_wr);
  EXPECT_EQ(init.cap.max_send_sge, a.cap.max_send_sge);
  EXPECT_EQ(init.cap.max_recv_sge, a.cap.max_recv_sge);
  EXPECT_EQ(init.cap.max_inline_data, a.cap.max_inline_data);
  EXPECT_EQ(attr.cap.max_send_wr, a.cap.max_send_wr);
  EXPECT_EQ(attr.cap.max_recv_wr, a.cap.max_recv_wr);
  EXPECT_EQ(attr.cap.max_send_sge, a.cap.max_send_sge);
  EXPECT_EQ(attr.cap.max_recv_sge, a.cap.max_recv_sge);
  EXPECT_EQ(attr.cap.max_inline_data, a.cap.max_inline_data);

  ASSERT_EQ(ModifyToInit(a), 0);
  ASSERT_EQ(ModifyToInit(b), 0);
  ASSERT_EQ(query(), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_INIT);
  EXPECT_EQ(attr.qp_access_flags, static_cast<unsigned>(oa.access));
  EXPECT_EQ(attr.port_num, 1);
  EXPECT_EQ(attr.pkey_index, 0);

  ASSERT_EQ(ModifyToRtr(a, b.qpn(), ob.sq_psn, b.ep.gid()), 0);
  ASSERT_EQ(query(), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_RTR);
  EXPECT_EQ(attr.path_mtu, IBV_MTU_512);
  EXPECT_EQ(attr.dest_qp_num, b.qpn());
  EXPECT_EQ(attr.rq_psn, 0xabcdefu);
  EXPECT_EQ(attr.max_dest_rd_atomic, 5);
  EXPECT_EQ(attr.min_rnr_timer, 13);
  EXPECT_EQ(attr.qp_access_flags, static_cast<unsigned>(oa.access));
  EXPECT_EQ(attr.ah_attr.is_global, 1);
  EXPECT_EQ(attr.ah_attr.port_num, 1);
  ibv_gid gid = b.ep.gid();
  EXPECT_EQ(memcmp(attr.ah_attr.grh.dgid.raw, gid.raw, 16), 0)
      << "destination GID";
  EXPECT_EQ(attr.ah_attr.grh.sgid_index, a_.gid_index);
  EXPECT_EQ(attr.ah_attr.grh.hop_limit, 64);

  ASSERT_EQ(ModifyToRtr(b, a.qpn(), oa.sq_psn, a.ep.gid()), 0);
  ASSERT_EQ(ModifyToRts(a), 0);
  ASSERT_EQ(ModifyToRts(b), 0);
  ASSERT_EQ(query(), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_RTS);
  EXPECT_EQ(attr.cur_qp_state, IBV_QPS_RTS);
  EXPECT_EQ(attr.sq_psn, 0x123456u);
  EXPECT_EQ(attr.timeout, 17);
  EXPECT_EQ(attr.retry_cnt, 5);
  EXPECT_EQ(attr.rnr_retry, 6);
  EXPECT_EQ(attr.max_rd_atomic, 3);
  // Everything set before RTS is still there.
  EXPECT_EQ(attr.path_mtu, IBV_MTU_512);
  EXPECT_EQ(attr.dest_qp_num, b.qpn());
  EXPECT_EQ(attr.rq_psn, 0xabcdefu);
  EXPECT_EQ(attr.max_dest_rd_atomic, 5);
  EXPECT_EQ(attr.min_rnr_timer, 13);
  EXPECT_EQ(attr.qp_access_flags, static_cast<unsigned>(oa.access));
  EXPECT_EQ(attr.cap.max_send_wr, a.cap.max_send_wr);
  EXPECT_EQ(attr.cap.max_inline_data, a.cap.max_inline_data);

  // RTS -> RTS changes what it may.
  ibv_qp_attr x{};
  x.qp_state = IBV_QPS_RTS;
  x.min_rnr_timer = 20;
  x.qp_access_flags = IBV_ACCESS_REMOTE_READ;
  ASSERT_EQ(
      ibv_modify_qp(qp, &x,
                    IBV_QP_STATE | IBV_QP_MIN_RNR_TIMER | IBV_QP_ACCESS_FLAGS),
      0);
  ASSERT_EQ(query(), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_RTS);
  EXPECT_EQ(attr.min_rnr_timer, 20);
  EXPECT_EQ(attr.qp_access_flags,
            static_cast<unsigned>(IBV_ACCESS_REMOTE_READ));
  EXPECT_EQ(attr.timeout, 17);

  // The connection works with these attributes.
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 2048, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(b.pd.get(), 2048, kAllAccess, &r));
  ibv_sge rs = r.sge(0, 2048), s = l.sge(0, 2000);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_send_wr wr = SendWr(2, IBV_WR_SEND, &s, 1, 0);
  ASSERT_EQ(PostSend(qp, &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(a.scq.get(), &wc)) << "sq_sig_all";
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ASSERT_TRUE(PollOne(b.rcq.get(), &wc));
  EXPECT_EQ(wc.byte_len, 2000u);

  // Reset clears the state, not the capabilities.
  x = {};
  x.qp_state = IBV_QPS_RESET;
  ASSERT_EQ(ibv_modify_qp(qp, &x, IBV_QP_STATE), 0);
  ASSERT_EQ(query(), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_RESET);
  EXPECT_EQ(init.cap.max_send_wr, a.cap.max_send_wr);
}

TEST_P(QpAttr, UdQkeyAndState) {
  QpOptions o;
  o.type = IBV_QPT_UD;
  o.qkey = 0x76543210;
  o.sq_psn = 0x777;
  Side a;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
  ASSERT_EQ(ModifyUdToRts(a), 0);
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  ASSERT_EQ(
      ibv_query_qp(a.qp.get(), &attr,
                   IBV_QP_STATE | IBV_QP_QKEY | IBV_QP_SQ_PSN | IBV_QP_PORT,
                   &init),
      0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_RTS);
  EXPECT_EQ(attr.qkey, 0x76543210u);
  EXPECT_EQ(attr.sq_psn, 0x777u);
  EXPECT_EQ(attr.port_num, 1);
  EXPECT_EQ(init.qp_type, IBV_QPT_UD);
}

// Posting needs a state that takes work requests (the IBTA's QP states,
// and rdma_rxe alike): receives from INIT on, sends from RTS on; a refused
// post leaves nothing behind.  For RC, UC and UD.
TEST_P(QpAttr, PostNeedsState) {
  for (ibv_qp_type type : {IBV_QPT_RC, IBV_QPT_UC, IBV_QPT_UD}) {
    SCOPED_TRACE(::testing::Message() << "QP type " << type);
    QpOptions o;
    o.type = type;
    o.access = IBV_ACCESS_REMOTE_WRITE;
    Side a, b;
    ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
    ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &b));
    Region r;
    ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 4096, kAllAccess, &r));
    ibv_sge s = r.sge(0, 8);
    ibv_send_wr wr = SendWr(7, IBV_WR_SEND, &s, 1);
    ibv_ah_attr ah_attr = AhAttr(a_, b_.gid());
    Ah ah(ibv_create_ah(a.pd.get(), &ah_attr));
    ASSERT_TRUE(ah);
    wr.wr.ud.ah = ah.get();
    wr.wr.ud.remote_qpn = b.qpn();
    wr.wr.ud.remote_qkey = o.qkey;
    auto post_send = [&] {
      ibv_send_wr* bad = nullptr;
      int ret = ibv_post_send(a.qp.get(), &wr, &bad);
      if (ret) {
        EXPECT_EQ(bad, &wr);
      }
      return ret;
    };
    auto post_recv = [&] {
      ibv_sge rs = r.sge(1024, 64);
      return PostRecv(a.qp.get(), 9, &rs, 1);
    };

    EXPECT_EQ(post_recv(), EINVAL) << "RESET";
    EXPECT_EQ(post_send(), EINVAL) << "RESET";
    ASSERT_EQ(ModifyToInit(a), 0);
    EXPECT_EQ(post_send(), EINVAL) << "INIT";
    EXPECT_EQ(post_recv(), 0) << "INIT";
    ibv_qp_attr x{};
    x.qp_state = IBV_QPS_RTR;
    if (type == IBV_QPT_UD)
      ASSERT_EQ(ibv_modify_qp(a.qp.get(), &x, IBV_QP_STATE), 0);
    else
      ASSERT_EQ(ModifyToRtr(a, b.qpn(), 0, b_.gid()), 0);
    EXPECT_EQ(post_send(), EINVAL) << "RTR";
    EXPECT_TRUE(NoCompletion(a.scq.get(), milliseconds(20)));
    // RESET drops the receive posted in INIT without a completion
    x.qp_state = IBV_QPS_RESET;
    ASSERT_EQ(ibv_modify_qp(a.qp.get(), &x, IBV_QP_STATE), 0);
    EXPECT_EQ(post_recv(), EINVAL) << "RESET again";
    EXPECT_TRUE(NoCompletion(a.rcq.get(), milliseconds(20)));
  }
}

// SQD (IBTA 10.3.1, 11.6.3.1): the QP finishes the WQEs it began and
// starts no others; once they completed, IBV_EVENT_SQ_DRAINED if asked
// for, once per entry into SQD.  Back in RTS the rest run.  A QP with
// nothing outstanding is drained at once.
TEST_P(QpAttr, SqDrainedEvent) {
  QpOptions o;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 65536, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 65536, kAllAccess, &r));
  FillRandom(l.buf.span(), 5);
  AsyncEvents& events = *a_.dev->events;
  ibv_qp* qp = p.a.qp.get();
  auto to_sqd = [&] {
    ibv_qp_attr x{};
    x.qp_state = IBV_QPS_SQD;
    x.en_sqd_async_notify = 1;
    return ibv_modify_qp(qp, &x, IBV_QP_STATE | IBV_QP_EN_SQD_ASYNC_NOTIFY);
  };
  auto to_rts = [&] {
    ibv_qp_attr x{};
    x.qp_state = IBV_QPS_RTS;
    return ibv_modify_qp(qp, &x, IBV_QP_STATE);
  };
  auto drained = [&](size_t mark) {
    int n = 0;
    for (const auto& e : events.Since(mark))
      n += e.type == IBV_EVENT_SQ_DRAINED && e.element == qp;
    return n;
  };

  // idle: drained at once
  size_t mark = events.Mark();
  ASSERT_EQ(to_sqd(), 0);
  EXPECT_TRUE(events.Wait(mark, IBV_EVENT_SQ_DRAINED, qp, milliseconds(5000)));
  ASSERT_EQ(to_rts(), 0);

  // busy: 16 WRITEs of 4 KiB, SQD right behind them
  const int n = 16;
  for (int i = 0; i < n; i++) {
    ibv_sge s = l.sge(i * 4096, 4096);
    ibv_send_wr wr = RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1, r.addr(i * 4096),
                            r.rkey(), IBV_SEND_SIGNALED);
    ASSERT_EQ(PostSend(qp, &wr), 0);
  }
  mark = events.Mark();
  ASSERT_EQ(to_sqd(), 0);
  EXPECT_TRUE(events.Wait(mark, IBV_EVENT_SQ_DRAINED, qp, milliseconds(5000)));
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  ASSERT_EQ(ibv_query_qp(qp, &attr, IBV_QP_STATE, &init), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_SQD);
  EXPECT_EQ(attr.sq_draining, 0);
  ASSERT_EQ(to_rts(), 0);
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(p.a.scq.get(), n, &wcs, milliseconds(10000)));
  for (int i = 0; i < n; i++) {
    EXPECT_EQ(wcs[i].wr_id, static_cast<uint64_t>(i));
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
  }
  EXPECT_TRUE(SameBytes(r.buf.span(), l.buf.span()));
  EXPECT_EQ(drained(mark), 1) << "once per entry into SQD";
}

INSTANTIATE_TEST_SUITE_P(Verbs, QpAttr,
                         ::testing::Values(Topology::kTwoDevices,
                                           Topology::kTwoDevicesIpv6),
                         TopologyParamName);

}  // namespace
}  // namespace rue::test
