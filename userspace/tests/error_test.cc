// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RC error paths as IBTA specifies them: remote access errors, flushes,
// transport and RNR retries exhausted, receive buffers too small, local
// protection errors.  A WQE that fails completes with its error, the QP
// moves to the error state, and every later WQE completes with
// IBV_WC_WR_FLUSH_ERR; memory the failed operations named is untouched.
#include <cstring>
#include <utility>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using Want = std::vector<std::pair<uint64_t, ibv_wc_status>>;

// Completions on @cq, in order, with these ids and statuses.
void ExpectCompletions(ibv_cq* cq, const Want& want, uint32_t qpn,
                       milliseconds timeout = milliseconds(5000)) {
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(cq, want.size(), &wcs, timeout));
  for (size_t i = 0; i < want.size(); i++) {
    EXPECT_EQ(wcs[i].wr_id, want[i].first) << "completion " << i;
    EXPECT_EQ(wcs[i].status, want[i].second)
        << "completion " << i << ": " << WcString(wcs[i]) << ", want "
        << ibv_wc_status_str(want[i].second);
    EXPECT_EQ(wcs[i].qp_num, qpn) << WcString(wcs[i]);
  }
  EXPECT_TRUE(NoCompletion(cq, milliseconds(5)));
}

class RcError : public TopologyTest {
 protected:
  enum class Key { kGood, kBadTag, kBadIndex, kOtherPd };

  // A request that must fail at the responder with a remote access
  // error: @op on @len bytes at @offset (from the start of an 8 KiB MR
  // registered with @access), with the key @key.  The WRs behind it are
  // flushed and nothing in the responder's memory changes.
  void RemoteAccessError(ibv_wr_opcode op, int access, Key key, int64_t offset,
                         uint32_t len, unsigned flags = IBV_SEND_SIGNALED);

  RcPair p_;
};

void RcError::RemoteAccessError(ibv_wr_opcode op, int access, Key key,
                                int64_t offset, uint32_t len, unsigned flags) {
  QpOptions o;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p_));
  Pd other(ibv_alloc_pd(b_.ctx()));
  ASSERT_TRUE(other);
  Region l, target, good;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 8192, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(key == Key::kOtherPd ? other.get() : p_.b.pd.get(), 8192,
                 access, &target));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 8192, kAllAccess, &good));
  FillRandom(l.buf.span(), 71);
  FillRandom(target.buf.span(), 72);
  FillRandom(good.buf.span(), 73);
  std::vector<uint8_t> target_before(target.data(), target.data() + 8192);
  std::vector<uint8_t> good_before(good.data(), good.data() + 8192);

  uint32_t rkey = target.rkey();
  if (key == Key::kBadTag) rkey ^= 0x5a;
  if (key == Key::kBadIndex) rkey = 0xfffff000u | (rkey & 0xff);
  uint64_t raddr = target.addr() + static_cast<uint64_t>(offset);

  ibv_sge s1 = l.sge(0, len);
  ibv_send_wr bad = RdmaWr(1, op, &s1, 1, raddr, rkey, flags);
  if (op == IBV_WR_ATOMIC_FETCH_AND_ADD || op == IBV_WR_ATOMIC_CMP_AND_SWP) {
    bad.wr.atomic.remote_addr = raddr;
    bad.wr.atomic.rkey = rkey;
    bad.wr.atomic.compare_add = 1;
  }
  // Behind it: a good WRITE, and a READ.
  ibv_sge s2 = l.sge(4096, 100), s3 = l.sge(5000, 100);
  ibv_send_wr w2 =
      RdmaWr(2, IBV_WR_RDMA_WRITE, &s2, 1, good.addr(0), good.rkey());
  ibv_send_wr w3 =
      RdmaWr(3, IBV_WR_RDMA_READ, &s3, 1, good.addr(100), good.rkey());
  bad.next = &w2;
  w2.next = &w3;
  AsyncEvents& events = *b_.dev->events;
  size_t mark = events.Mark();
  ASSERT_EQ(PostSend(p_.a.qp.get(), &bad), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(p_.a.scq.get(),
                                            {{1, IBV_WC_REM_ACCESS_ERR},
                                             {2, IBV_WC_WR_FLUSH_ERR},
                                             {3, IBV_WC_WR_FLUSH_ERR}},
                                            p_.a.qpn()));
  EXPECT_TRUE(QpReaches(p_.a.qp.get(), IBV_QPS_ERR));
  // The responder's QP went to error too, and no completion says why:
  // its affiliated event does (IBTA 11.6.3.1).
  EXPECT_TRUE(QpReaches(p_.b.qp.get(), IBV_QPS_ERR));
  EXPECT_TRUE(events.Wait(mark, IBV_EVENT_QP_ACCESS_ERR, p_.b.qp.get(),
                          milliseconds(5000)))
      << "no IBV_EVENT_QP_ACCESS_ERR on the responder";
  // Posted to a QP in error: flushed too.
  ibv_sge s4 = l.sge(6000, 8);
  ibv_send_wr w4 =
      RdmaWr(4, IBV_WR_RDMA_WRITE, &s4, 1, good.addr(0), good.rkey());
  ASSERT_EQ(PostSend(p_.a.qp.get(), &w4), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.scq.get(), {{4, IBV_WC_WR_FLUSH_ERR}}, p_.a.qpn()));
  EXPECT_TRUE(SameBytes(target.buf.span(), target_before)) << "target MR";
  EXPECT_TRUE(SameBytes(good.buf.span(), good_before))
      << "WRs after the error ran";
}

