// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RC work request features: scatter/gather lists on both sides, inline
// data, unsignaled work requests and sq_sig_all, fences.
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

// A piece of a scatter/gather list.
struct Piece {
  Region* region;
  size_t off;
  uint32_t len;
};

std::vector<ibv_sge> Sges(const std::vector<Piece>& pieces) {
  std::vector<ibv_sge> v;
  for (const Piece& p : pieces) v.push_back(p.region->sge(p.off, p.len));
  return v;
}

size_t Total(const std::vector<Piece>& pieces) {
  size_t n = 0;
  for (const Piece& p : pieces) n += p.len;
  return n;
}

std::vector<uint8_t> Gather(const std::vector<Piece>& pieces) {
  std::vector<uint8_t> v;
  for (const Piece& p : pieces)
    v.insert(v.end(), p.region->data(p.off), p.region->data(p.off) + p.len);
  return v;
}

// What the regions should hold: their current bytes, with @msg scattered
// over @pieces in order (up to the message length).
class Images {
 public:
  void Snapshot(Region* r) {
    images_[r].assign(r->data(), r->data() + r->size());
  }
  void Scatter(const std::vector<Piece>& pieces,
               const std::vector<uint8_t>& msg) {
    size_t at = 0;
    for (const Piece& p : pieces) {
      size_t n = std::min<size_t>(p.len, msg.size() - at);
      memcpy(images_.at(p.region).data() + p.off, msg.data() + at, n);
      at += n;
    }
  }
  ::testing::AssertionResult Check(Region* r) const {
    return SameBytes(r->buf.span(), images_.at(r));
  }
  ::testing::AssertionResult Check(Region* r, size_t off, size_t len) const {
    return SameBytes(r->buf.span(off, len),
                     std::span<const uint8_t>(images_.at(r)).subspan(off, len));
  }

 private:
  std::map<Region*, std::vector<uint8_t>> images_;
};

class RcSgl : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.max_send_sge = 8;
    o.max_recv_sge = 8;
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p_));
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(p_.a.pd.get(), 4 * 4096, kAllAccess, &l1_));
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(p_.a.pd.get(), 4 * 4096, kAllAccess, &l2_));
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(p_.b.pd.get(), 5 * 4096, kAllAccess, &r_));
    FillRandom(l1_.buf.span(), 11);
    FillRandom(l2_.buf.span(), 12);
    FillRandom(r_.buf.span(), 13);
    // Odd lengths, two MRs, pieces crossing one and two page boundaries;
    // 4200 bytes, five packets at a 1024-byte MTU.
    local_ = {{&l1_, 10, 1},
              {&l2_, 4090, 13},
              {&l1_, 2 * 4096 - 7, 4096 + 20},
              {&l2_, 100, 7},
              {&l1_, 3, 63}};
    // The same total split differently, crossing pages too.
    remote_ = {{&r_, 4095, 2},
               {&r_, 5000, 1999},
               {&r_, 8190, 2000},
               {&r_, 12188, 199}};
    images_.Snapshot(&l1_);
    images_.Snapshot(&l2_);
    images_.Snapshot(&r_);
  }

  RcPair p_;
  Region l1_, l2_, r_;
  std::vector<Piece> local_, remote_;
  Images images_;
};

