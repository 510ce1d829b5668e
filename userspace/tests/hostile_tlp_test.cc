// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Tail-loss probes of an RC requester (kernel/roce/rc_timer.c), the
// responder being the forged peer, which answers nothing until the test
// says so: every packet the target sent is then a lost tail.  Before the
// retransmission timer (here 4.3 s: timeout 20) the requester sends its
// newest packet again asking for an ACK, at most three times, each probe
// timeout twice the last; a READ alone in flight is asked for again.  An
// answer to a probe completes the work at once, and no timeout is
// counted.  Without probes, a tail lost on a link that drops now and
// then costs the whole timeout: 67 ms at perftest's timeout, half a
// second or more as rdma_cm sets it.
#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr uint64_t kWrId = 0x7100;
constexpr uint8_t kTimeout = 20;  // 4.096 us << 20: 4.3 s
constexpr int kProbesMax = 3;     // RUE_RC_TLP_MAX

class HostileTlp : public HostileTest {
 protected:
  // The target's QP timeout (IBTA's exponent).
  virtual uint8_t Timeout() const { return kTimeout; }

  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.timeout = Timeout();
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 8 * mtu_, kAllAccess, &l_));
    probes_ = Counter("tlp_probes");
    timeouts_ = Counter("local_ack_timeout_err");
    retransmits_ = Counter("retransmits");
  }

  // Waits until the target sent @n packets; they are in @got.
  void WaitSent(size_t n, std::vector<Answer>* got,
                milliseconds timeout = milliseconds(3000)) {
    ASSERT_TRUE(WaitFor(
        [n](const std::vector<Answer>& a) { return a.size() >= n; }, timeout));
    *got = Answers();
  }

  // The peer acknowledges everything up to @psn.
  void Ack(uint32_t psn, uint32_t msn) {
    wire::RoceHeaders ack = Request(Opcode::kRcAcknowledge, psn);
    ack.aeth->syndrome = wire::Aeth::MakeSyndrome(
        wire::AethType::kAck, wire::Aeth::kInvalidCreditCount);
    ack.aeth->msn = msn;
    ASSERT_NO_FATAL_FAILURE(Inject(ack));
  }

  // @n completions, successful, kWrId on.
  void ExpectDone(uint32_t n) {
    std::vector<ibv_wc> wcs;
    ASSERT_TRUE(PollCq(t_.SendCq(), n, &wcs, milliseconds(1000)));
    for (uint32_t i = 0; i < n; i++) {
      EXPECT_EQ(wcs[i].wr_id, kWrId + i) << WcString(wcs[i]);
      EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
    }
  }

  // Between @lo and @hi probes were counted (more than one when the
  // peer's answer came after the next PTO), and no timeout.
  void ExpectProbedNotTimedOut(int64_t lo, int64_t hi) {
    // (sysfs keeps a counter's value for 10 ms: read until it moves)
    auto deadline = Clock::now() + milliseconds(1000);
    while (Counter("tlp_probes") < probes_ + lo && Clock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(2));
    const int64_t probes = Counter("tlp_probes") - probes_;
    EXPECT_GE(probes, lo);
    EXPECT_LE(probes, hi);
    EXPECT_EQ(Counter("local_ack_timeout_err"), timeouts_);
  }

  Region l_;
  int64_t probes_ = 0;
  int64_t timeouts_ = 0;
  int64_t retransmits_ = 0;
};

// One SEND, lost: it goes again, asking for an ACK, long before the
// timeout; the answer to the probe completes it.
TEST_F(HostileTlp, ALostSendIsProbedBeforeTheTimeout) {
  ibv_sge sge = l_.sge(0, 64);
  ibv_send_wr wr = SendWr(kWrId, IBV_WR_SEND, &sge, 1);
  ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
  std::vector<Answer> got;
  ASSERT_NO_FATAL_FAILURE(WaitSent(2, &got, milliseconds(1000)));
  EXPECT_EQ(got[1].psn(), got[0].psn()) << AnswerString(got[1]);
  EXPECT_EQ(got[1].opcode(), got[0].opcode()) << AnswerString(got[1]);
  EXPECT_EQ(got[1].payload, got[0].payload);
  EXPECT_TRUE(got[1].headers.bth.ack_req) << AnswerString(got[1]);
  ASSERT_NO_FATAL_FAILURE(Ack(got[1].psn(), 1));
  ASSERT_NO_FATAL_FAILURE(ExpectDone(1));
  ExpectProbedNotTimedOut(1, kProbesMax);
}

