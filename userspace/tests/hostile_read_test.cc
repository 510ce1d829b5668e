// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A requester placing the responses to its RDMA READ (kernel/roce/
// rc_comp.c), the responder being the forged peer.  A response that comes
// ahead of the next one expected is placed at once (READ responses
// placed early) - if the READ's SGEs name distinct bytes.  When two SGEs
// name the same byte, what that byte holds depends on the order of
// placement, and must be what in-order placement leaves: the later
// SGE's data, as from any responder.  Such a READ takes its responses in
// order and goes back for a gap, as RC does for any implied NAK (IBTA
// 9.7.5.2.3).  rue_loss saw a READ whose first and last SGEs share a byte
// keep the first one's when netem reordered its responses (3 in 300
// runs); here the order is forced: the last response comes first.  The
// target's tail-loss probe (a READ alone in flight is asked again after
// a few ms, hostile_tlp_test.cc) may come anywhere in that schedule under
// a slow guest; the AfterAProbe cases force it before the responses and
// after the early one.  A failing case prints the target's recovery
// counters and every packet it sent.
#include <algorithm>
#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr uint64_t kWrId = 0xead;
constexpr uint32_t kPackets = 3;

class HostileRead : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(CreateTarget(QpOptions()));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 8 * mtu_, kAllAccess, &l_));
    FillRandom(l_.buf.span(), 51);
    msg_.resize(kPackets * mtu_);
    FillRandom(msg_, 52);
    Snap();
  }

  // Posts a READ of kPackets MTUs into @sges and waits for its request;
  // returns the request's PSN in @psn.
  void PostRead(std::vector<ibv_sge> sges, uint32_t* psn) {
    sges_ = std::move(sges);
    ibv_send_wr wr = RdmaWr(kWrId, IBV_WR_RDMA_READ, sges_.data(),
                            static_cast<int>(sges_.size()), 0x10000, 0x1234);
    ASSERT_EQ(PostSend(t_.qp.get(), &wr), 0);
    ASSERT_TRUE(WaitAnswer([](const Answer& a) {
      return a.opcode() == wire::ToU8(Opcode::kRcRdmaReadRequest);
    }));
    *psn = Answers().front().psn();
  }

  // The peer sends response @i (0 first, kPackets - 1 last) to the READ
  // whose request carried @psn.
  void Respond(uint32_t psn, uint32_t i) {
    ASSERT_NO_FATAL_FAILURE(
        Inject(ReadResponse(psn, i, kPackets, 1),
               std::span<const uint8_t>(msg_).subspan(i * mtu_, mtu_)));
  }

  // The READ completed, and l_ holds what placing the message into the
  // SGEs in order leaves there.
  void ExpectPlacedInOrder(const std::vector<uint8_t>& before) {
    ibv_wc wc;
    ASSERT_TRUE(PollOne(t_.SendCq(), &wc));
    EXPECT_EQ(wc.wr_id, kWrId);
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    std::vector<uint8_t> want = before;
    size_t at = 0;
    for (const ibv_sge& s : sges_) {
      std::copy_n(msg_.begin() + at, s.length,
                  want.begin() + (s.addr - l_.addr()));
      at += s.length;
    }
    EXPECT_TRUE(SameBytes(l_.buf.span(), want));
  }

  // The READ's SGEs: the first and last the same byte, or all distinct.
  std::vector<ibv_sge> OverlappingSges() {
    return {l_.sge(0, 1), l_.sge(mtu_, kPackets * mtu_ - 2), l_.sge(0, 1)};
  }
  std::vector<ibv_sge> DistinctSges() {
    return {l_.sge(0, mtu_ + 7), l_.sge(4 * mtu_, (kPackets - 1) * mtu_ - 7)};
  }

  // Waits until the target sends another packet (the READ asked again).
  void WaitAskedAgain() {
    const size_t asked = Answers().size();
    ASSERT_TRUE(WaitFor([asked](const std::vector<Answer>& got) {
      return got.size() > asked;
    }));
  }

  // The peer sends responses 0 to @n - 1, in order.
  void RespondInOrder(uint32_t psn, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) ASSERT_NO_FATAL_FAILURE(Respond(psn, i));
  }

  // On a failure, what the target's requester went through: for a
  // schedule no test forced (a probe or a timeout between the answers).
  void TearDown() override {
    if (HasFailure() && dev_) {
      std::cout << "# counters:";
      for (const char* c : kCounters)
        std::cout << " " << c << " +" << Counter(c) - at_start_[c];
      std::cout << "; the target sent:";
      for (const Answer& a : Answers())
        std::cout << "\n#   " << AnswerString(a);
      std::cout << "\n";
    }
    HostileTest::TearDown();
  }

  void Snap() {
    for (const char* c : kCounters) at_start_[c] = Counter(c);
  }

  static constexpr const char* kCounters[] = {
      "tlp_probes",      "local_ack_timeout_err", "implied_nak_seq_err",
      "stale_responses", "rx_read_early",         "rx_drop_bad_header",
      "retransmits"};
  std::map<std::string, int64_t> at_start_;
  Region l_;
  std::vector<uint8_t> msg_;
  std::vector<ibv_sge> sges_;
};