TEST_P(RcSgl, SendGatherToScatter) {
  ASSERT_EQ(Total(local_), Total(remote_));
  std::vector<uint8_t> msg = Gather(local_);
  images_.Scatter(remote_, msg);
  std::vector<ibv_sge> rs = Sges(remote_), ls = Sges(local_);
  ASSERT_EQ(PostRecv(p_.b.qp.get(), 1, rs.data(), static_cast<int>(rs.size())),
            0);
  ibv_send_wr wr =
      SendWr(2, IBV_WR_SEND, ls.data(), static_cast<int>(ls.size()));
  ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p_.b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, msg.size());
  ASSERT_TRUE(PollOne(p_.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(images_.Check(&r_)) << "receive buffer";
  EXPECT_TRUE(images_.Check(&l1_)) << "send buffer 1 changed";
  EXPECT_TRUE(images_.Check(&l2_)) << "send buffer 2 changed";
}

// A message shorter than the receive WQE fills its SGEs in order and
// reports its own length.
TEST_P(RcSgl, SendIntoLargerReceive) {
  std::vector<Piece> send = {{&l1_, 4000, 1500}, {&l2_, 7, 1501}};
  std::vector<Piece> recv = {
      {&r_, 3000, 1000}, {&r_, 6000, 5000}, {&r_, 12000, 3000}};
  std::vector<uint8_t> msg = Gather(send);
  std::vector<ibv_sge> rs = Sges(recv), ls = Sges(send);
  ASSERT_EQ(PostRecv(p_.b.qp.get(), 1, rs.data(), static_cast<int>(rs.size())),
            0);
  ibv_send_wr wr =
      SendWr(2, IBV_WR_SEND_WITH_IMM, ls.data(), static_cast<int>(ls.size()));
  wr.imm_data = htonl(0x12345678);
  ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p_.b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, msg.size());
  EXPECT_EQ(wc.imm_data, htonl(0x12345678));
  ASSERT_TRUE(PollOne(p_.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  // The first 3001 bytes of the receive SGEs hold the message; the bytes
  // outside the receive SGEs are untouched (inside them, past the
  // message, the contents are not specified).
  std::vector<Piece> used = {{&r_, 3000, 1000}, {&r_, 6000, 2001}};
  EXPECT_TRUE(SameBytes(Gather(used), msg)) << "message in the receive SGEs";
  const size_t outside[][2] = {
      {0, 3000}, {4000, 2000}, {11000, 1000}, {15000, 5 * 4096 - 15000}};
  for (const auto& o : outside)
    EXPECT_TRUE(images_.Check(&r_, o[0], o[1]))
        << "outside the receive SGEs, at " << o[0];
}

TEST_P(RcSgl, WriteGather) {
  const size_t at = 4093;
  std::vector<Piece> target = {{&r_, at, static_cast<uint32_t>(Total(local_))}};
  std::vector<uint8_t> msg = Gather(local_);
  images_.Scatter(target, msg);
  std::vector<ibv_sge> ls = Sges(local_);
  ibv_send_wr wr = RdmaWr(3, IBV_WR_RDMA_WRITE, ls.data(),
                          static_cast<int>(ls.size()), r_.addr(at), r_.rkey());
  ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p_.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(images_.Check(&r_)) << "target region";
}

TEST_P(RcSgl, ReadScatter) {
  const size_t at = 4093;
  std::vector<Piece> source = {{&r_, at, static_cast<uint32_t>(Total(local_))}};
  std::vector<uint8_t> msg = Gather(source);
  images_.Scatter(local_, msg);
  std::vector<ibv_sge> ls = Sges(local_);
  ibv_send_wr wr = RdmaWr(4, IBV_WR_RDMA_READ, ls.data(),
                          static_cast<int>(ls.size()), r_.addr(at), r_.rkey());
  ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p_.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.opcode, IBV_WC_RDMA_READ);
  EXPECT_TRUE(images_.Check(&l1_)) << "local region 1";
  EXPECT_TRUE(images_.Check(&l2_)) << "local region 2";
  EXPECT_TRUE(images_.Check(&r_)) << "the READ source changed";
}

RUE_TOPOLOGIES(RcSgl);

// As many SGEs as the QP allows, on both sides, for SEND and READ.
class RcMaxSge : public TopologyTest {};

TEST_P(RcMaxSge, SendAndReadWithMaxSges) {
  QpOptions o;
  o.max_send_sge = std::min(32, a_.dev->attr.max_sge);
  o.max_recv_sge = o.max_send_sge;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  ASSERT_GE(p.a.cap.max_send_sge, o.max_send_sge);
  ASSERT_GE(p.b.cap.max_recv_sge, o.max_recv_sge);
  const uint32_t n = o.max_send_sge;
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.a.pd.get(), (n + 1) * 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), (n + 1) * 4096, kAllAccess, &r));
  FillRandom(l.buf.span(), 21);
  FillRandom(r.buf.span(), 22);
  std::vector<Piece> ls, rs;
  for (uint32_t i = 0; i < n; i++) {
    // Each piece straddles a page boundary.
    ls.push_back({&l, (i + 1) * 4096 - 17 - i, 37 + i});
    rs.push_back({&r, (n - i) * 4096 - 5, 37 + i});
  }
  Images images;
  images.Snapshot(&l);
  images.Snapshot(&r);
  std::vector<uint8_t> msg = Gather(ls);
  images.Scatter(rs, msg);
  std::vector<ibv_sge> lsge = Sges(ls), rsge = Sges(rs);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 1, rsge.data(), static_cast<int>(n)), 0);
  ibv_send_wr wr = SendWr(2, IBV_WR_SEND, lsge.data(), static_cast<int>(n));
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, msg.size());
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(images.Check(&r)) << "SEND";

  // READ the contiguous bytes at the start of r into the n local pieces.
  FillRandom(r.buf.span(), 23);
  images.Snapshot(&r);
  std::vector<Piece> src = {{&r, 11, static_cast<uint32_t>(msg.size())}};
  images.Scatter(ls, Gather(src));
  wr = RdmaWr(3, IBV_WR_RDMA_READ, lsge.data(), static_cast<int>(n), r.addr(11),
              r.rkey());
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(images.Check(&l)) << "READ";
}

