// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Shared receive queues (IBTA 10.2.9): one SRQ feeds RC, UC and UD QPs,
// each message lands whole in the WQE its QP took; the limit event fires
// once when fewer WQEs than the limit remain; an RC sender waits (RNR)
// while the SRQ is empty; a QP in error leaves the SRQ's WQEs to the
// others and reports IBV_EVENT_QP_LAST_WQE_REACHED.
#include <arpa/inet.h>

#include <cstring>
#include <map>
#include <thread>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

constexpr size_t kSlot = 65536;  // receive buffer per WQE
constexpr uint32_t kQkey = 0x11111111;

class SharedReceiveQueue : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    apd.reset(ibv_alloc_pd(a_.ctx()));
    bpd.reset(ibv_alloc_pd(b_.ctx()));
    ASSERT_TRUE(apd && bpd) << "ibv_alloc_pd: " << strerror(errno);
    brcq.reset(ibv_create_cq(b_.ctx(), 256, nullptr, nullptr, 0));
    ASSERT_TRUE(brcq) << "ibv_create_cq: " << strerror(errno);
    ASSERT_NO_FATAL_FAILURE(MakeSrq(64, 2));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(apd.get(), 8 * kSlot, kAllAccess, &la));
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(bpd.get(), 64 * kSlot, kAllAccess, &lb));
    mtu = a_.dev->MtuBytes();
  }

  void MakeSrq(uint32_t max_wr, uint32_t max_sge) {
    ibv_srq_init_attr init{};
    init.attr.max_wr = max_wr;
    init.attr.max_sge = max_sge;
    srq.reset(ibv_create_srq(bpd.get(), &init));
    ASSERT_TRUE(srq) << "ibv_create_srq: " << strerror(errno);
    ASSERT_GE(init.attr.max_wr, max_wr);
    ASSERT_GE(init.attr.max_sge, max_sge);
    srq_wr = init.attr.max_wr;
  }

  // A connected pair: a's QP in apd, b's in bpd on the SRQ and brcq.
  void MakePair(ibv_qp_type type, RcPair* p) {
    QpOptions oa;
    oa.type = type;
    oa.pd = apd.get();
    QpOptions ob = oa;
    ob.pd = bpd.get();
    ob.recv_cq = brcq.get();
    ob.srq = srq.get();
    ob.sq_psn = 0x2000;
    ASSERT_NO_FATAL_FAILURE(CreateSide(a_, oa, &p->a));
    ASSERT_NO_FATAL_FAILURE(CreateSide(b_, ob, &p->b));
    ASSERT_NO_FATAL_FAILURE(Connect(p->a, p->b));
  }

  // WQE @id of the SRQ receives into lb's slot @id.
  void PostSrq(uint64_t id) {
    ibv_sge s = lb.sge(id * kSlot, kSlot);
    ibv_recv_wr wr{};
    wr.wr_id = id;
    wr.sg_list = &s;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    ASSERT_EQ(ibv_post_srq_recv(srq.get(), &wr, &bad), 0);
  }

  // Sends @size bytes of pattern @seed from la's slot @slot, with @seed
  // as immediate data, and waits for the send's completion.
  void Send(ibv_qp* qp, ibv_cq* scq, uint32_t seed, uint32_t size,
            size_t slot, const ibv_send_wr* ud = nullptr) {
    FillRandom(la.buf.span(slot * kSlot, size), seed);
    ibv_sge s = la.sge(slot * kSlot, size);
    ibv_send_wr wr = SendWr(seed, IBV_WR_SEND_WITH_IMM, &s, size ? 1 : 0);
    if (ud) wr.wr = ud->wr;
    wr.imm_data = htonl(seed);
    ASSERT_EQ(PostSend(qp, &wr), 0);
    ibv_wc wc;
    ASSERT_TRUE(PollOne(scq, &wc, Deadline(size)));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }

  // The receive completion of the message with immediate @seed, @size
  // bytes (after @skip bytes of GRH) of pattern @seed: on @qpn, in the
  // slot of the WQE it names.
  void ExpectArrived(const ibv_wc& wc, uint32_t qpn, uint32_t size,
                     uint32_t skip = 0) {
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.qp_num, qpn);
    EXPECT_EQ(wc.opcode, IBV_WC_RECV);
    ASSERT_TRUE(wc.wc_flags & IBV_WC_WITH_IMM) << WcString(wc);
    EXPECT_EQ(wc.byte_len, size + skip);
    uint32_t seed = ntohl(wc.imm_data);
    std::vector<uint8_t> want(size);
    FillRandom({want.data(), want.size()}, seed);
    EXPECT_EQ(memcmp(lb.data(wc.wr_id * kSlot + skip), want.data(), size), 0)
        << "message " << seed << " in WQE " << wc.wr_id;
  }

  Pd apd, bpd;
  Cq brcq;
  Srq srq;
  uint32_t srq_wr = 0;
  uint32_t mtu = 0;
  Region la, lb;
};