// The same READ, its request probed (asked again: a tail-loss probe,
// hostile_tlp_test.cc) before any response comes; then the last response
// first, and all three in order.
TEST_F(HostileRead, SgesNamingOneByteTwiceAfterAProbe) {
  const std::vector<uint8_t> before(l_.data(), l_.data() + l_.size());
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(PostRead(OverlappingSges(), &psn));
  ASSERT_NO_FATAL_FAILURE(WaitAskedAgain());
  ASSERT_NO_FATAL_FAILURE(Respond(psn, kPackets - 1));
  ASSERT_NO_FATAL_FAILURE(RespondInOrder(psn, kPackets));
  ASSERT_NO_FATAL_FAILURE(ExpectPlacedInOrder(before));
  EXPECT_EQ(l_.data()[0], msg_.back());
}

// Distinct SGEs, the request probed before any response; the last
// response placed early, then the first two.
TEST_F(HostileRead, DistinctSgesAfterAProbe) {
  const std::vector<uint8_t> before(l_.data(), l_.data() + l_.size());
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(PostRead(DistinctSges(), &psn));
  ASSERT_NO_FATAL_FAILURE(WaitAskedAgain());
  ASSERT_NO_FATAL_FAILURE(Respond(psn, kPackets - 1));
  ASSERT_NO_FATAL_FAILURE(RespondInOrder(psn, kPackets - 1));
  ASSERT_NO_FATAL_FAILURE(ExpectPlacedInOrder(before));
}

// Distinct SGEs: the last response placed early, then the request
// probed (asked again), then the first two responses.
TEST_F(HostileRead, DistinctSgesProbedAfterAnEarlyResponse) {
  const std::vector<uint8_t> before(l_.data(), l_.data() + l_.size());
  const int64_t early = Counter("rx_read_early");
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(PostRead(DistinctSges(), &psn));
  ASSERT_NO_FATAL_FAILURE(Respond(psn, kPackets - 1));
  ASSERT_TRUE(CounterReaches(*dev_, "rx_read_early", early + 1));
  ASSERT_NO_FATAL_FAILURE(WaitAskedAgain());
  ASSERT_NO_FATAL_FAILURE(RespondInOrder(psn, kPackets - 1));
  ASSERT_NO_FATAL_FAILURE(ExpectPlacedInOrder(before));
}

// The first and last SGEs are the same byte: it ends up holding the
// message's last byte, and nothing is placed early.
TEST_F(HostileRead, SgesNamingOneByteTwiceTakeResponsesInOrder) {
  const std::vector<uint8_t> before(l_.data(), l_.data() + l_.size());
  const int64_t early = Counter("rx_read_early");
  const int64_t implied = Counter("implied_nak_seq_err");
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(PostRead(OverlappingSges(), &psn));

  ASSERT_NO_FATAL_FAILURE(Respond(psn, kPackets - 1));
  // Not placed: the requester goes back for the gap.
  EXPECT_TRUE(CounterReaches(*dev_, "implied_nak_seq_err", implied + 1));
  ASSERT_NO_FATAL_FAILURE(RespondInOrder(psn, kPackets));
  ASSERT_NO_FATAL_FAILURE(ExpectPlacedInOrder(before));
  EXPECT_EQ(l_.data()[0], msg_.back());
  EXPECT_EQ(Counter("rx_read_early"), early);
}