TEST_P(RcError, WriteBadRkey) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kBadTag, 0, 64);
}
TEST_P(RcError, WriteUnknownRkey) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kBadIndex, 0, 64);
}
TEST_P(RcError, WriteRkeyOfOtherPd) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kOtherPd, 0, 64);
}
TEST_P(RcError, ReadBadRkey) {
  RemoteAccessError(IBV_WR_RDMA_READ, kAllAccess, Key::kBadTag, 0, 64);
}
TEST_P(RcError, WriteWithoutRemoteWriteAccess) {
  RemoteAccessError(IBV_WR_RDMA_WRITE,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ, Key::kGood,
                    0, 64);
}
TEST_P(RcError, WriteWithImmWithoutRemoteWriteAccess) {
  RemoteAccessError(IBV_WR_RDMA_WRITE_WITH_IMM,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ, Key::kGood,
                    0, 64);
}
TEST_P(RcError, ReadWithoutRemoteReadAccess) {
  RemoteAccessError(IBV_WR_RDMA_READ,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE,
                    Key::kGood, 0, 64);
}
TEST_P(RcError, AtomicWithoutRemoteAtomicAccess) {
  RemoteAccessError(
      IBV_WR_ATOMIC_FETCH_AND_ADD,
      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
      Key::kGood, 0, 8);
}
TEST_P(RcError, AtomicBadRkey) {
  RemoteAccessError(IBV_WR_ATOMIC_CMP_AND_SWP, kAllAccess, Key::kBadTag, 0, 8);
}
TEST_P(RcError, WriteCrossingMrEnd) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kGood, 8192 - 10, 100);
}
TEST_P(RcError, WritePastMrEnd) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kGood, 8192, 1);
}
TEST_P(RcError, MultiPacketWriteCrossingMrEnd) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kGood, 4096, 4097);
}
TEST_P(RcError, ReadBeforeMrStart) {
  RemoteAccessError(IBV_WR_RDMA_READ, kAllAccess, Key::kGood, -8, 64);
}
TEST_P(RcError, ReadCrossingMrEnd) {
  RemoteAccessError(IBV_WR_RDMA_READ, kAllAccess, Key::kGood, 8000, 3000);
}
TEST_P(RcError, AtomicPastMrEnd) {
  RemoteAccessError(IBV_WR_ATOMIC_FETCH_AND_ADD, kAllAccess, Key::kGood, 8192,
                    8);
}
// An error completes even an unsignaled WR.
TEST_P(RcError, UnsignaledWrErrorCompletes) {
  RemoteAccessError(IBV_WR_RDMA_WRITE, kAllAccess, Key::kBadTag, 0, 64, 0);
}

