// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A requester under its responder's ACKs (kernel/roce/rc_comp.c), the
// responder being the forged peer.  After a timeout the requester goes
// back to its oldest unacknowledged PSN and, its window cut to
// RUE_CWND_MIN (4) packets (kernel/cc/window.c), sends the first four
// again.  A responder that had everything acknowledges a duplicate with
// the newest PSN it has (IBTA 9.9.2.2), past the requester's resend
// point: that ACK must move the requester on (rue_req_skip(), counted in
// acked_ahead).  Dropped as stale, such ACKs left a requester resending
// what had arrived at every timeout until its retries ran out; rue_loss
// saw it with four QPs at 1% loss, when timing allowed.  Here the order
// is forced.
#include <set>
#include <thread>
#include <vector>

#include "tests/hostile.h"

namespace rue::test {
namespace {

constexpr uint64_t kWrId = 0xac0000;  // of the first WQE; then +1 each
constexpr uint32_t kPosted = 8;
constexpr uint32_t kCwndMin = 4;  // RUE_CWND_MIN
constexpr uint32_t kProbes = 3;   // RUE_RC_TLP_MAX

uint32_t PsnAt(uint32_t first, uint32_t i) {
  return (first + i) & wire::Bth::kPsnMask;
}

TEST_F(HostileTest, AckPastTheResendPointMovesTheRequesterOn) {
  QpOptions o;
  o.max_send_wr = 16;
  ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
  ASSERT_NO_FATAL_FAILURE(ConnectTarget());
  Region l;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &l));

  // One post: the kernel sends all eight in one run (hostile_sq_test.cc).
  SendChain c;
  ChainSends(l, kWrId, kPosted, &c);
  ASSERT_EQ(PostSend(t_.qp.get(), c.wrs.data()), 0);
  ASSERT_TRUE(WaitFor(
      [](const std::vector<Answer>& got) { return got.size() >= kPosted; }));
  std::vector<Answer> got = Answers();
  const uint32_t first = got[0].psn();
  for (uint32_t i = 0; i < kPosted; i++)
    ASSERT_EQ(got[i].psn(), PsnAt(first, i)) << AnswerString(got[i]);

  // First the tail-loss probes (hostile_tlp_test.cc): the newest packet,
  // three times; then the timeout (QpOptions: 14, 67 ms) sends the
  // oldest four again.
  ASSERT_TRUE(WaitFor([](const std::vector<Answer>& got) {
    return got.size() >= kPosted + kProbes + kCwndMin;
  }));
  got = Answers();
  for (uint32_t i = 0; i < kProbes; i++)
    EXPECT_EQ(got[kPosted + i].psn(), PsnAt(first, kPosted - 1))
        << AnswerString(got[kPosted + i]);
  for (uint32_t i = 0; i < kCwndMin; i++)
    EXPECT_EQ(got[kPosted + kProbes + i].psn(), PsnAt(first, i))
        << AnswerString(got[kPosted + kProbes + i]);
  EXPECT_TRUE(NoCompletion(t_.SendCq(), milliseconds(0)));

  const int64_t ahead = Counter("acked_ahead");
  wire::RoceHeaders ack =
      Request(wire::Opcode::kRcAcknowledge, PsnAt(first, kPosted - 1));
  ack.aeth->syndrome = wire::Aeth::MakeSyndrome(
      wire::AethType::kAck, wire::Aeth::kInvalidCreditCount);
  ack.aeth->msn = kPosted;
  ASSERT_NO_FATAL_FAILURE(Inject(ack));

  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(t_.SendCq(), kPosted, &wcs, milliseconds(3000)));
  for (uint32_t i = 0; i < kPosted; i++) {
    EXPECT_EQ(wcs[i].wr_id, kWrId + i) << WcString(wcs[i]);
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
  }
  // (sysfs keeps a counter's value for 10 ms: read until it moves)
  EXPECT_TRUE(
      CounterReaches(*dev_, "acked_ahead", ahead + 1, milliseconds(1000)));
  // Done: nothing is sent again at the next timeout.
  const size_t sent = Answers().size();
  EXPECT_TRUE(NoCompletion(t_.SendCq(), milliseconds(300)));
  EXPECT_EQ(Answers().size(), sent) << AnswerString(Answers().back());
}

