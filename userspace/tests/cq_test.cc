// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion queues: completion events (next and solicited-only) and
// their moderation, resizing with completions pending, overflow reported
// as an asynchronous event or, when asked, ignored; a ring past 4 MiB.
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

class CqEvents : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    channel_.reset(ibv_create_comp_channel(b_.ctx()));
    ASSERT_TRUE(channel_) << strerror(errno);
    QpOptions oa, ob;
    ob.channel = channel_.get();
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p_));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 4096, kAllAccess, &l_));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 4096, kAllAccess, &r_));
  }

  // a sends to b (a receive is posted first) and waits for a's completion.
  void Send(uint64_t id, unsigned flags, ibv_wr_opcode op = IBV_WR_SEND) {
    ibv_sge rs = r_.sge(0, 64);
    ASSERT_EQ(PostRecv(p_.b.qp.get(), id, &rs, 1), 0);
    ibv_sge s = l_.sge(0, 64);
    ibv_send_wr wr = RdmaWr(id, op, &s, 1, r_.addr(1024), r_.rkey(),
                            IBV_SEND_SIGNALED | flags);
    ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
    ibv_wc wc;
    ASSERT_TRUE(PollOne(p_.a.scq.get(), &wc));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }

  // Waits for b's receive completion @id, by polling (no event needed).
  void ExpectRecv(uint64_t id) {
    ibv_wc wc;
    ASSERT_TRUE(PollOne(p_.b.rcq.get(), &wc));
    EXPECT_EQ(wc.wr_id, id);
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }

  Channel channel_;  // declared first: destroyed after the CQs that use it
  RcPair p_;
  Region l_, r_;
};

TEST_P(CqEvents, NotifyNext) {
  ASSERT_EQ(ibv_req_notify_cq(p_.b.rcq.get(), 0), 0);
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(50)), nullptr)
      << "event with no completion";
  ASSERT_NO_FATAL_FAILURE(Send(1, 0));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), p_.b.rcq.get());
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(1));
  // One event per request: no event for the next completion.
  ASSERT_NO_FATAL_FAILURE(Send(2, 0));
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(2));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(100)), nullptr)
      << "event without a request";
  // Armed again, the next completion fires again.
  ASSERT_EQ(ibv_req_notify_cq(p_.b.rcq.get(), 0), 0);
  ASSERT_NO_FATAL_FAILURE(Send(3, IBV_SEND_SOLICITED));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), p_.b.rcq.get());
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(3));
}

TEST_P(CqEvents, SolicitedOnly) {
  ASSERT_EQ(ibv_req_notify_cq(p_.b.rcq.get(), 1), 0);
  // An unsolicited SEND completes but does not wake the waiter.
  ASSERT_NO_FATAL_FAILURE(Send(1, 0));
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(1));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(200)), nullptr)
      << "an unsolicited completion woke a solicited-only waiter";
  // A solicited one does.
  ASSERT_NO_FATAL_FAILURE(Send(2, IBV_SEND_SOLICITED));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), p_.b.rcq.get())
      << "no event for a solicited completion";
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(2));
}

TEST_P(CqEvents, SolicitedWriteWithImm) {
  ASSERT_EQ(ibv_req_notify_cq(p_.b.rcq.get(), 1), 0);
  ASSERT_NO_FATAL_FAILURE(Send(1, 0, IBV_WR_RDMA_WRITE_WITH_IMM));
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(1));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(200)), nullptr)
      << "an unsolicited WRITE with immediate woke a solicited-only waiter";
  ASSERT_NO_FATAL_FAILURE(
      Send(2, IBV_SEND_SOLICITED, IBV_WR_RDMA_WRITE_WITH_IMM));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), p_.b.rcq.get());
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(2));
}

// Sets the moderation of b's receive CQ.
void Moderate(ibv_cq* cq, uint16_t count, uint16_t period_us) {
  ibv_modify_cq_attr m{};
  m.attr_mask = IBV_CQ_ATTR_MODERATE;
  m.moderate.cq_count = count;
  m.moderate.cq_period = period_us;
  ASSERT_EQ(ibv_modify_cq(cq, &m), 0);
}

// ibv_modify_cq(): the event of an armed CQ waits for cq_count
// completions (no deadline with cq_period 0); a solicited completion
// does not wait; cq_count 1 turns moderation off.
TEST_P(CqEvents, ModerationWaitsForCount) {
  ibv_device_attr_ex dattr{};
  ASSERT_EQ(ibv_query_device_ex(b_.ctx(), nullptr, &dattr), 0);
  EXPECT_EQ(dattr.cq_mod_caps.max_cq_count, 65535);
  EXPECT_EQ(dattr.cq_mod_caps.max_cq_period, 65535);
  ibv_cq* cq = p_.b.rcq.get();
  ASSERT_NO_FATAL_FAILURE(Moderate(cq, 4, 0));
  ASSERT_EQ(ibv_req_notify_cq(cq, 0), 0);
  for (uint64_t i = 1; i <= 3; i++) ASSERT_NO_FATAL_FAILURE(Send(i, 0));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(200)), nullptr)
      << "event before the fourth completion";
  ASSERT_NO_FATAL_FAILURE(Send(4, 0));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), cq);
  for (uint64_t i = 1; i <= 4; i++) ASSERT_NO_FATAL_FAILURE(ExpectRecv(i));

  ASSERT_EQ(ibv_req_notify_cq(cq, 0), 0);
  ASSERT_NO_FATAL_FAILURE(Send(5, IBV_SEND_SOLICITED));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), cq)
      << "a solicited completion waited";
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(5));

  ASSERT_NO_FATAL_FAILURE(Moderate(cq, 1, 0));
  ASSERT_EQ(ibv_req_notify_cq(cq, 0), 0);
  ASSERT_NO_FATAL_FAILURE(Send(6, 0));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), cq);
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(6));
}