// ibv_modify_qp(ERR) with sends and receives outstanding: every WR
// completes with a flush error, in order, and so does every WR posted
// afterwards.
TEST_P(RcError, ModifyToErrorFlushes) {
  // b never leaves INIT and a's timeout is infinite: a's sends stay
  // outstanding, quietly, until the modify.
  QpOptions oa, ob;
  oa.timeout = 0;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, oa, &p_.a));
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, ob, &p_.b));
  ASSERT_EQ(ModifyToInit(p_.a), 0);
  ASSERT_EQ(ModifyToInit(p_.b), 0);
  ASSERT_EQ(ModifyToRtr(p_.a, p_.b.qpn(), ob.sq_psn, p_.b.ep.gid()), 0);
  ASSERT_EQ(ModifyToRts(p_.a), 0);
  Region la, lb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 8192, kAllAccess, &la));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 8192, kAllAccess, &lb));
  for (uint64_t i = 100; i < 104; i++) {
    ibv_sge s = la.sge(i * 16, 16);
    ASSERT_EQ(PostRecv(p_.a.qp.get(), i, &s, 1), 0);
  }
  for (uint64_t i = 1; i <= 6; i++) {
    ibv_sge s = la.sge(4096, i == 3 ? 3000 : 10);
    ibv_send_wr wr = SendWr(i, IBV_WR_SEND, &s, 1);
    ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
  }
  ASSERT_TRUE(NoCompletion(p_.a.scq.get(), milliseconds(50)));

  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ASSERT_EQ(ibv_modify_qp(p_.a.qp.get(), &attr, IBV_QP_STATE), 0);
  EXPECT_EQ(QpState(p_.a.qp.get()), IBV_QPS_ERR);
  Want sends, recvs;
  for (uint64_t i = 1; i <= 6; i++) sends.push_back({i, IBV_WC_WR_FLUSH_ERR});
  for (uint64_t i = 100; i < 104; i++)
    recvs.push_back({i, IBV_WC_WR_FLUSH_ERR});
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(p_.a.scq.get(), sends, p_.a.qpn()));
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(p_.a.rcq.get(), recvs, p_.a.qpn()));

  // Posted in the error state.
  ibv_sge s = la.sge(0, 8);
  ibv_send_wr wr = SendWr(7, IBV_WR_SEND, &s, 1);
  ibv_send_wr wr2 = RdmaWr(8, IBV_WR_RDMA_READ, &s, 1, lb.addr(), lb.rkey());
  wr.next = &wr2;
  ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
  ASSERT_EQ(PostRecv(p_.a.qp.get(), 104, &s, 1), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.scq.get(), {{7, IBV_WC_WR_FLUSH_ERR}, {8, IBV_WC_WR_FLUSH_ERR}},
      p_.a.qpn()));
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.rcq.get(), {{104, IBV_WC_WR_FLUSH_ERR}}, p_.a.qpn()));

  // The responder side: receives flushed by ibv_modify_qp(ERR).
  for (uint64_t i = 200; i < 203; i++) {
    ibv_sge r = lb.sge(i * 16, 16);
    ASSERT_EQ(PostRecv(p_.b.qp.get(), i, &r, 1), 0);
  }
  ASSERT_EQ(ibv_modify_qp(p_.b.qp.get(), &attr, IBV_QP_STATE), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(p_.b.rcq.get(),
                                            {{200, IBV_WC_WR_FLUSH_ERR},
                                             {201, IBV_WC_WR_FLUSH_ERR},
                                             {202, IBV_WC_WR_FLUSH_ERR}},
                                            p_.b.qpn()));
  ibv_sge r = lb.sge(0, 16);
  ASSERT_EQ(PostRecv(p_.b.qp.get(), 203, &r, 1), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.b.rcq.get(), {{203, IBV_WC_WR_FLUSH_ERR}}, p_.b.qpn()));
  EXPECT_TRUE(NoCompletion(p_.b.scq.get(), milliseconds(1)));
}