// A stream its window holds asks for few ACKs.  The peer answers
// nothing, so the requester sends its window (RUE_CWND_MAX, 256 packets
// on a fresh QP) and stops.  It asks for an ACK at least every
// RUE_ACKREQ_EVERY (32) packets and on the packet that fills the window,
// and no more often while messages follow one another: before, every
// packet of the window's last 32 asked, and a QP the window held (a
// sender faster than its path, between two guests) drew an ACK for
// every packet - as many ACKs on the wire as data.
class HostileAckReq : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    // A capture ring for a window of packets and more (the default one
    // holds about 220 frames of its 9 KiB snap length).
    peer_.reset();
    auto why =
        ForgedPeer::Open(DevB().ip4, dev_->ip4, peer_ifname_, &peer_, 8 << 20);
    ASSERT_FALSE(why) << *why;
  }
};

TEST_F(HostileAckReq, AStreamTheWindowHoldsAsksForFewAcks) {
  constexpr uint32_t kWindow = 256;  // RUE_CWND_MAX
  constexpr uint32_t kEvery = 32;    // RUE_ACKREQ_EVERY
  constexpr uint32_t kPacketsPerWrite = 16;
  constexpr uint32_t kWrites = 2 * kWindow / kPacketsPerWrite;
  QpOptions o;
  o.timeout = 20;  // 4.3 s: no timeout while the test looks
  ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
  ASSERT_NO_FATAL_FAILURE(ConnectTarget());
  Region l;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(t_.pd.get(), kPacketsPerWrite * mtu_, kAllAccess, &l));
  ibv_sge sge = l.sge(0, kPacketsPerWrite * mtu_);
  std::vector<ibv_send_wr> wrs(kWrites);
  for (uint32_t i = 0; i < kWrites; i++) {
    wrs[i] = RdmaWr(kWrId + i, IBV_WR_RDMA_WRITE, &sge, 1, 0x10000, 0x1234);
    wrs[i].next = i + 1 < kWrites ? &wrs[i + 1] : nullptr;
  }
  ASSERT_EQ(PostSend(t_.qp.get(), wrs.data()), 0);
  // The window's packets, first transmissions only: a tail-loss probe
  // (the newest packet again) may come between them when the transmit
  // engine hands over to its workqueue.
  std::vector<Answer> sent;
  auto window = [&sent](const std::vector<Answer>& got) {
    sent.clear();
    for (const Answer& a : got)
      if (sent.empty() || a.psn() == PsnAt(sent[0].psn(), sent.size()))
        sent.push_back(a);
    return sent.size() >= kWindow;
  };
  ASSERT_TRUE(WaitFor(window));
  // nothing past the window
  std::this_thread::sleep_for(milliseconds(100));
  ASSERT_TRUE(WaitFor(window));
  // Where ACKs were asked for: by first transmissions (counted) and by
  // probes, which ask too (the newest packet at that time).
  const uint32_t first = sent[0].psn();
  std::set<uint32_t> asked;
  for (const Answer& a : Answers()) {
    const uint32_t off = (a.psn() - first) & wire::Bth::kPsnMask;
    EXPECT_LT(off, kWindow) << "past the window: " << AnswerString(a);
    if (a.headers.bth.ack_req) asked.insert(off);
  }
  uint32_t asks = 0, last = 0;
  for (uint32_t i = 0; i < kWindow; i++) asks += sent[i].headers.bth.ack_req;
  for (uint32_t off : asked) {
    EXPECT_LE(off - last, kEvery) << "no ACK asked for from " << last;
    last = off;
  }
  EXPECT_TRUE(sent[kWindow - 1].headers.bth.ack_req)
      << "the packet that fills the window does not ask";
  EXPECT_LE(asks, kWindow / kEvery + 1);
}

}  // namespace
}  // namespace rue::test
