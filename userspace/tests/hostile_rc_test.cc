// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A remote sender breaks the RC rules of a message in flight
// (kernel/roce/rc_resp.c):
//  - IBTA vol 1 ch. 9 allows only a multi-packet WRITE's MIDDLE and LAST
//    packets until it ends.  A SEND_ONLY in between is an Invalid
//    Request: NAKed, the QP in error, the receive it would have filled
//    flushed, and the rest of the WRITE not placed.
//  - The target deregisters the MR a multi-packet WRITE is placing into.
//    The next packet is a remote access error; no byte of the buffer
//    changes after the deregistration (a reference on the MR keeps its
//    pages pinned, not the right to write them).
// Either way the target's QP reports the affiliated event (IBTA
// 11.6.3.1): Invalid Request, Local Access Violation.
// Each step waits for the target's answer to the last, so the packets
// are handled in the order sent.
#include <cstring>

#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::NakCode;
using wire::Opcode;

constexpr uint32_t P = kPeerPsn;

class HostileRc : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(CreateTarget(QpOptions()));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4 * mtu_, kAllAccess, &w_));
    FillRandom(w_.buf.span(), 41);
  }

  // The first packet of a WRITE of three MTUs into w_, one MTU of 0xa1,
  // acknowledged: placed.
  void WriteFirst() {
    auto first = Request(Opcode::kRcRdmaWriteFirst, P, true);
    first.reth = wire::Reth{w_.addr(), w_.rkey(), 3 * mtu_};
    ASSERT_NO_FATAL_FAILURE(Inject(first, Bytes(mtu_, 0xa1)));
    ASSERT_TRUE(WaitAnswer([](const Answer& a) { return IsAck(a, P); }));
  }

  Region w_;
};

TEST_F(HostileRc, SendInsideWriteIsInvalidRequest) {
  Region r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &r));
  ibv_sge rsge = r.sge(0, 4096);
  ASSERT_EQ(PostRecv(t_.qp.get(), 7, &rsge, 1), 0);
  std::vector<uint8_t> want(w_.data(), w_.data() + w_.size());
  memset(want.data(), 0xa1, mtu_);
  const int64_t naks = Counter("error_nak_sent");
  const int64_t dropped = Counter("rx_drop_qp_state");
  size_t mark = dev_->events->Mark();

  ASSERT_NO_FATAL_FAILURE(WriteFirst());
  ASSERT_NO_FATAL_FAILURE(
      Inject(Request(Opcode::kRcSendOnly, P + 1, true), Bytes(64, 0xb2)));
  EXPECT_TRUE(WaitAnswer([](const Answer& a) {
    return IsNak(a, P + 1, NakCode::kInvalidRequest);
  }));
  EXPECT_TRUE(QpReaches(t_.qp.get(), IBV_QPS_ERR));
  // no receive completed in error: the affiliated event says why
  EXPECT_TRUE(dev_->events->Wait(mark, IBV_EVENT_QP_REQ_ERR, t_.qp.get(),
                                 milliseconds(5000)));
  ASSERT_NO_FATAL_FAILURE(
      Inject(Request(Opcode::kRcRdmaWriteMiddle, P + 2), Bytes(mtu_, 0xc3)));
  ASSERT_NO_FATAL_FAILURE(Inject(Request(Opcode::kRcRdmaWriteLast, P + 3, true),
                                 Bytes(mtu_, 0xd4)));
  // The WRITE's last two packets find the QP in error: dropped, counted.
  EXPECT_TRUE(CounterReaches(*dev_, "rx_drop_qp_state", dropped + 2));
  EXPECT_TRUE(CounterReaches(*dev_, "error_nak_sent", naks + 1));

  ibv_wc wc;
  ASSERT_TRUE(PollOne(t_.RecvCq(), &wc));
  EXPECT_EQ(wc.wr_id, 7u);
  EXPECT_EQ(wc.status, IBV_WC_WR_FLUSH_ERR) << WcString(wc);
  EXPECT_TRUE(SameBytes(w_.buf.span(), want)) << "only the FIRST is placed";
  for (const Answer& a : Answers())
    EXPECT_FALSE(IsAck(a, P + 1) || IsAck(a, P + 3)) << AnswerString(a);
}

TEST_F(HostileRc, WriteIntoDeregisteredMrIsRemoteAccessError) {
  const int64_t naks = Counter("error_nak_sent");
  size_t mark = dev_->events->Mark();
  ASSERT_NO_FATAL_FAILURE(WriteFirst());
  // Taken back mid-message; the buffer stays this process's memory.
  w_.mr.reset();
  std::vector<uint8_t> want(w_.data(), w_.data() + w_.size());

  ASSERT_NO_FATAL_FAILURE(Inject(
      Request(Opcode::kRcRdmaWriteMiddle, P + 1, true), Bytes(mtu_, 0xc3)));
  EXPECT_TRUE(WaitAnswer([](const Answer& a) {
    return IsNak(a, P + 1, NakCode::kRemoteAccessError);
  }));
  EXPECT_TRUE(QpReaches(t_.qp.get(), IBV_QPS_ERR));
  EXPECT_TRUE(dev_->events->Wait(mark, IBV_EVENT_QP_ACCESS_ERR, t_.qp.get(),
                                 milliseconds(5000)));
  EXPECT_TRUE(CounterReaches(*dev_, "error_nak_sent", naks + 1));
  EXPECT_TRUE(SameBytes(w_.buf.span(), want))
      << "written after the MR was deregistered";
  for (const Answer& a : Answers())
    EXPECT_FALSE(IsAck(a, P + 1)) << AnswerString(a);
}

}  // namespace
}  // namespace rue::test
