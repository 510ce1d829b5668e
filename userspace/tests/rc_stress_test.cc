// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Many operations in flight: hundreds of writes and sends on a deep send
// queue, and several QPs at once sharing CQs, all verified.
#include <arpa/inet.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

class RcStress : public TopologyTest {};

TEST_P(RcStress, ManyWritesAndSends) {
  constexpr uint32_t kWrites = 300, kSends = 200, kRecvSize = 5000;
  QpOptions oa, ob;
  oa.max_send_wr = 512;
  oa.send_cqe = 1024;
  ob.max_recv_wr = 256;
  ob.recv_cqe = 512;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p));
  ASSERT_GE(p.a.cap.max_send_wr, kWrites + kSends);

  auto write_size = [](uint32_t i) { return (i * 97) % 3000 + 1; };
  auto send_size = [](uint32_t j) { return (j * 131) % kRecvSize + 1; };
  // Writes packed with 3-byte gaps, then the receive buffers.
  std::vector<size_t> woff(kWrites);
  size_t at = 0;
  for (uint32_t i = 0; i < kWrites; i++) {
    woff[i] = at;
    at += write_size(i) + 3;
  }
  const size_t rbase = at;
  const size_t total = rbase + kSends * (kRecvSize + 8);
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), total, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), total, kAllAccess, &r));
  FillRandom(l.buf.span(), 51);
  FillRandom(r.buf.span(), 52);
  std::vector<uint8_t> want(r.data(), r.data() + total);

  for (uint32_t j = 0; j < kSends; j++) {
    ibv_sge s = r.sge(rbase + j * (kRecvSize + 8), kRecvSize);
    ASSERT_EQ(PostRecv(p.b.qp.get(), j, &s, 1), 0);
  }
  uint32_t i = 0, j = 0;
  for (uint32_t k = 0; k < kWrites + kSends; k++) {
    ibv_sge s;
    ibv_send_wr wr;
    if ((k % 5 == 1 || k % 5 == 3) && j < kSends) {
      size_t off = rbase + j * (kRecvSize + 8);
      s = l.sge(off, send_size(j));
      wr = SendWr(k, IBV_WR_SEND, &s, 1);
      memcpy(want.data() + off, l.data(off), send_size(j));
      j++;
    } else {
      s = l.sge(woff[i], write_size(i));
      wr = RdmaWr(k, IBV_WR_RDMA_WRITE, &s, 1, r.addr(woff[i]), r.rkey());
      memcpy(want.data() + woff[i], l.data(woff[i]), write_size(i));
      i++;
    }
    ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0) << "WR " << k;
  }
  ASSERT_EQ(i, kWrites);
  ASSERT_EQ(j, kSends);

  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(
      PollCq(p.a.scq.get(), kWrites + kSends, &wcs, Deadline(2 * total)));
  for (uint32_t k = 0; k < wcs.size(); k++) {
    ASSERT_EQ(wcs[k].status, IBV_WC_SUCCESS) << WcString(wcs[k]);
    EXPECT_EQ(wcs[k].wr_id, k) << "completions out of order";
  }
  ASSERT_TRUE(PollCq(p.b.rcq.get(), kSends, &wcs));
  for (uint32_t n = 0; n < kSends; n++) {
    ASSERT_EQ(wcs[n].status, IBV_WC_SUCCESS) << WcString(wcs[n]);
    EXPECT_EQ(wcs[n].wr_id, n);
    EXPECT_EQ(wcs[n].byte_len, send_size(n));
  }
  EXPECT_TRUE(SameBytes(r.buf.span(0, total), want));
}