// Create, query, arm and refuse: what ibv_create_srq(3) promises.
TEST_P(SharedReceiveQueue, CreateQueryModify) {
  ibv_srq_attr attr{};
  ASSERT_EQ(ibv_query_srq(srq.get(), &attr), 0);
  EXPECT_EQ(attr.max_wr, srq_wr);
  EXPECT_GE(attr.max_sge, 2u);
  EXPECT_EQ(attr.srq_limit, 0u);

  attr.srq_limit = 10;
  ASSERT_EQ(ibv_modify_srq(srq.get(), &attr, IBV_SRQ_LIMIT), 0);
  ASSERT_EQ(ibv_query_srq(srq.get(), &attr), 0);
  EXPECT_EQ(attr.srq_limit, 10u);
  attr.srq_limit = srq_wr + 1;
  EXPECT_EQ(ibv_modify_srq(srq.get(), &attr, IBV_SRQ_LIMIT), EINVAL);
  // the ring is mapped: it does not grow
  attr.max_wr = 2 * srq_wr;
  EXPECT_EQ(ibv_modify_srq(srq.get(), &attr, IBV_SRQ_MAX_WR), EOPNOTSUPP);

  const ibv_device_attr& dev = b_.dev->attr;
  EXPECT_GT(dev.max_srq, 0);
  EXPECT_GT(dev.max_srq_wr, 0);
  EXPECT_GT(dev.max_srq_sge, 0);
  ibv_srq_init_attr big{};
  big.attr.max_wr = static_cast<uint32_t>(dev.max_srq_wr) + 1;
  big.attr.max_sge = 1;
  errno = 0;
  Srq refused(ibv_create_srq(bpd.get(), &big));
  EXPECT_FALSE(refused);
  EXPECT_EQ(errno, EINVAL);

  // a full SRQ refuses the next WQE
  for (uint32_t i = 0; i < srq_wr; i++) ASSERT_NO_FATAL_FAILURE(PostSrq(i % 64));
  ibv_sge s = lb.sge(0, 8);
  ibv_recv_wr wr{};
  wr.sg_list = &s;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  EXPECT_EQ(ibv_post_srq_recv(srq.get(), &wr, &bad), ENOMEM);
  EXPECT_EQ(bad, &wr);
  ibv_sge many[40];
  for (auto& m : many) m = s;
  wr.sg_list = many;
  wr.num_sge = 40;
  EXPECT_EQ(ibv_post_srq_recv(srq.get(), &wr, &bad), EINVAL);
}

// A QP on an SRQ has no RQ of its own; the SRQ outlives no QP.
TEST_P(SharedReceiveQueue, QpOnSrqRules) {
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p));
  EXPECT_EQ(p.b.cap.max_recv_wr, 0u);
  EXPECT_EQ(p.b.cap.max_recv_sge, 0u);
  ibv_sge s = lb.sge(0, 8);
  EXPECT_EQ(PostRecv(p.b.qp.get(), 1, &s, 1), EINVAL);
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  ASSERT_EQ(ibv_query_qp(p.b.qp.get(), &attr, IBV_QP_CAP, &init), 0);
  EXPECT_EQ(init.srq, srq.get());
  EXPECT_EQ(ibv_destroy_srq(srq.get()), EBUSY);
}

// Three RC QPs take their receives from one SRQ: every message lands
// whole, in the WQE its completion names, on the QP it was sent to.
TEST_P(SharedReceiveQueue, SharedByRcQps) {
  constexpr int kQps = 3;
  RcPair p[kQps];
  for (auto& pair : p) ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &pair));
  for (uint64_t i = 0; i < 48; i++) ASSERT_NO_FATAL_FAILURE(PostSrq(i));
  const uint32_t sizes[] = {0, 1, mtu, 3 * mtu + 5, 65536};
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> sent;  // seed: qpn, size
  uint32_t seed = 100;
  for (uint32_t size : sizes) {
    for (int q = 0; q < kQps; q++) {
      ASSERT_NO_FATAL_FAILURE(Send(p[q].a.qp.get(), p[q].a.scq.get(), ++seed,
                                   size, q));
      sent[seed] = {p[q].b.qpn(), size};
    }
  }
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(brcq.get(), sent.size(), &wcs, Deadline(1 << 20)));
  std::map<uint64_t, int> wqes;
  for (const ibv_wc& wc : wcs) {
    auto it = sent.find(ntohl(wc.imm_data));
    ASSERT_NE(it, sent.end()) << WcString(wc);
    ASSERT_NO_FATAL_FAILURE(
        ExpectArrived(wc, it->second.first, it->second.second));
    EXPECT_EQ(++wqes[wc.wr_id], 1) << "WQE " << wc.wr_id << " used twice";
    sent.erase(it);
  }
  EXPECT_TRUE(sent.empty());
}