// The peer QP vanished: no ACKs come back, the transport retries
// retry_cnt times after `timeout` each, then fails.
TEST_P(RcError, RetryExceededWhenPeerVanishes) {
  QpOptions oa, ob;
  oa.timeout = 10;  // 4.2 ms
  oa.retry_cnt = 2;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p_));
  Region l;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 8192, kAllAccess, &l));
  p_.b.qp.reset();
  ibv_sge s1 = l.sge(0, 2000), s2 = l.sge(4096, 64);
  ibv_send_wr w1 = SendWr(1, IBV_WR_SEND, &s1, 1);
  ibv_send_wr w2 = RdmaWr(2, IBV_WR_RDMA_READ, &s2, 1, 0x1000, 0x1234);
  w1.next = &w2;
  auto start = Clock::now();
  ASSERT_EQ(PostSend(p_.a.qp.get(), &w1), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.scq.get(), {{1, IBV_WC_RETRY_EXC_ERR}, {2, IBV_WC_WR_FLUSH_ERR}},
      p_.a.qpn()));
  auto ms =
      std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
  // Three transmissions, 4.2 ms apart at least.
  EXPECT_GE(ms, 8) << "gave up too early";
  EXPECT_TRUE(QpReaches(p_.a.qp.get(), IBV_QPS_ERR));
}

// No receive WQE at the responder and rnr_retry 0: the first RNR NAK
// ends the send.
TEST_P(RcError, RnrRetryZeroFails) {
  QpOptions oa, ob;
  oa.rnr_retry = 0;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p_));
  Region l;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 4096, kAllAccess, &l));
  ibv_sge s = l.sge(0, 100);
  ibv_send_wr w1 = SendWr(1, IBV_WR_SEND, &s, 1),
              w2 = SendWr(2, IBV_WR_SEND, &s, 1);
  w1.next = &w2;
  ASSERT_EQ(PostSend(p_.a.qp.get(), &w1), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.scq.get(), {{1, IBV_WC_RNR_RETRY_EXC_ERR}, {2, IBV_WC_WR_FLUSH_ERR}},
      p_.a.qpn()));
  EXPECT_TRUE(QpReaches(p_.a.qp.get(), IBV_QPS_ERR));
}

// RDMA WRITE with immediate needs a receive WQE too; rnr_retry 2 retries
// twice, then fails.
TEST_P(RcError, RnrRetryExceededWriteWithImm) {
  QpOptions oa, ob;
  oa.rnr_retry = 2;
  ob.min_rnr_timer = 1;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p_));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 4096, kAllAccess, &r));
  ibv_sge s = l.sge(0, 100);
  ibv_send_wr w =
      RdmaWr(1, IBV_WR_RDMA_WRITE_WITH_IMM, &s, 1, r.addr(), r.rkey());
  ASSERT_EQ(PostSend(p_.a.qp.get(), &w), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.scq.get(), {{1, IBV_WC_RNR_RETRY_EXC_ERR}}, p_.a.qpn()));
}