// Distinct SGEs: the last response is placed early and not asked for
// again.
TEST_F(HostileRead, DistinctSgesPlaceResponsesEarly) {
  const std::vector<uint8_t> before(l_.data(), l_.data() + l_.size());
  const int64_t early = Counter("rx_read_early");
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(PostRead(DistinctSges(), &psn));

  ASSERT_NO_FATAL_FAILURE(Respond(psn, kPackets - 1));
  ASSERT_TRUE(CounterReaches(*dev_, "rx_read_early", early + 1));
  ASSERT_NO_FATAL_FAILURE(RespondInOrder(psn, kPackets - 1));
  ASSERT_NO_FATAL_FAILURE(ExpectPlacedInOrder(before));
}

// Answers to requests the target sent before it went back (a timeout),
// arriving before it asks again (kernel/roce/rc_comp.c,
// rue_req_answers_sent()).  A WRITE of kWritePackets goes ahead of the
// READ or atomic, and the peer answers nothing until the target's
// timeout sends the WRITE's first packet again.  The target's window then
// holds 4 packets (RUE_CWND_MIN, kernel/cc/window.c): it stays in the
// WRITE and does not ask again for what follows, so the answers meet a
// requester that has not sent their requests again - as they may after
// any probe or timeout, until its engine runs.  Taken, each answers the
// request that went out.  Dropped as stale, as before, they left the
// target asking a peer that answers once until its retries ran out.
class HostileGoBack : public HostileRead {
 protected:
  static constexpr uint32_t kWritePackets = 8;
  static constexpr uint64_t kWriteId = 0x3717e;
  // what the target sends again at the timeout: the WRITE's first packets,
  // as many as its window then holds (RUE_CWND_MIN, kernel/cc/window.c)
  static constexpr uint32_t kResent = 4;

  void SetUp() override {
    HostileRead::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(t_.pd.get(), kWritePackets * mtu_, kAllAccess, &src_));
  }

  // Posts the WRITE and @wr behind it, waits for @wr's request (opcode
  // @op) and then for the timeout's WRITE; @wr's PSN in @psn.
  void TimeOutBehindAWrite(ibv_send_wr* wr, Opcode op, uint32_t* psn) {
    write_sge_ = src_.sge(0, kWritePackets * mtu_);
    ibv_send_wr write =
        RdmaWr(kWriteId, IBV_WR_RDMA_WRITE, &write_sge_, 1, 0x20000, 0x1234);
    write.next = wr;
    ASSERT_EQ(PostSend(t_.qp.get(), &write), 0);
    ASSERT_TRUE(WaitAnswer(
        [op](const Answer& a) { return a.opcode() == wire::ToU8(op); }));
    const std::vector<Answer> sent = Answers();
    const uint32_t first = sent.front().psn();
    *psn = sent.back().psn();
    ASSERT_EQ(*psn, first + kWritePackets);
    // the whole window the timeout sends, not only its first packet: a
    // packet of it captured after the answers below would be taken for
    // something sent after them (the test failed so once, in a guest
    // sharing its CPUs with another)
    ASSERT_TRUE(WaitFor([first](const std::vector<Answer>& got) {
      for (uint32_t p = first; p < first + kResent; p++)
        if (std::count_if(got.begin(), got.end(),
                          [p](const Answer& a) { return a.psn() == p; }) < 2)
          return false;
      return true;
    })) << "no timeout, or it did not send the window again";
  }

  void ExpectWriteDone() {
    ibv_wc wc;
    ASSERT_TRUE(PollOne(t_.SendCq(), &wc));
    EXPECT_EQ(wc.wr_id, kWriteId);
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }

  // A READ posted now is asked for at @psn, and nothing else goes out:
  // the target moved past what the answers completed, under the PSNs it
  // had used (IBTA 9.7.5.2), and still has room for a READ in flight.
  void ExpectNextAskedAt(uint32_t psn) {
    ibv_sge sge = l_.sge(7 * mtu_, 8);
    ibv_send_wr next =
        RdmaWr(kWrId + 1, IBV_WR_RDMA_READ, &sge, 1, 0x30000, 0x1234);
    const size_t before = Answers().size();
    ASSERT_EQ(PostSend(t_.qp.get(), &next), 0);
    ASSERT_TRUE(WaitFor([before](const std::vector<Answer>& got) {
      return got.size() > before;
    })) << "the READ posted next is not asked for";
    const Answer a = Answers()[before];
    EXPECT_EQ(a.opcode(), wire::ToU8(Opcode::kRcRdmaReadRequest))
        << AnswerString(a);
    EXPECT_EQ(a.psn(), psn) << AnswerString(a);
  }

  Region src_;
  ibv_sge write_sge_{};
};