// UC and UD QPs share the SRQ with an RC QP.
TEST_P(SharedReceiveQueue, SharedByUcAndUd) {
  RcPair rc, uc;
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &rc));
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_UC, &uc));
  QpOptions o;
  o.type = IBV_QPT_UD;
  o.qkey = kQkey;
  o.pd = apd.get();
  Side ua, ub;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &ua));
  o.pd = bpd.get();
  o.recv_cq = brcq.get();
  o.srq = srq.get();
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &ub));
  ASSERT_EQ(ModifyUdToRts(ua), 0);
  ASSERT_EQ(ModifyUdToRts(ub), 0);
  ibv_ah_attr ah_attr = AhAttr(a_, b_.gid());
  Ah ah(ibv_create_ah(apd.get(), &ah_attr));
  ASSERT_TRUE(ah) << "ibv_create_ah: " << strerror(errno);
  ibv_send_wr ud{};
  ud.wr.ud.ah = ah.get();
  ud.wr.ud.remote_qpn = ub.qpn();
  ud.wr.ud.remote_qkey = kQkey;

  for (uint64_t i = 0; i < 6; i++) ASSERT_NO_FATAL_FAILURE(PostSrq(i));
  ASSERT_NO_FATAL_FAILURE(Send(rc.a.qp.get(), rc.a.scq.get(), 1, 3 * mtu, 0));
  ASSERT_NO_FATAL_FAILURE(Send(uc.a.qp.get(), uc.a.scq.get(), 2, 2 * mtu, 1));
  ASSERT_NO_FATAL_FAILURE(Send(ua.qp.get(), ua.scq.get(), 3, mtu, 2, &ud));
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(brcq.get(), 3, &wcs, Deadline(1 << 20)));
  for (const ibv_wc& wc : wcs) {
    switch (ntohl(wc.imm_data)) {
      case 1:
        ExpectArrived(wc, rc.b.qpn(), 3 * mtu);
        break;
      case 2:
        ExpectArrived(wc, uc.b.qpn(), 2 * mtu);
        break;
      case 3:
        ExpectArrived(wc, ub.qpn(), mtu, 40);  // after the GRH
        EXPECT_EQ(wc.src_qp, ua.qpn());
        break;
      default:
        ADD_FAILURE() << WcString(wc);
    }
  }
}

// IBTA 10.2.9.3: armed at L, the event fires when fewer than L WQEs are
// left, once; the limit reads 0 after it.
TEST_P(SharedReceiveQueue, LimitEventFiresOnce) {
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p));
  for (uint64_t i = 0; i < 8; i++) ASSERT_NO_FATAL_FAILURE(PostSrq(i));
  ibv_srq_attr attr{};
  attr.srq_limit = 4;
  ASSERT_EQ(ibv_modify_srq(srq.get(), &attr, IBV_SRQ_LIMIT), 0);
  AsyncEvents& events = *b_.dev->events;
  size_t mark = events.Mark();
  auto count = [&] {
    int n = 0;
    for (const auto& r : events.Since(mark))
      n += r.type == IBV_EVENT_SRQ_LIMIT_REACHED && r.element == srq.get();
    return n;
  };
  ibv_wc wc;
  for (uint32_t i = 1; i <= 4; i++) {  // 4 WQEs left: not below 4
    ASSERT_NO_FATAL_FAILURE(Send(p.a.qp.get(), p.a.scq.get(), i, 100, 0));
    ASSERT_TRUE(PollOne(brcq.get(), &wc));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(count(), 0);
  ASSERT_NO_FATAL_FAILURE(Send(p.a.qp.get(), p.a.scq.get(), 5, 100, 0));
  ASSERT_TRUE(PollOne(brcq.get(), &wc));
  EXPECT_TRUE(events.Wait(mark, IBV_EVENT_SRQ_LIMIT_REACHED, srq.get(),
                          milliseconds(5000)));
  ASSERT_EQ(ibv_query_srq(srq.get(), &attr), 0);
  EXPECT_EQ(attr.srq_limit, 0u);
  for (uint32_t i = 6; i <= 8; i++) {
    ASSERT_NO_FATAL_FAILURE(Send(p.a.qp.get(), p.a.scq.get(), i, 100, 0));
    ASSERT_TRUE(PollOne(brcq.get(), &wc));
  }
  std::this_thread::sleep_for(milliseconds(200));
  EXPECT_EQ(count(), 1);
}

