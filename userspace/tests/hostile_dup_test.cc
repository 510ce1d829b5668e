// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Duplicate requests from a remote sender (kernel/roce/rc_resp.c, IBTA
// vol 1 9.9.2.2).  A duplicate is answered from what the responder kept
// of the original, never as a new request:
//  - A duplicate RDMA READ repeats a READ that was executed: one naming
//    another MR, or a key and range of its own, is dropped (counted in
//    duplicate_requests) - it would read memory the peer was never
//    answered from - and the QP stays usable.  A true duplicate is
//    answered again, with the same bytes.
//  - A duplicate atomic is answered with the value the original found,
//    even when the responder's kept answers have wrapped and the
//    duplicate's own answer takes the slot of the one it repeats; it is
//    never applied twice.
//  - A duplicate ATOMIC WRITE is answered again (a zero-length READ
//    Response Only, IBTA annex A19.4.2) and never stored again, though a
//    WRITE changed the bytes in between; a malformed one (not 8 bytes,
//    misaligned) is an invalid request.
#include <algorithm>

#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr uint32_t P = kPeerPsn;

bool IsReadResponse(const Answer& a, uint32_t psn) {
  return a.opcode() == wire::ToU8(Opcode::kRcRdmaReadResponseOnly) &&
         a.psn() == psn;
}

bool IsAtomicAck(const Answer& a, uint32_t psn) {
  return a.opcode() == wire::ToU8(Opcode::kRcAtomicAcknowledge) &&
         a.psn() == psn;
}

class HostileDup : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.max_dest_rd_atomic = 255;  // the device's limit (CreateSide)
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
  }

  wire::RoceHeaders Read(uint32_t psn, const Region& r, uint64_t off,
                         uint32_t len) const {
    auto h = Request(Opcode::kRcRdmaReadRequest, psn);
    h.reth = wire::Reth{r.addr(off), r.rkey(), len};
    return h;
  }

  wire::RoceHeaders AtomicWrite(uint32_t psn, const Region& r, uint64_t off,
                                uint32_t len = 8) const {
    auto h = Request(Opcode::kRcAtomicWrite, psn);
    h.reth = wire::Reth{r.addr(off), r.rkey(), len};
    return h;
  }

  void ExpectAtomicWriteRefused(uint64_t off, uint32_t len) {
    Region r;
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &r));
    std::fill(r.buf.span().begin(), r.buf.span().end(), 0);
    ASSERT_NO_FATAL_FAILURE(
        Inject(AtomicWrite(P, r, off, len), Bytes(len, 0x77)));
    EXPECT_TRUE(WaitAnswer([](const Answer& a) {
      return IsNak(a, P, wire::NakCode::kInvalidRequest);
    }));
    EXPECT_TRUE(SameBytes(r.buf.span(), std::vector<uint8_t>(4096, 0)));
    EXPECT_TRUE(QpReaches(t_.qp.get(), IBV_QPS_ERR));
  }

  wire::RoceHeaders FetchAdd(uint32_t psn, const Region& r) const {
    auto h = Request(Opcode::kRcFetchAdd, psn);
    h.atomic_eth = wire::AtomicEth{r.addr(), r.rkey(), 1, 0};
    return h;
  }
};

TEST_F(HostileDup, DuplicateReadNamesOnlyTheKeptRead) {
  constexpr uint32_t kLen = 256;  // one packet
  Region x, y;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &x));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &y));
  FillRandom(x.buf.span(), 51);
  FillRandom(y.buf.span(), 52);  // the secret: never read legitimately
  const std::span<const uint8_t> x0 = x.buf.span(0, kLen);

  const auto read = Read(P, x, 0, kLen);
  ASSERT_NO_FATAL_FAILURE(Inject(read));
  ASSERT_TRUE(WaitAnswer([](const Answer& a) { return IsReadResponse(a, P); }));
  const int64_t dups = Counter("duplicate_requests");

  // Duplicates of P naming Y, and a key and range of their own: dropped.
  ASSERT_NO_FATAL_FAILURE(Inject(Read(P, y, 0, kLen)));
  EXPECT_TRUE(CounterReaches(*dev_, "duplicate_requests", dups + 1));
  auto bogus = read;
  bogus.reth = wire::Reth{0x1000, 0xdeadbe00, 65536};
  ASSERT_NO_FATAL_FAILURE(Inject(bogus));
  EXPECT_TRUE(CounterReaches(*dev_, "duplicate_requests", dups + 2));
  // A true duplicate is answered again, from X.
  ASSERT_NO_FATAL_FAILURE(Inject(read));
  EXPECT_TRUE(CounterReaches(*dev_, "duplicate_requests", dups + 3));
  EXPECT_TRUE(WaitFor([](const std::vector<Answer>& got) {
    return std::count_if(got.begin(), got.end(), [](const Answer& a) {
             return IsReadResponse(a, P);
           }) >= 2;
  }));
  // The QP goes on: a new READ at the next PSN.
  ASSERT_NO_FATAL_FAILURE(Inject(Read(P + 1, x, kLen, kLen)));
  EXPECT_TRUE(
      WaitAnswer([](const Answer& a) { return IsReadResponse(a, P + 1); }));
  EXPECT_EQ(QpState(t_.qp.get()), IBV_QPS_RTS);

  int responses = 0;
  for (const Answer& a : Answers()) {
    EXPECT_FALSE(a.headers.aeth &&
                 a.headers.aeth->type() != wire::AethType::kAck)
        << AnswerString(a);
    if (!IsReadResponse(a, P)) continue;
    responses++;
    EXPECT_FALSE(SameBytes(a.payload, y.buf.span(0, kLen)))
        << "a duplicate READ was answered with Y's bytes";
    EXPECT_TRUE(SameBytes(a.payload, x0)) << AnswerString(a);
  }
  EXPECT_EQ(responses, 2) << "the original and the true duplicate";
}