RUE_TOPOLOGIES(RcMaxSge);

// ---------------------------------------------------------------------
// Inline

class RcInline : public TopologyTest {};

TEST_P(RcInline, CopiedAtPostTime) {
  QpOptions o;
  o.max_inline_data = 64;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  const uint32_t max = p.a.cap.max_inline_data;
  ASSERT_GE(max, 64u) << "ibv_create_qp returned less inline room than asked";
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  ASSERT_EQ(ibv_query_qp(p.a.qp.get(), &attr, IBV_QP_CAP, &init), 0);
  EXPECT_EQ(attr.cap.max_inline_data, max);

  Region r;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), 2 * max + 4096, kAllAccess, &r));
  // Inline data needs no memory registration: plain heap memory, lkey 0.
  std::vector<uint8_t> src(max), orig(max);
  std::vector<uint32_t> sizes = {1, 8, 63, max / 2 + 1, max};
  const ibv_wr_opcode ops[] = {IBV_WR_SEND, IBV_WR_SEND_WITH_IMM,
                               IBV_WR_RDMA_WRITE, IBV_WR_RDMA_WRITE_WITH_IMM};
  uint32_t id = 0;
  for (ibv_wr_opcode op : ops) {
    for (uint32_t size : sizes) {
      id++;
      SCOPED_TRACE(::testing::Message()
                   << "opcode " << op << ", size " << size);
      FillRandom(src, 100 + id);
      orig = src;
      FillRandom(r.buf.span(), 200 + id);
      std::vector<uint8_t> want(r.data(), r.data() + r.size());
      const size_t at = 4096 - size / 2;  // crossing a page
      memcpy(want.data() + at, orig.data(), size);
      bool recv = op != IBV_WR_RDMA_WRITE;
      ibv_sge rsge = r.sge(at, size);
      if (recv) {
        ASSERT_EQ(PostRecv(p.b.qp.get(), id, &rsge, 1), 0);
      }
      ibv_sge sge = {reinterpret_cast<uintptr_t>(src.data()), size, 0};
      ibv_send_wr wr = RdmaWr(id, op, &sge, 1, r.addr(at), r.rkey(),
                              IBV_SEND_SIGNALED | IBV_SEND_INLINE);
      wr.imm_data = htonl(id);
      ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
      // The WR owns a copy now: change the buffer at once.
      memset(src.data(), 0xee, src.size());
      ibv_wc wc;
      if (recv) {
        ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
        ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
        EXPECT_EQ(wc.byte_len, size);
        if (op != IBV_WR_SEND) {
          EXPECT_EQ(wc.imm_data, htonl(id));
        }
      }
      ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
      ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
      EXPECT_EQ(wc.wr_id, id);
      EXPECT_TRUE(SameBytes(r.buf.span(), want));
    }
  }
}