// An empty SRQ makes an RC sender wait (RNR NAKs), not fail.
TEST_P(SharedReceiveQueue, EmptySrqIsRnr) {
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p));
  FillRandom(la.buf.span(0, 4000), 9);
  ibv_sge s = la.sge(0, 4000);
  ibv_send_wr wr = SendWr(9, IBV_WR_SEND_WITH_IMM, &s, 1);
  wr.imm_data = htonl(9);
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ASSERT_TRUE(NoCompletion(p.a.scq.get(), milliseconds(300)));
  ASSERT_NO_FATAL_FAILURE(PostSrq(5));
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ASSERT_TRUE(PollOne(brcq.get(), &wc));
  ExpectArrived(wc, p.b.qpn(), 4000);
  EXPECT_EQ(wc.wr_id, 5u);
}

// A QP moved to error reports its last WQE and flushes nothing of the
// SRQ: the other QP still receives with the WQEs posted before.
TEST_P(SharedReceiveQueue, QpErrorLeavesWqesToOthers) {
  RcPair p1, p2;
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p1));
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p2));
  for (uint64_t i = 0; i < 4; i++) ASSERT_NO_FATAL_FAILURE(PostSrq(i));
  AsyncEvents& events = *b_.dev->events;
  size_t mark = events.Mark();
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ASSERT_EQ(ibv_modify_qp(p1.b.qp.get(), &attr, IBV_QP_STATE), 0);
  EXPECT_TRUE(events.Wait(mark, IBV_EVENT_QP_LAST_WQE_REACHED,
                          p1.b.qp.get(), milliseconds(5000)));
  EXPECT_TRUE(NoCompletion(brcq.get(), milliseconds(200)));
  for (uint32_t i = 1; i <= 4; i++) {
    ASSERT_NO_FATAL_FAILURE(
        Send(p2.a.qp.get(), p2.a.scq.get(), i, 3 * mtu, 0));
    ibv_wc wc;
    ASSERT_TRUE(PollOne(brcq.get(), &wc));
    ExpectArrived(wc, p2.b.qpn(), 3 * mtu);
  }
}

// A WQE whose lkey is bad fails on the QP that took it (local protection
// error, the sender sees a remote operation error); the next WQE serves
// the other QP.
TEST_P(SharedReceiveQueue, BadWqeFailsOnlyItsQp) {
  RcPair p1, p2;
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p1));
  ASSERT_NO_FATAL_FAILURE(MakePair(IBV_QPT_RC, &p2));
  ibv_sge bad_sge = lb.sge(0, 4096);
  bad_sge.lkey ^= 0x5a5a00;
  ibv_recv_wr wr{};
  wr.wr_id = 77;
  wr.sg_list = &bad_sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  ASSERT_EQ(ibv_post_srq_recv(srq.get(), &wr, &bad), 0);
  ASSERT_NO_FATAL_FAILURE(PostSrq(1));

  ibv_sge s = la.sge(0, 100);
  ibv_send_wr sw = SendWr(1, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(p1.a.qp.get(), &sw), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p1.a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_REM_OP_ERR) << WcString(wc);
  ASSERT_TRUE(PollOne(brcq.get(), &wc));
  EXPECT_EQ(wc.wr_id, 77u);
  EXPECT_EQ(wc.status, IBV_WC_LOC_PROT_ERR) << WcString(wc);
  EXPECT_EQ(wc.qp_num, p1.b.qpn());

  ASSERT_NO_FATAL_FAILURE(Send(p2.a.qp.get(), p2.a.scq.get(), 2, 100, 1));
  ASSERT_TRUE(PollOne(brcq.get(), &wc));
  ExpectArrived(wc, p2.b.qpn(), 100);
  EXPECT_EQ(wc.wr_id, 1u);
}

RUE_TOPOLOGIES(SharedReceiveQueue);

}  // namespace
}  // namespace rue::test