// Several connections at once on the same device pair, sharing one send
// CQ and one receive CQ per side: WRITE with immediate, SEND and READ
// interleaved, all posted before any is polled.
TEST_P(RcStress, ManyQpsSharingCqs) {
  constexpr uint32_t kQps = 8, kPairs = 30, kReads = 8;
  constexpr uint32_t kWriteSize = 2000, kSendSize = 1500, kReadSize = 3000;
  constexpr size_t kSlice =
      kPairs * (kWriteSize + kSendSize) + kReads * kReadSize;
  constexpr uint32_t kOps = 2 * kPairs + kReads;

  Pd pda(ibv_alloc_pd(a_.ctx())), pdb(ibv_alloc_pd(b_.ctx()));
  ASSERT_TRUE(pda && pdb);
  Cq scqa(ibv_create_cq(a_.ctx(), 1024, nullptr, nullptr, 0));
  Cq rcqa(ibv_create_cq(a_.ctx(), 16, nullptr, nullptr, 0));
  Cq scqb(ibv_create_cq(b_.ctx(), 16, nullptr, nullptr, 0));
  Cq rcqb(ibv_create_cq(b_.ctx(), 1024, nullptr, nullptr, 0));
  ASSERT_TRUE(scqa && rcqa && scqb && rcqb);
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(pda.get(), kQps * kSlice, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(pdb.get(), kQps * kSlice, kAllAccess, &r));
  FillRandom(l.buf.span(), 61);
  FillRandom(r.buf.span(), 62);
  std::vector<uint8_t> want_r(r.data(), r.data() + r.size());
  std::vector<uint8_t> want_l(l.data(), l.data() + l.size());

  std::vector<RcPair> pairs(kQps);
  for (uint32_t q = 0; q < kQps; q++) {
    QpOptions oa, ob;
    oa.pd = pda.get();
    oa.send_cq = scqa.get();
    oa.recv_cq = rcqa.get();
    oa.max_send_wr = 128;
    oa.sq_psn = 0x100000 * q + 17;
    ob.pd = pdb.get();
    ob.send_cq = scqb.get();
    ob.recv_cq = rcqb.get();
    ob.max_recv_wr = 64;
    ob.sq_psn = 0x100000 * q + 71;
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &pairs[q]));
  }

  // Slice layout: kPairs writes, kPairs send buffers, kReads read areas.
  auto woff = [&](uint32_t q, uint32_t m) {
    return q * kSlice + m * kWriteSize;
  };
  auto soff = [&](uint32_t q, uint32_t m) {
    return q * kSlice + kPairs * kWriteSize + m * kSendSize;
  };
  auto roff = [&](uint32_t q, uint32_t m) {
    return q * kSlice + kPairs * (kWriteSize + kSendSize) + m * kReadSize;
  };
  for (uint32_t q = 0; q < kQps; q++) {
    for (uint32_t m = 0; m < 2 * kPairs; m++) {
      // Receive m is consumed by message m: WRITE_IMM (even), SEND (odd).
      ibv_sge s = r.sge(soff(q, m / 2), kSendSize);
      ASSERT_EQ(PostRecv(pairs[q].b.qp.get(), (uint64_t{q} << 16) | m, &s,
                         m % 2 ? 1 : 0),
                0);
    }
  }

  // Per QP: W S W S ... with a READ after every 7th.
  for (uint32_t step = 0; step < kOps; step++) {
    for (uint32_t q = 0; q < kQps; q++) {
      uint64_t id = (uint64_t{q} << 16) | step;
      uint32_t reads_before = step / 8, pos = step % 8;
      ibv_sge s;
      ibv_send_wr wr;
      if (pos == 7 && reads_before < kReads) {
        s = l.sge(roff(q, reads_before), kReadSize);
        wr = RdmaWr(id, IBV_WR_RDMA_READ, &s, 1, r.addr(roff(q, reads_before)),
                    r.rkey());
        memcpy(want_l.data() + roff(q, reads_before),
               r.data(roff(q, reads_before)), kReadSize);
      } else {
        uint32_t msg = step - std::min(reads_before, kReads), m = msg / 2;
        if (msg % 2 == 0) {
          s = l.sge(woff(q, m), kWriteSize);
          wr = RdmaWr(id, IBV_WR_RDMA_WRITE_WITH_IMM, &s, 1, r.addr(woff(q, m)),
                      r.rkey());
          wr.imm_data = htonl((q << 16) | msg);
          memcpy(want_r.data() + woff(q, m), l.data(woff(q, m)), kWriteSize);
        } else {
          s = l.sge(soff(q, m), kSendSize);
          wr = SendWr(id, IBV_WR_SEND, &s, 1);
          memcpy(want_r.data() + soff(q, m), l.data(soff(q, m)), kSendSize);
        }
      }
      ASSERT_EQ(PostSend(pairs[q].a.qp.get(), &wr), 0)
          << "QP " << q << " step " << step;
    }
  }

  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(
      PollCq(scqa.get(), kQps * kOps, &wcs, Deadline(kQps * kSlice * 2)));
  std::vector<uint32_t> next(kQps, 0);
  for (const ibv_wc& wc : wcs) {
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    uint32_t q = static_cast<uint32_t>(wc.wr_id >> 16);
    ASSERT_LT(q, kQps) << WcString(wc);
    EXPECT_EQ(wc.qp_num, pairs[q].a.qpn()) << WcString(wc);
    EXPECT_EQ(wc.wr_id & 0xffff, next[q]++) << "QP " << q << " out of order";
  }
  ASSERT_TRUE(PollCq(rcqb.get(), kQps * 2 * kPairs, &wcs));
  std::fill(next.begin(), next.end(), 0);
  for (const ibv_wc& wc : wcs) {
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    uint32_t q = static_cast<uint32_t>(wc.wr_id >> 16);
    ASSERT_LT(q, kQps) << WcString(wc);
    EXPECT_EQ(wc.qp_num, pairs[q].b.qpn()) << WcString(wc);
    uint32_t m = next[q]++;
    EXPECT_EQ(wc.wr_id & 0xffff, m) << "QP " << q << " out of order";
    if (m % 2 == 0) {
      EXPECT_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM) << WcString(wc);
      EXPECT_EQ(wc.byte_len, kWriteSize);
      EXPECT_EQ(wc.imm_data, htonl((q << 16) | m)) << WcString(wc);
    } else {
      EXPECT_EQ(wc.opcode, IBV_WC_RECV) << WcString(wc);
      EXPECT_EQ(wc.byte_len, kSendSize);
    }
  }
  EXPECT_TRUE(SameBytes(r.buf.span(), want_r)) << "responder memory";
  EXPECT_TRUE(SameBytes(l.buf.span(), want_l)) << "requester memory (READs)";
  EXPECT_TRUE(NoCompletion(rcqa.get(), milliseconds(1)));
  EXPECT_TRUE(NoCompletion(scqb.get(), milliseconds(1)));
  // The QPs go before the shared CQs and PDs.
  pairs.clear();
}