// Inline data gathered from several buffers, up to max_inline_data.
TEST_P(RcInline, GatherSeveralBuffers) {
  QpOptions o;
  o.max_inline_data = 128;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  const uint32_t max = p.a.cap.max_inline_data;
  Region r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), max + 64, kAllAccess, &r));
  std::vector<uint8_t> b1(max / 3), b2(1), b3(max - max / 3 - 1);
  FillRandom(b1, 1);
  FillRandom(b2, 2);
  FillRandom(b3, 3);
  std::vector<uint8_t> msg = b1;
  msg.insert(msg.end(), b2.begin(), b2.end());
  msg.insert(msg.end(), b3.begin(), b3.end());
  ibv_sge sge[3] = {{reinterpret_cast<uintptr_t>(b1.data()),
                     static_cast<uint32_t>(b1.size()), 0},
                    {reinterpret_cast<uintptr_t>(b2.data()), 1, 0},
                    {reinterpret_cast<uintptr_t>(b3.data()),
                     static_cast<uint32_t>(b3.size()), 0}};
  ibv_sge rsge = r.sge(0, max);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 1, &rsge, 1), 0);
  ibv_send_wr wr =
      SendWr(1, IBV_WR_SEND, sge, 3, IBV_SEND_SIGNALED | IBV_SEND_INLINE);
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  memset(b1.data(), 0, b1.size());
  memset(b3.data(), 0, b3.size());
  ibv_wc wc;
  ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, max);
  EXPECT_TRUE(SameBytes(r.buf.span(0, max), msg));
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
}

RUE_TOPOLOGIES(RcInline);

// ---------------------------------------------------------------------
// Signaling

class RcSignal : public TopologyTest {};

// A queue ten times deeper than the SQ, every 16th WR signaled: only
// those complete, in order, and every WR did its work.
TEST_P(RcSignal, UnsignaledDeepQueue) {
  QpOptions oa, ob;
  oa.max_send_wr = 64;
  ob.max_recv_wr = 256;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p));
  const uint32_t depth = p.a.cap.max_send_wr;
  ASSERT_GE(depth, 64u);
  constexpr uint32_t kN = 640, kEvery = 16, kWrite = 256, kSend = 64;
  constexpr uint32_t kSends = kN / 4;
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.a.pd.get(), kN * kWrite, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), kN * kWrite, kAllAccess, &r));
  FillRandom(l.buf.span(), 31);
  FillRandom(r.buf.span(), 32);
  std::vector<uint8_t> want(r.data(), r.data() + r.size());
  // Receives live in the second half of r; writes go to the first.
  const size_t recv_base = kN * kWrite / 2;
  for (uint32_t j = 0; j < kSends; j++) {
    ibv_sge s = r.sge(recv_base + j * kSend, kSend);
    ASSERT_EQ(PostRecv(p.b.qp.get(), j, &s, 1), 0);
  }

  uint32_t done = 0;  // WRs known complete (up to the last signaled one)
  std::vector<uint64_t> completed;
  for (uint32_t i = 0; i < kN; i++) {
    while (i - done >= depth) {
      ibv_wc wc;
      ASSERT_TRUE(PollOne(p.a.scq.get(), &wc)) << "after posting " << i;
      ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
      completed.push_back(wc.wr_id);
      done = static_cast<uint32_t>(wc.wr_id) + 1;
    }
    unsigned flags = (i % kEvery == kEvery - 1) ? IBV_SEND_SIGNALED : 0;
    ibv_sge s;
    ibv_send_wr wr;
    if (i % 4 == 3) {
      uint32_t j = i / 4;
      s = l.sge(recv_base + j * kSend, kSend);
      wr = SendWr(i, IBV_WR_SEND, &s, 1, flags);
      memcpy(want.data() + recv_base + j * kSend, l.data(recv_base + j * kSend),
             kSend);
    } else {
      uint32_t off = (i / 4 * 3 + i % 4) * (kWrite / 2);
      s = l.sge(off, kWrite / 2);
      wr = RdmaWr(i, IBV_WR_RDMA_WRITE, &s, 1, r.addr(off), r.rkey(), flags);
      memcpy(want.data() + off, l.data(off), kWrite / 2);
    }
    ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0) << "WR " << i;
  }
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(p.a.scq.get(), kN / kEvery - completed.size(), &wcs));
  for (const ibv_wc& wc : wcs) {
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    completed.push_back(wc.wr_id);
  }
  EXPECT_TRUE(NoCompletion(p.a.scq.get(), milliseconds(20)))
      << "unsignaled WR completed";
  ASSERT_EQ(completed.size(), kN / kEvery);
  for (uint32_t k = 0; k < completed.size(); k++)
    EXPECT_EQ(completed[k], k * kEvery + kEvery - 1) << "completion " << k;

  ASSERT_TRUE(PollCq(p.b.rcq.get(), kSends, &wcs));
  for (uint32_t j = 0; j < kSends; j++) {
    EXPECT_EQ(wcs[j].status, IBV_WC_SUCCESS) << WcString(wcs[j]);
    EXPECT_EQ(wcs[j].wr_id, j);
    EXPECT_EQ(wcs[j].byte_len, kSend);
  }
  EXPECT_TRUE(SameBytes(r.buf.span(), want));
}