// The READ's middle response first - no AETH, nothing an ACK could move
// the transmitter with - then the first and the last.
TEST_F(HostileGoBack, ReadResponsesToTheRequestSentBeforeATimeout) {
  const std::vector<uint8_t> before(l_.data(), l_.data() + l_.size());
  sges_ = DistinctSges();
  ibv_send_wr read = RdmaWr(kWrId, IBV_WR_RDMA_READ, sges_.data(),
                            static_cast<int>(sges_.size()), 0x10000, 0x1234);
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(
      TimeOutBehindAWrite(&read, Opcode::kRcRdmaReadRequest, &psn));
  ASSERT_NO_FATAL_FAILURE(Respond(psn, 1));
  ASSERT_NO_FATAL_FAILURE(Respond(psn, 0));
  ASSERT_NO_FATAL_FAILURE(Respond(psn, 2));
  ASSERT_NO_FATAL_FAILURE(ExpectWriteDone());
  ASSERT_NO_FATAL_FAILURE(ExpectPlacedInOrder(before));
  ASSERT_NO_FATAL_FAILURE(ExpectNextAskedAt(psn + kPackets));
}

// A FETCH_ADD's ACK: the original value lands, and a READ still goes out.
TEST_F(HostileGoBack, AnAtomicAckToTheRequestSentBeforeATimeout) {
  constexpr uint64_t kOrig = 0x0123456789abcdefULL;
  ibv_sge sge = l_.sge(0, sizeof(kOrig));
  ibv_send_wr fadd = SendWr(kWrId, IBV_WR_ATOMIC_FETCH_AND_ADD, &sge, 1);
  fadd.wr.atomic.remote_addr = 0x10000;
  fadd.wr.atomic.rkey = 0x1234;
  fadd.wr.atomic.compare_add = 1;
  uint32_t psn;
  ASSERT_NO_FATAL_FAILURE(
      TimeOutBehindAWrite(&fadd, Opcode::kRcFetchAdd, &psn));
  auto h = Request(Opcode::kRcAtomicAcknowledge, psn);
  h.aeth->syndrome = wire::Aeth::MakeSyndrome(wire::AethType::kAck,
                                              wire::Aeth::kInvalidCreditCount);
  h.aeth->msn = 2;
  h.atomic_ack_eth->original_data = kOrig;
  ASSERT_NO_FATAL_FAILURE(Inject(h));
  ASSERT_NO_FATAL_FAILURE(ExpectWriteDone());
  ibv_wc wc;
  ASSERT_TRUE(PollOne(t_.SendCq(), &wc));
  EXPECT_EQ(wc.wr_id, kWrId);
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  uint64_t got;
  std::memcpy(&got, l_.data(), sizeof(got));
  EXPECT_EQ(got, kOrig);
  ASSERT_NO_FATAL_FAILURE(ExpectNextAskedAt(psn + 1));
}

}  // namespace
}  // namespace rue::test