// RDMA READs of a few dozen to a few hundred packets, one at a time and
// then up to max_rd_atomic at once: responses longer than a transmit
// burst, and several responses queued behind each other.
TEST_P(RcStress, ManyLargeReads) {
  constexpr uint32_t kReads = 24, kStride = 256 * 1024;
  auto size = [](uint32_t i) { return 60000 + i * 7919; };  // 59..240 packets
  QpOptions o;
  o.max_send_wr = 64;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.a.pd.get(), kReads * kStride, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), kReads * kStride, kAllAccess, &r));
  for (int round = 0; round < 2; round++) {
    SCOPED_TRACE(round ? "all at once" : "one at a time");
    FillRandom(r.buf.span(), 70 + round);
    memset(l.data(), 0, l.size());
    std::vector<ibv_wc> wcs;
    for (uint32_t i = 0; i < kReads; i++) {
      ibv_sge s = l.sge(i * kStride + i, size(i));
      ibv_send_wr wr = RdmaWr(i, IBV_WR_RDMA_READ, &s, 1,
                              r.addr(i * kStride + 3 * i), r.rkey());
      ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
      if (round == 0) {
        ASSERT_TRUE(PollCq(p.a.scq.get(), 1, &wcs, Deadline(size(i))));
        ASSERT_EQ(wcs[0].status, IBV_WC_SUCCESS)
            << "READ " << i << ": " << WcString(wcs[0]);
      }
    }
    if (round == 1) {
      ASSERT_TRUE(
          PollCq(p.a.scq.get(), kReads, &wcs, Deadline(kReads * kStride)));
      for (uint32_t i = 0; i < kReads; i++) {
        EXPECT_EQ(wcs[i].wr_id, i);
        ASSERT_EQ(wcs[i].status, IBV_WC_SUCCESS)
            << "READ " << i << ": " << WcString(wcs[i]);
      }
    }
    for (uint32_t i = 0; i < kReads; i++) {
      EXPECT_TRUE(SameBytes(l.buf.span(i * kStride + i, size(i)),
                            r.buf.span(i * kStride + 3 * i, size(i))))
          << "READ " << i;
    }
  }
}

// Small posts with pauses around the kernel's send queue poller idle
// time (tx_poll_us, 50 us by default): each post lands while a poller
// runs, while it stops, or after, when it needs a doorbell.  A post lost
// in that handshake (RUE_SQ_F_KERNEL_ARMED) never completes.
TEST_P(RcStress, SmallPostsAcrossPollerStops) {
  constexpr uint32_t kWrites = 600, kSize = 48;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, {}, {}, &p));
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.a.pd.get(), kWrites * kSize, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), kWrites * kSize, kAllAccess, &r));
  FillRandom(l.buf.span(), 61);
  FillRandom(r.buf.span(), 62);

  std::vector<ibv_wc> wcs;
  uint32_t seed = 7;
  for (uint32_t i = 0; i < kWrites; i++) {
    seed = seed * 1103515245 + 12345;
    // 0 to 120 us, and now and then two posts back to back
    const auto pause = std::chrono::microseconds((seed >> 16) % 121);
    ibv_sge s = l.sge(i * kSize, kSize);
    ibv_send_wr wr = RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1,
                            r.addr(i * kSize), r.rkey());
    ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0) << "WR " << i;
    if (i % 7 == 3) continue;
    ASSERT_TRUE(PollCq(p.a.scq.get(), i % 7 == 4 ? 2 : 1, &wcs, Deadline()))
        << "WRITE " << i << " never completed";
    for (const ibv_wc& wc : wcs)
      ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    std::this_thread::sleep_for(pause);
  }
  EXPECT_TRUE(SameBytes(l.buf.span(), r.buf.span()));
}

RUE_TOPOLOGIES(RcStress);

}  // namespace
}  // namespace rue::test