// Three messages in flight: the probe is the newest packet alone, not a
// go-back; an ACK of it completes all three.
TEST_F(HostileTlp, TheProbeIsTheNewestPacketOnly) {
  constexpr uint32_t kPosted = 3;
  SendChain c;
  ChainSends(l_, kWrId, kPosted, &c);
  ASSERT_EQ(PostSend(t_.qp.get(), c.wrs.data()), 0);
  std::vector<Answer> got;
  ASSERT_NO_FATAL_FAILURE(WaitSent(kPosted + 1, &got, milliseconds(1000)));
  const uint32_t newest = got[kPosted - 1].psn();
  EXPECT_EQ(got[kPosted].psn(), newest) << AnswerString(got[kPosted]);
  EXPECT_TRUE(got[kPosted].headers.bth.ack_req);
  ASSERT_NO_FATAL_FAILURE(Ack(newest, kPosted));
  ASSERT_NO_FATAL_FAILURE(ExpectDone(kPosted));
  ExpectProbedNotTimedOut(1, kProbesMax);
}

// The last packet of a WRITE of several: the probe is that packet, with
// its data; then three probes at most, and the timer is left to the RTO.
TEST_F(HostileTlp, ProbesStopAtThreeAndTheTimeoutStays) {
  constexpr uint32_t kPackets = 4;
  ibv_sge sge = l_.sge(0, kPackets * mtu_);
  ibv_send_wr wr = RdmaWr(kWrId, IBV_WR_RDMA_WRITE, &sge, 1, 0x10000, 0x1234);
  ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
  std::vector<Answer> got;
  ASSERT_NO_FATAL_FAILURE(
      WaitSent(kPackets + kProbesMax, &got, milliseconds(1000)));
  const Answer& last = got[kPackets - 1];
  ASSERT_EQ(last.opcode(), wire::ToU8(Opcode::kRcRdmaWriteLast));
  for (int i = 0; i < kProbesMax; i++) {
    const Answer& p = got[kPackets + i];
    EXPECT_EQ(p.psn(), last.psn()) << i << ": " << AnswerString(p);
    EXPECT_EQ(p.opcode(), last.opcode()) << i << ": " << AnswerString(p);
    EXPECT_EQ(p.payload, last.payload) << i;
  }
  // No fourth probe; nothing until the RTO (4.3 s).
  EXPECT_TRUE(NoCompletion(t_.SendCq(), milliseconds(500)));
  EXPECT_EQ(Answers().size(), kPackets + kProbesMax)
      << AnswerString(Answers().back());
  ASSERT_NO_FATAL_FAILURE(Ack(last.psn(), 1));
  ASSERT_NO_FATAL_FAILURE(ExpectDone(1));
  ExpectProbedNotTimedOut(kProbesMax, kProbesMax);
}

// A READ alone in flight whose response was lost: the READ is asked for
// again at its PSN, three times; the response completes it.  (Answered
// only after the last probe: a response that arrives while the
// requester is about to ask again is a stale one, as after any go-back,
// and a real responder answers the next request; this peer answers
// once.)
TEST_F(HostileTlp, AReadAloneInFlightIsAskedAgain) {
  ibv_sge sge = l_.sge(0, 64);
  ibv_send_wr wr = RdmaWr(kWrId, IBV_WR_RDMA_READ, &sge, 1, 0x10000, 0x1234);
  ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
  std::vector<Answer> got;
  ASSERT_NO_FATAL_FAILURE(WaitSent(1 + kProbesMax, &got, milliseconds(1000)));
  ASSERT_EQ(got[0].opcode(), wire::ToU8(Opcode::kRcRdmaReadRequest));
  for (int i = 1; i <= kProbesMax; i++) {
    EXPECT_EQ(got[i].opcode(), got[0].opcode()) << AnswerString(got[i]);
    EXPECT_EQ(got[i].psn(), got[0].psn()) << AnswerString(got[i]);
  }

  std::vector<uint8_t> data(64, 0x5a);
  auto h = Request(Opcode::kRcRdmaReadResponseOnly, got[0].psn());
  h.aeth->syndrome = wire::Aeth::MakeSyndrome(wire::AethType::kAck,
                                              wire::Aeth::kInvalidCreditCount);
  h.aeth->msn = 1;
  ASSERT_NO_FATAL_FAILURE(Inject(h, data));
  ASSERT_NO_FATAL_FAILURE(ExpectDone(1));
  EXPECT_TRUE(SameBytes(l_.buf.span().subspan(0, 64), data));
  ExpectProbedNotTimedOut(kProbesMax, kProbesMax);
}