// ... or cq_period microseconds after the first completion it holds.
TEST_P(CqEvents, ModerationPeriodEndsTheWait) {
  ibv_cq* cq = p_.b.rcq.get();
  ASSERT_NO_FATAL_FAILURE(Moderate(cq, 100, 50000));
  ASSERT_EQ(ibv_req_notify_cq(cq, 0), 0);
  auto start = Clock::now();
  ASSERT_NO_FATAL_FAILURE(Send(1, 0));
  EXPECT_EQ(WaitCqEvent(channel_.get(), milliseconds(5000)), cq)
      << "no event when the period ran out";
  EXPECT_GE(Clock::now() - start, milliseconds(50))
      << "the event did not wait for the period";
  ASSERT_NO_FATAL_FAILURE(ExpectRecv(1));
}

RUE_TOPOLOGIES(CqEvents);

class CompletionQueue : public TopologyTest {};

// Resizing keeps the completions not yet polled, in order; a size below
// what is pending fails and loses nothing.
TEST_P(CompletionQueue, ResizeKeepsPendingCompletions) {
  QpOptions oa, ob;
  oa.max_send_wr = 128;
  ob.max_recv_wr = 128;
  ob.recv_cqe = 16;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p));
  ibv_cq* cq = p.b.rcq.get();
  ASSERT_GE(cq->cqe, 16);
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  uint64_t id = 0;
  // n SENDs into b's receive CQ, not polled; their requester completions
  // say the receives completed.
  auto sends = [&](int n) {
    for (int i = 0; i < n; i++, id++) {
      ibv_sge rs = r.sge(id % 64 * 8, 8);
      ASSERT_EQ(PostRecv(p.b.qp.get(), id, &rs, 1), 0);
      ibv_sge s = l.sge(id % 64 * 8, 8);
      ibv_send_wr wr = SendWr(id, IBV_WR_SEND, &s, 1);
      ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
    }
    std::vector<ibv_wc> wcs;
    ASSERT_TRUE(PollCq(p.a.scq.get(), static_cast<size_t>(n), &wcs));
    for (const ibv_wc& wc : wcs)
      ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  };
  ASSERT_NO_FATAL_FAILURE(sends(10));
  EXPECT_NE(ibv_resize_cq(cq, 4), 0)
      << "shrinking below the pending completions succeeded";
  ASSERT_EQ(ibv_resize_cq(cq, 100), 0);
  EXPECT_GE(cq->cqe, 100);
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(cq, 10, &wcs));
  for (uint64_t i = 0; i < 10; i++) {
    EXPECT_EQ(wcs[i].wr_id, i);
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
  }
  // More than the old size fits now.
  ASSERT_NO_FATAL_FAILURE(sends(60));
  ASSERT_TRUE(PollCq(cq, 60, &wcs));
  for (uint64_t i = 0; i < 60; i++) {
    EXPECT_EQ(wcs[i].wr_id, 10 + i);
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
  }
  // Shrink again, with some pending.
  ASSERT_NO_FATAL_FAILURE(sends(5));
  ASSERT_EQ(ibv_resize_cq(cq, 8), 0);
  ASSERT_TRUE(PollCq(cq, 5, &wcs));
  for (uint64_t i = 0; i < 5; i++) EXPECT_EQ(wcs[i].wr_id, 70 + i);
  EXPECT_TRUE(NoCompletion(cq, milliseconds(10)));
}

// A ring beyond 4 MiB is vmalloc'd and mapped page by page (the kernel's
// cq.c): completions land in every page, the last ones included, and
// come out in order.  70,000 completions pending at once fill the 64-byte
// slots past the first 4 MiB (65,536 of them).  The ring is the subject,
// not the path: one device only, the quickest.
class LargeCq : public TopologyTest {};