// rnr_retry 7 retries forever: sends that found no receive WQE complete
// once receives are posted, much later, in order and intact.  The wait
// lasts many transport timeouts (16.8 ms, 7 retries): RNR rounds spend
// none of them.
void RnrForever(RcPair& p, const Endpoint& ea, const Endpoint& eb, uint32_t n) {
  QpOptions oa, ob;
  oa.rnr_retry = 7;
  oa.timeout = 12;
  ob.min_rnr_timer = 12;  // 0.64 ms
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(ea, eb, oa, ob, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), n * 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), n * 4096, kAllAccess, &r));
  FillRandom(l.buf.span(), 81);
  for (uint32_t i = 0; i < n; i++) {
    ibv_sge s = l.sge(i * 4096, 100 + 500 * i);  // up to 3600 bytes
    ibv_send_wr w = SendWr(i, IBV_WR_SEND, &s, 1);
    ASSERT_EQ(PostSend(p.a.qp.get(), &w), 0);
  }
  ASSERT_TRUE(NoCompletion(p.a.scq.get(), milliseconds(1000)));
  for (uint32_t i = 0; i < n; i++) {
    ibv_sge s = r.sge(i * 4096, 4096);
    ASSERT_EQ(PostRecv(p.b.qp.get(), i, &s, 1), 0);
  }
  Want want;
  for (uint32_t i = 0; i < n; i++) want.push_back({i, IBV_WC_SUCCESS});
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(p.a.scq.get(), want, p.a.qpn()));
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(p.b.rcq.get(), n, &wcs));
  for (uint32_t i = 0; i < n; i++) {
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
    EXPECT_EQ(wcs[i].byte_len, 100 + 500 * i);
    EXPECT_TRUE(SameBytes(r.buf.span(i * 4096, 100 + 500 * i),
                          l.buf.span(i * 4096, 100 + 500 * i)))
        << "message " << i;
  }
}

TEST_P(RcError, RnrRetryForeverOneSend) { RnrForever(p_, a_, b_, 1); }
// Several sends in flight behind the one that met the RNR NAK.
TEST_P(RcError, RnrRetryForeverQueuedSends) { RnrForever(p_, a_, b_, 8); }

// A SEND longer than the receive WQE: the receiver completes it with
// IBV_WC_LOC_LEN_ERR, the requester gets IBV_WC_REM_INV_REQ_ERR, and
// nothing is written past the receive buffer.
void RecvTooSmall(RcPair& p, const Endpoint& a, const Endpoint& b,
                  uint32_t recv_len, uint32_t send_len) {
  QpOptions o;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a, b, o, o, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 8192, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 8192, kAllAccess, &r));
  FillRandom(l.buf.span(), 91);
  FillRandom(r.buf.span(), 92);
  std::vector<uint8_t> before(r.data(), r.data() + 8192);
  ibv_sge rs = r.sge(1000, recv_len);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 77, &rs, 1), 0);
  ibv_sge s = l.sge(0, send_len);
  ibv_send_wr w = SendWr(1, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(p.a.qp.get(), &w), 0);
  ASSERT_NO_FATAL_FAILURE(
      ExpectCompletions(p.b.rcq.get(), {{77, IBV_WC_LOC_LEN_ERR}}, p.b.qpn()));
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p.a.scq.get(), {{1, IBV_WC_REM_INV_REQ_ERR}}, p.a.qpn()));
  EXPECT_TRUE(
      SameBytes(r.buf.span(0, 1000), std::span(before).subspan(0, 1000)))
      << "before the receive buffer";
  EXPECT_TRUE(SameBytes(r.buf.span(1000 + recv_len, 8192 - 1000 - recv_len),
                        std::span(before).subspan(1000 + recv_len)))
      << "after the receive buffer";
  EXPECT_TRUE(QpReaches(p.a.qp.get(), IBV_QPS_ERR));
}

TEST_P(RcError, RecvBufferTooSmall) { RecvTooSmall(p_, a_, b_, 100, 200); }
TEST_P(RcError, RecvBufferTooSmallMultiPacket) {
  RecvTooSmall(p_, a_, b_, 1500, 3000);
}

// Local protection errors: the requester's own SGEs.
class RcLocalError : public RcError {
 protected:
  void LocalProtection(ibv_wr_opcode op, int access, uint32_t lkey_xor,
                       int64_t offset, uint32_t len, bool other_pd = false);
};