// The retransmission timer of a QP that was idle.  An ACK that empties
// the flight leaves the timer queued for the old deadline; a SEND posted
// later must get a whole timeout of its own, not what is left of its
// predecessor's.  Before the fix it did not: any exchange that began
// less than a timeout after the last one ended could time out at once,
// and on a lossy link between two guests ib_send_lat counted a spurious
// timeout (a go-back and a window cut) nearly every 67 ms.
class HostileRto : public HostileTlp {
 protected:
  static constexpr uint8_t kRtoTimeout = 17;  // 4.096 us << 17: 537 ms
  static constexpr milliseconds kRto{537};
  uint8_t Timeout() const override { return kRtoTimeout; }
};

TEST_F(HostileRto, AnIdleSpellDoesNotShortenTheNextTimeout) {
  ibv_sge sge = l_.sge(0, 64);
  ibv_send_wr wr = SendWr(kWrId, IBV_WR_SEND, &sge, 1);
  ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
  std::vector<Answer> got;
  ASSERT_NO_FATAL_FAILURE(WaitSent(1, &got));
  ASSERT_NO_FATAL_FAILURE(Ack(got[0].psn(), 1));
  ASSERT_NO_FATAL_FAILURE(ExpectDone(1));

  // Idle for most of a timeout, then a second SEND, never answered for
  // a while: its timeout runs from now, not from the first SEND (which
  // would have fired 137 ms after this one at the latest).
  std::this_thread::sleep_for(kRto * 3 / 4);
  const size_t before = Answers().size();
  wr.wr_id = kWrId + 1;
  ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
  ASSERT_NO_FATAL_FAILURE(WaitSent(before + 1, &got));
  const uint32_t psn = got[before].psn();
  std::this_thread::sleep_for(kRto / 2);
  EXPECT_EQ(Counter("local_ack_timeout_err"), timeouts_);
  EXPECT_EQ(Counter("retransmits"), retransmits_);

  ASSERT_NO_FATAL_FAILURE(Ack(psn, 2));
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(t_.SendCq(), 1, &wcs, milliseconds(1000)));
  EXPECT_EQ(wcs[0].wr_id, kWrId + 1) << WcString(wcs[0]);
  EXPECT_EQ(wcs[0].status, IBV_WC_SUCCESS) << WcString(wcs[0]);
}

// A READ whose first response is lost while the rest stream in: each
// response placed early is an answer, and the timeout runs from the
// newest of them (kernel/roce/rc_comp.c, "READ responses that arrive
// early").  Timed from the first missing response alone, the timer went
// back while the answer was still arriving, and asked again into a path
// full of it: under netem's delay the new answer's first packet met the
// old one's tail in a veth peer's full backlog, again and again, until a
// 1 MiB READ ran out of retries (rue_loss, 6.1).  Here the responses
// come a third of a timeout apart, over more than two timeouts; the
// module before counted a timeout and went back before the fourth.
TEST_F(HostileRto, ResponsesPlacedEarlyHoldTheTimeoutOff) {
  constexpr uint32_t kPackets = 8;
  std::vector<uint8_t> msg(kPackets * mtu_);
  FillRandom(msg, 71);
  ibv_sge sge = l_.sge(0, kPackets * mtu_);
  ibv_send_wr wr = RdmaWr(kWrId, IBV_WR_RDMA_READ, &sge, 1, 0x10000, 0x1234);
  ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
  std::vector<Answer> got;
  ASSERT_NO_FATAL_FAILURE(WaitSent(1, &got));
  ASSERT_EQ(got[0].opcode(), wire::ToU8(Opcode::kRcRdmaReadRequest));
  const uint32_t psn = got[0].psn();
  auto respond = [&](uint32_t i) {
    Inject(ReadResponse(psn, i, kPackets, 1),
           std::span<const uint8_t>(msg).subspan(i * mtu_, mtu_));
  };

  for (uint32_t i = 1; i < kPackets; i++) {
    ASSERT_NO_FATAL_FAILURE(respond(i));
    std::this_thread::sleep_for(kRto / 3);
    ASSERT_EQ(Counter("local_ack_timeout_err"), timeouts_)
        << "timed out with " << i << " of " << kPackets - 1
        << " responses placed early";
  }
  ASSERT_NO_FATAL_FAILURE(respond(0));
  ASSERT_NO_FATAL_FAILURE(ExpectDone(1));
  EXPECT_TRUE(SameBytes(l_.buf.span().subspan(0, msg.size()), msg));
  EXPECT_EQ(Counter("local_ack_timeout_err"), timeouts_);
}

}  // namespace
}  // namespace rue::test