TEST_P(LargeCq, RingPastFourMiBHoldsEveryCompletion) {
  constexpr int kPending = 70000;
  Cq big(ibv_create_cq(a_.ctx(), 2 * 65536, nullptr, nullptr, 0));
  ASSERT_TRUE(big) << strerror(errno);
  QpOptions oa, ob;
  oa.max_send_wr = 1024;
  oa.send_cq = big.get();
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  // Signaled WRITEs, none polled; a full SQ (ENOMEM) frees slots as its
  // WQEs complete, so the post waits and tries again.
  AsyncEvents& events = *a_.dev->events;
  size_t mark = events.Mark();
  auto deadline = Clock::now() + milliseconds(120000);
  for (int i = 0; i < kPending; i++) {
    ibv_sge s = l.sge(i % 512 * 8, 8);
    ibv_send_wr wr =
        RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1, r.addr(i % 512 * 8), r.rkey());
    int err;
    while ((err = PostSend(p.a.qp.get(), &wr)) == ENOMEM &&
           Clock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(1));
    ASSERT_EQ(err, 0) << "WRITE " << i << ": " << strerror(err);
  }
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(big.get(), kPending, &wcs, milliseconds(60000)));
  for (int i = 0; i < kPending; i++) {
    ASSERT_EQ(wcs[i].wr_id, uint64_t(i)) << "completion " << i;
    ASSERT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
  }
  EXPECT_TRUE(NoCompletion(big.get(), milliseconds(10)));
  EXPECT_FALSE(events.Wait(mark, IBV_EVENT_CQ_ERR, big.get(),
                           milliseconds(10)));
}

INSTANTIATE_TEST_SUITE_P(Verbs, LargeCq,
                         ::testing::Values(Topology::kLoopback),
                         TopologyParamName);

// A CQ that is not polled overflows: the consumer hears of it through
// IBV_EVENT_CQ_ERR.
TEST_P(CompletionQueue, OverflowReported) {
  QpOptions o;
  o.max_send_wr = 64;
  o.send_cqe = 8;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  ibv_cq* cq = p.a.scq.get();
  const int n = cq->cqe + 4;
  ASSERT_LE(n, static_cast<int>(p.a.cap.max_send_wr));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  AsyncEvents& events = *a_.dev->events;
  size_t mark = events.Mark();
  for (int i = 0; i < n; i++) {
    ibv_sge s = l.sge(i * 8, 8);
    ibv_send_wr wr =
        RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1, r.addr(i * 8), r.rkey());
    ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  }
  EXPECT_TRUE(events.Wait(mark, IBV_EVENT_CQ_ERR, cq, milliseconds(5000)))
      << "no IBV_EVENT_CQ_ERR for a CQ of " << cq->cqe << " entries after " << n
      << " completions";
}

// port 1's hw_counters/@name of @dev.
int64_t PortCounter(const Device& dev, const std::string& name) {
  std::ifstream f("/sys/class/infiniband/" + dev.name +
                  "/ports/1/hw_counters/" + name);
  int64_t v = -1;
  f >> v;
  return v;
}

// A CQ created to ignore overruns drops (and counts) what it has no room
// for instead: no IBV_EVENT_CQ_ERR, the QP stays in RTS, and once polled
// the CQ takes completions again.
TEST_P(CompletionQueue, OverrunIgnored) {
  ibv_cq_init_attr_ex attr{};
  attr.cqe = 8;
  attr.wc_flags = IBV_WC_STANDARD_FLAGS;
  attr.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
  attr.flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
  ibv_cq_ex* cqx = ibv_create_cq_ex(a_.ctx(), &attr);
  ASSERT_NE(cqx, nullptr) << strerror(errno);
  Cq owner(ibv_cq_ex_to_cq(cqx));
  ibv_cq* cq = owner.get();
  QpOptions oa, ob;
  oa.max_send_wr = 64;
  oa.send_cq = cq;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p));
  const int n = cq->cqe + 4;
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  auto write = [&](int i) {
    ibv_sge s = l.sge(i * 8, 8);
    ibv_send_wr wr =
        RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1, r.addr(i * 8), r.rkey());
    return PostSend(p.a.qp.get(), &wr);
  };
  AsyncEvents& events = *a_.dev->events;
  size_t mark = events.Mark();
  const int64_t dropped = PortCounter(*a_.dev, "cq_overflows");
  for (int i = 0; i < n; i++) ASSERT_EQ(write(i), 0);
  auto deadline = Clock::now() + milliseconds(5000);
  while (PortCounter(*a_.dev, "cq_overflows") < dropped + 4 &&
         Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(10));
  EXPECT_EQ(PortCounter(*a_.dev, "cq_overflows"), dropped + 4);
  EXPECT_FALSE(events.Wait(mark, IBV_EVENT_CQ_ERR, cq, milliseconds(200)));
  EXPECT_EQ(QpState(p.a.qp.get()), IBV_QPS_RTS);
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(cq, cq->cqe, &wcs));
  for (int i = 0; i < cq->cqe; i++) EXPECT_EQ(wcs[i].wr_id, uint64_t(i));
  ASSERT_EQ(write(n), 0);
  ASSERT_TRUE(PollOne(cq, &wcs[0]));
  EXPECT_EQ(wcs[0].wr_id, uint64_t(n));
  EXPECT_EQ(wcs[0].status, IBV_WC_SUCCESS) << WcString(wcs[0]);
}

RUE_TOPOLOGIES(CompletionQueue);

}  // namespace
}  // namespace rue::test