TEST_F(HostileDup, DuplicateAtomicAfterKeptAnswersWrapped) {
  constexpr uint64_t kStart = 1000;
  constexpr uint32_t kBatch = 32;
  constexpr uint32_t kDups = 3;
  // The responder keeps twice max_qp_rd_atom answers (kernel/core/caps.h).
  const uint32_t n = 2 * dev_->attr.max_qp_rd_atom;
  Region a;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &a));
  auto* word = reinterpret_cast<volatile uint64_t*>(a.data());
  *word = kStart;

  for (uint32_t i = 0; i < n; i += kBatch) {
    for (uint32_t j = i; j < i + kBatch && j < n; j++)
      ASSERT_NO_FATAL_FAILURE(Inject(FetchAdd(P + j, a)));
    ASSERT_TRUE(peer_->WaitCount(peer_qpn_, std::min(n, i + kBatch),
                                 milliseconds(5000)));
  }
  ASSERT_EQ(*word, kStart + n);
  const int64_t dups = Counter("duplicate_requests");

  // The requester goes back to the oldest: each duplicate is then the
  // oldest kept answer, and its answer takes that answer's slot.
  for (uint32_t i = 0; i < kDups; i++)
    ASSERT_NO_FATAL_FAILURE(Inject(FetchAdd(P + i, a)));
  EXPECT_TRUE(CounterReaches(*dev_, "duplicate_requests", dups + kDups));
  EXPECT_TRUE(peer_->WaitCount(peer_qpn_, n + kDups, milliseconds(5000)));
  EXPECT_EQ(*word, kStart + n) << "a duplicate was applied again";

  std::vector<Answer> got = Answers();
  ASSERT_GE(got.size(), n);
  for (uint32_t i = 0; i < got.size(); i++) {
    const Answer& ans = got[i];
    uint32_t k = i < n ? i : i - n;  // the original answered
    ASSERT_TRUE(IsAtomicAck(ans, P + k))
        << "answer " << i << ": " << AnswerString(ans);
    EXPECT_EQ(ans.headers.atomic_ack_eth->original_data, kStart + k)
        << "answer " << i << ": " << AnswerString(ans);
  }
  EXPECT_EQ(got.size(), n + kDups);
  EXPECT_EQ(QpState(t_.qp.get()), IBV_QPS_RTS);
}

bool IsEmptyReadResponse(const Answer& a, uint32_t psn) {
  return IsReadResponse(a, psn) && a.payload.empty();
}

TEST_F(HostileDup, DuplicateAtomicWriteIsNotStoredAgain) {
  Region r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, &r));
  const std::vector<uint8_t> x = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<uint8_t> y = Bytes(8, 0xa5);
  const auto aw = AtomicWrite(P, r, 64);

  ASSERT_NO_FATAL_FAILURE(Inject(aw, x));
  ASSERT_TRUE(
      WaitAnswer([](const Answer& a) { return IsEmptyReadResponse(a, P); }));
  EXPECT_TRUE(SameBytes(r.buf.span(64, 8), x));
  // A WRITE of other bytes over them, then the ATOMIC WRITE again.
  auto w = Request(Opcode::kRcRdmaWriteOnly, P + 1);
  w.reth = wire::Reth{r.addr(64), r.rkey(), 8};
  ASSERT_NO_FATAL_FAILURE(Inject(w, y));
  const int64_t dups = Counter("duplicate_requests");
  ASSERT_NO_FATAL_FAILURE(Inject(aw, x));
  EXPECT_TRUE(CounterReaches(*dev_, "duplicate_requests", dups + 1));
  EXPECT_TRUE(WaitFor([](const std::vector<Answer>& got) {
    return std::count_if(got.begin(), got.end(), [](const Answer& a) {
             return IsEmptyReadResponse(a, P);
           }) >= 2;
  }));
  EXPECT_TRUE(SameBytes(r.buf.span(64, 8), y))
      << "a duplicate ATOMIC WRITE was stored again";
  // The QP goes on.
  ASSERT_NO_FATAL_FAILURE(Inject(AtomicWrite(P + 2, r, 128), x));
  EXPECT_TRUE(WaitAnswer(
      [](const Answer& a) { return IsEmptyReadResponse(a, P + 2); }));
  EXPECT_TRUE(SameBytes(r.buf.span(128, 8), x));
  EXPECT_EQ(QpState(t_.qp.get()), IBV_QPS_RTS);
}

// 16 bytes, or 8 at an address that is not 8-byte aligned: an invalid
// request (NAK), nothing stored, and the target QP in the error state.
TEST_F(HostileDup, AtomicWriteOfSixteenBytesRefused) {
  ExpectAtomicWriteRefused(64, 16);
}

TEST_F(HostileDup, MisalignedAtomicWriteRefused) {
  ExpectAtomicWriteRefused(68, 8);
}

}  // namespace
}  // namespace rue::test
