// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A remote sender breaks the UC rules (kernel/roce/uc.c).  UC answers
// nothing, so the target's counters, completions and memory are all
// there is to see; each step waits until the target has taken the packet
// (rx_packets) before the next is sent.
//  - A WRITE whose MR is deregistered mid-message: nothing is placed
//    after the deregistration, the QP stays in RTS.
//  - MIDDLE and LAST packets with no FIRST, a PSN gap inside a SEND, a
//    WRITE longer than its RETH said: dropped and counted; the receive
//    WQE of the abandoned SEND takes the next SEND whole.
#include <cstring>

#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr uint32_t P = kPeerPsn;

class HostileUc : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.type = IBV_QPT_UC;
    o.access = IBV_ACCESS_REMOTE_WRITE;
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4 * mtu_, kAllAccess, &w_));
    FillRandom(w_.buf.span(), 43);
  }

  // Sends a packet and waits until the target has received it.
  void Send(const wire::RoceHeaders& h, std::span<const uint8_t> payload) {
    const int64_t rx = Counter("rx_packets");
    ASSERT_NO_FATAL_FAILURE(Inject(h, payload));
    ASSERT_TRUE(CounterReaches(*dev_, "rx_packets", rx + 1));
  }

  wire::RoceHeaders WriteFirst(uint32_t psn, uint32_t len) const {
    auto h = Request(Opcode::kUcRdmaWriteFirst, psn);
    h.reth = wire::Reth{w_.addr(), w_.rkey(), len};
    return h;
  }

  Region w_;
};

TEST_F(HostileUc, WriteIntoDeregisteredMrIsDropped) {
  const int64_t refused = Counter("rx_drop_qp_state");
  const int64_t seq = Counter("rx_drop_out_of_sequence");
  ASSERT_NO_FATAL_FAILURE(Send(WriteFirst(P, 3 * mtu_), Bytes(mtu_, 0xa1)));
  w_.mr.reset();  // taken back mid-message
  std::vector<uint8_t> want(w_.data(), w_.data() + w_.size());
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcRdmaWriteMiddle, P + 1), Bytes(mtu_, 0xc3)));
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcRdmaWriteLast, P + 2), Bytes(mtu_, 0xd4)));
  EXPECT_TRUE(SameBytes(w_.buf.span(), want))
      << "written after the MR was deregistered";
  // the MIDDLE is refused, the LAST then belongs to no message
  EXPECT_EQ(Counter("rx_drop_qp_state"), refused + 1);
  EXPECT_EQ(Counter("rx_drop_out_of_sequence"), seq + 1);
  EXPECT_EQ(QpState(t_.qp.get()), IBV_QPS_RTS);
  EXPECT_TRUE(Answers().empty()) << "UC answered";
}

TEST_F(HostileUc, BrokenSequencesAreDroppedAndCounted) {
  Region r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4 * mtu_, kAllAccess, &r));
  memset(r.data(), 0, r.size());
  ibv_sge rsge = r.sge(0, 4 * mtu_);
  ASSERT_EQ(PostRecv(t_.qp.get(), 9, &rsge, 1), 0);
  std::vector<uint8_t> w_before(w_.data(), w_.data() + w_.size());
  const int64_t seq = Counter("rx_drop_out_of_sequence");

  // no FIRST: a MIDDLE and a LAST of a SEND, a LAST of a WRITE
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcSendMiddle, P), Bytes(mtu_, 0x11)));
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcSendLast, P + 1), Bytes(10, 0x12)));
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcRdmaWriteLast, P + 2), Bytes(10, 0x13)));
  // a SEND whose second packet is lost: its LAST is out of sequence
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcSendFirst, P + 3), Bytes(mtu_, 0x21)));
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcSendLast, P + 5), Bytes(7, 0x22)));
  // a WRITE longer than its RETH said: its LAST is refused
  ASSERT_NO_FATAL_FAILURE(Send(WriteFirst(P + 6, mtu_ + 4), Bytes(mtu_, 0x31)));
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcRdmaWriteLast, P + 7), Bytes(8, 0x32)));
  EXPECT_TRUE(NoCompletion(t_.RecvCq(), milliseconds(50)));

  // a whole SEND at any PSN starts afresh and takes the kept receive WQE
  ASSERT_NO_FATAL_FAILURE(
      Send(Request(Opcode::kUcSendOnly, P + 100), Bytes(100, 0x41)));
  ibv_wc wc;
  ASSERT_TRUE(PollOne(t_.RecvCq(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.wr_id, 9u);
  EXPECT_EQ(wc.byte_len, 100u);
  EXPECT_TRUE(SameBytes(r.buf.span(0, 100), Bytes(100, 0x41)));
  // the first MTU of the WRITE is placed; nothing past its RETH length
  std::vector<uint8_t> w_want = w_before;
  memset(w_want.data(), 0x31, mtu_);
  EXPECT_TRUE(SameBytes(w_.buf.span(), w_want));
  EXPECT_EQ(Counter("rx_drop_out_of_sequence"), seq + 4);
  EXPECT_EQ(QpState(t_.qp.get()), IBV_QPS_RTS);
  EXPECT_TRUE(Answers().empty()) << "UC answered";
}

}  // namespace
}  // namespace rue::test