void RcLocalError::LocalProtection(ibv_wr_opcode op, int access,
                                   uint32_t lkey_xor, int64_t offset,
                                   uint32_t len, bool other_pd) {
  QpOptions o;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p_));
  Pd other(ibv_alloc_pd(a_.ctx()));
  ASSERT_TRUE(other);
  Region l, r, rr;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(other_pd ? other.get() : p_.a.pd.get(), 8192, access, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 8192, kAllAccess, &r));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 8192, kAllAccess, &rr));
  FillRandom(l.buf.span(), 93);
  FillRandom(r.buf.span(), 94);
  std::vector<uint8_t> l_before(l.data(), l.data() + 8192);
  std::vector<uint8_t> r_before(r.data(), r.data() + 8192);
  ibv_sge rs = rr.sge(0, 8192);
  ASSERT_EQ(PostRecv(p_.b.qp.get(), 5, &rs, 1), 0);
  ibv_sge s = {l.addr() + static_cast<uint64_t>(offset), len,
               l.lkey() ^ lkey_xor};
  ibv_send_wr w = RdmaWr(1, op, &s, 1, r.addr(), r.rkey());
  ASSERT_EQ(PostSend(p_.a.qp.get(), &w), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.a.scq.get(), {{1, IBV_WC_LOC_PROT_ERR}}, p_.a.qpn()));
  EXPECT_TRUE(QpReaches(p_.a.qp.get(), IBV_QPS_ERR));
  EXPECT_TRUE(NoCompletion(p_.b.rcq.get(), milliseconds(20)))
      << "the SEND arrived";
  EXPECT_TRUE(SameBytes(l.buf.span(), l_before)) << "local MR";
  EXPECT_TRUE(SameBytes(r.buf.span(), r_before)) << "remote MR";
}

TEST_P(RcLocalError, SendBadLkey) {
  LocalProtection(IBV_WR_SEND, kAllAccess, 0x5a, 0, 64);
}
TEST_P(RcLocalError, SendLkeyOfOtherPd) {
  LocalProtection(IBV_WR_SEND, kAllAccess, 0, 0, 64, true);
}
TEST_P(RcLocalError, SendSgeCrossingMrEnd) {
  LocalProtection(IBV_WR_SEND, kAllAccess, 0, 8192 - 5, 10);
}
TEST_P(RcLocalError, WriteSgeBeforeMrStart) {
  LocalProtection(IBV_WR_RDMA_WRITE, kAllAccess, 0, -1, 10);
}
TEST_P(RcLocalError, ReadIntoMrWithoutLocalWrite) {
  LocalProtection(IBV_WR_RDMA_READ, IBV_ACCESS_REMOTE_READ, 0, 0, 64);
}

// A receive WQE with a bad lkey: the receiver completes it with
// IBV_WC_LOC_PROT_ERR; the requester is told with a NAK (remote
// operational error).
TEST_P(RcLocalError, RecvBadLkey) {
  QpOptions o;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p_));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.b.pd.get(), 4096, kAllAccess, &r));
  FillRandom(r.buf.span(), 95);
  std::vector<uint8_t> before(r.data(), r.data() + 4096);
  ibv_sge rs = r.sge(0, 4096);
  rs.lkey ^= 0x5a;
  ASSERT_EQ(PostRecv(p_.b.qp.get(), 9, &rs, 1), 0);
  ibv_sge s = l.sge(0, 100);
  ibv_send_wr w = SendWr(1, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(p_.a.qp.get(), &w), 0);
  ASSERT_NO_FATAL_FAILURE(ExpectCompletions(
      p_.b.rcq.get(), {{9, IBV_WC_LOC_PROT_ERR}}, p_.b.qpn()));
  ASSERT_NO_FATAL_FAILURE(
      ExpectCompletions(p_.a.scq.get(), {{1, IBV_WC_REM_OP_ERR}}, p_.a.qpn()));
  EXPECT_TRUE(SameBytes(r.buf.span(), before));
}

RUE_TOPOLOGIES(RcError);
RUE_TOPOLOGIES(RcLocalError);

}  // namespace
}  // namespace rue::test