// sq_sig_all: every WR completes, with or without IBV_SEND_SIGNALED.
TEST_P(RcSignal, SignalAll) {
  QpOptions o;
  o.sq_sig_all = true;
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  ASSERT_EQ(ibv_query_qp(p.a.qp.get(), &attr, IBV_QP_CAP, &init), 0);
  EXPECT_EQ(init.sq_sig_all, 1);
  Region l, r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 4096, kAllAccess, &r));
  constexpr uint32_t kN = 50;
  for (uint32_t i = 0; i < kN; i++) {
    ibv_sge s = l.sge(i * 8, 8);
    ibv_send_wr wr = RdmaWr(1000 + i, IBV_WR_RDMA_WRITE, &s, 1, r.addr(i * 8),
                            r.rkey(), i % 2 ? IBV_SEND_SIGNALED : 0);
    ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  }
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(p.a.scq.get(), kN, &wcs));
  for (uint32_t i = 0; i < kN; i++) {
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
    EXPECT_EQ(wcs[i].wr_id, 1000 + i);
  }
}

RUE_TOPOLOGIES(RcSignal);

// ---------------------------------------------------------------------
// Fence

class RcFence : public TopologyTest {};

// A fenced SEND carries what the RDMA READs before it fetched: it may
// not start before their responses arrived.
TEST_P(RcFence, ReadThenFencedSend) {
  RcPair p;
  QpOptions o;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
  constexpr uint32_t kSize = 32 * 1024, kIters = 10;
  Region l, src, dst;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 2 * kSize, kAllAccess, &l));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), 2 * kSize, kAllAccess, &src));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), 2 * kSize, kAllAccess, &dst));
  for (uint32_t it = 0; it < kIters; it++) {
    SCOPED_TRACE(::testing::Message() << "iteration " << it);
    FillRandom(src.buf.span(), 40 + it);
    memset(l.data(), 0, l.size());
    ibv_sge rs = dst.sge(0, 2 * kSize);
    ASSERT_EQ(PostRecv(p.b.qp.get(), it, &rs, 1), 0);
    // Two READs (into two halves), then a SEND of both halves, fenced.
    ibv_sge r1 = l.sge(0, kSize), r2 = l.sge(kSize, kSize), s[2] = {r1, r2};
    ibv_send_wr wr[3] = {RdmaWr(10 * it + 1, IBV_WR_RDMA_READ, &r1, 1,
                                src.addr(kSize), src.rkey()),
                         RdmaWr(10 * it + 2, IBV_WR_RDMA_READ, &r2, 1,
                                src.addr(0), src.rkey(), 0),
                         SendWr(10 * it + 3, IBV_WR_SEND, s, 2,
                                IBV_SEND_SIGNALED | IBV_SEND_FENCE)};
    wr[0].next = &wr[1];
    wr[1].next = &wr[2];
    ASSERT_EQ(PostSend(p.a.qp.get(), wr), 0);
    std::vector<uint8_t> want(src.data(kSize), src.data(2 * kSize));
    want.insert(want.end(), src.data(0), src.data(kSize));
    ibv_wc wc;
    ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.byte_len, 2 * kSize);
    EXPECT_TRUE(SameBytes(dst.buf.span(0, 2 * kSize), want))
        << "the fenced SEND";
    std::vector<ibv_wc> wcs;
    ASSERT_TRUE(PollCq(p.a.scq.get(), 2, &wcs));
    EXPECT_EQ(wcs[0].wr_id, 10 * it + 1);
    EXPECT_EQ(wcs[0].opcode, IBV_WC_RDMA_READ);
    EXPECT_EQ(wcs[1].wr_id, 10 * it + 3);
    EXPECT_EQ(wcs[1].opcode, IBV_WC_SEND);
    for (const ibv_wc& w : wcs)
      EXPECT_EQ(w.status, IBV_WC_SUCCESS) << WcString(w);
  }
}

RUE_TOPOLOGIES(RcFence);

}  // namespace
}  // namespace rue::test
