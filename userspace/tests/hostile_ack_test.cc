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

}  // namespace
}  // namespace rue::test
