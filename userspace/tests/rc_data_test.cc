// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RC data integrity: every operation over sizes from 0 to more than a
// MiB, random patterns checked end to end, the bytes around the target
// untouched, and every field of both completions checked.  Then the same
// across a PSN wrap and with a small path MTU.
#include <arpa/inet.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

enum class Op { kSend, kSendImm, kWrite, kWriteImm, kRead };

struct OpInfo {
  ibv_wr_opcode wr;
  ibv_wc_opcode wc;    // requester completion
  bool consumes_recv;  // a receive WQE completes on the responder
  bool imm;
  bool read;  // data flows from the responder
};

OpInfo Info(Op op) {
  switch (op) {
    case Op::kSend:
      return {IBV_WR_SEND, IBV_WC_SEND, true, false, false};
    case Op::kSendImm:
      return {IBV_WR_SEND_WITH_IMM, IBV_WC_SEND, true, true, false};
    case Op::kWrite:
      return {IBV_WR_RDMA_WRITE, IBV_WC_RDMA_WRITE, false, false, false};
    case Op::kWriteImm:
      return {IBV_WR_RDMA_WRITE_WITH_IMM, IBV_WC_RDMA_WRITE, true, true, false};
    case Op::kRead:
      return {IBV_WR_RDMA_READ, IBV_WC_RDMA_READ, false, false, true};
  }
  return {};
}

constexpr Op kAllOps[] = {Op::kSend, Op::kSendImm, Op::kWrite, Op::kWriteImm,
                          Op::kRead};

// Bytes checked on each side of a target range.
constexpr size_t kGuard = 256;

// One message of @size bytes between local (side a, at @local_off) and
// remote (side b, at @remote_off) memory, checked end to end.
void CheckTransfer(RcPair& p, Region& local, Region& remote, Op op, size_t size,
                   size_t local_off, size_t remote_off, uint32_t id) {
  const OpInfo in = Info(op);
  Region& src = in.read ? remote : local;
  Region& dst = in.read ? local : remote;
  const size_t src_off = in.read ? remote_off : local_off;
  const size_t dst_off = in.read ? local_off : remote_off;
  ASSERT_GE(dst_off, kGuard);
  ASSERT_LE(dst_off + size + kGuard, dst.size());
  ASSERT_LE(src_off + size, src.size());

  // Fresh random data, and a random background around the target.
  std::span<uint8_t> source = src.buf.span(src_off, size);
  std::span<uint8_t> window = dst.buf.span(dst_off - kGuard, size + 2 * kGuard);
  FillRandom(source, 0x1000000ULL * static_cast<uint64_t>(op) + 2 * id + 1);
  FillRandom(window, 0x1000000ULL * static_cast<uint64_t>(op) + 2 * id + 2);
  // What the window must hold afterwards: guard, data, guard.
  std::vector<uint8_t> want(window.begin(), window.begin() + kGuard);
  want.insert(want.end(), source.begin(), source.end());
  want.insert(want.end(), window.end() - kGuard, window.end());
  const std::vector<uint8_t> source_before(source.begin(), source.end());

  const uint64_t send_id = 0x5e0000000000ULL + id;
  const uint64_t recv_id = 0x2ec000000000ULL + id;
  const uint32_t imm = htonl(0xc0de0000u + id);
  const int nsge = size ? 1 : 0;
  const auto len = static_cast<uint32_t>(size);

  ibv_sge rsge = remote.sge(remote_off, len);
  if (in.consumes_recv) {
    ASSERT_EQ(PostRecv(p.b.qp.get(), recv_id, &rsge, nsge), 0);
  }
  ibv_sge lsge = local.sge(local_off, len);
  ibv_send_wr wr = RdmaWr(send_id, in.wr, &lsge, nsge, remote.addr(remote_off),
                          remote.rkey());
  if (in.imm) wr.imm_data = imm;
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);

  ibv_wc wc;
  if (in.consumes_recv) {
    ASSERT_TRUE(PollOne(p.b.rcq.get(), &wc, Deadline(size))) << "receive";
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.wr_id, recv_id);
    EXPECT_EQ(wc.opcode,
              op == Op::kWriteImm ? IBV_WC_RECV_RDMA_WITH_IMM : IBV_WC_RECV);
    EXPECT_EQ(wc.byte_len, size);
    EXPECT_EQ(wc.qp_num, p.b.qpn());
    if (in.imm) {
      EXPECT_TRUE(wc.wc_flags & IBV_WC_WITH_IMM) << WcString(wc);
      EXPECT_EQ(wc.imm_data, imm)
          << std::hex << "got 0x" << wc.imm_data << ", posted 0x" << imm;
    } else {
      EXPECT_FALSE(wc.wc_flags & IBV_WC_WITH_IMM) << WcString(wc);
    }
    EXPECT_FALSE(wc.wc_flags & IBV_WC_WITH_INV) << WcString(wc);
    // The data is in place when the receive completes.
    EXPECT_TRUE(SameBytes(window, want))
        << "target (guard " << kGuard << " bytes each side)";
  }
  ASSERT_TRUE(PollOne(p.a.scq.get(), &wc, Deadline(size))) << "send";
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.wr_id, send_id);
  EXPECT_EQ(wc.opcode, in.wc) << WcString(wc);
  EXPECT_EQ(wc.qp_num, p.a.qpn());
  if (!in.consumes_recv) {
    EXPECT_TRUE(SameBytes(window, want))
        << "target (guard " << kGuard << " bytes each side)";
  }
  EXPECT_TRUE(SameBytes(source, source_before)) << "the source changed";
}

class RcData : public TopologyTest {
 protected:
  void AllSizes(Op op);
  void Sizes(const QpOptions& oa, const QpOptions& ob,
             std::span<const size_t> sizes, std::span<const Op> ops);
};

// Runs every op in @ops over every size in @sizes on one connection.
void RcData::Sizes(const QpOptions& oa, const QpOptions& ob,
                   std::span<const size_t> sizes, std::span<const Op> ops) {
  size_t max = 0;
  for (size_t s : sizes) max = std::max(max, s);
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa, ob, &p));
  Region local, remote;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.a.pd.get(), max + 3 * 4096, kAllAccess, &local));
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p.b.pd.get(), max + 3 * 4096, kAllAccess, &remote));

  // RDMA WRITE and READ must leave receive WQEs alone.
  bool sentinel = true;
  for (Op op : ops) sentinel = sentinel && !Info(op).consumes_recv;
  Region spare;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.pd.get(), 64, kAllAccess, &spare));
  ibv_sge ssge = spare.sge(0, 64);
  if (sentinel) {
    ASSERT_EQ(PostRecv(p.b.qp.get(), 0x5e7, &ssge, 1), 0);
  }

  uint32_t id = 0;
  for (Op op : ops) {
    for (size_t i = 0; i < sizes.size(); i++, id++) {
      // Different alignments on the two sides, never both page-aligned.
      size_t local_off = kGuard + (i * 1237 + 5) % 4096;
      size_t remote_off = kGuard + (i * 709 + 3) % 4096;
      SCOPED_TRACE(::testing::Message()
                   << "op " << static_cast<int>(op) << ", size " << sizes[i]
                   << ", local offset " << local_off << ", remote offset "
                   << remote_off);
      ASSERT_NO_FATAL_FAILURE(CheckTransfer(p, local, remote, op, sizes[i],
                                            local_off, remote_off, id));
    }
  }
  if (sentinel) {
    EXPECT_TRUE(NoCompletion(p.b.rcq.get(), milliseconds(10)))
        << "RDMA WRITE/READ consumed a receive WQE";
  }
}

constexpr size_t kSizes[] = {0,    1,    7,    63,   1023,  1024,
                             1025, 4095, 4096, 4097, 65537, (1u << 20) + 13};

void RcData::AllSizes(Op op) {
  QpOptions o;
  o.max_send_wr = 8;
  o.max_recv_wr = 8;
  const Op ops[] = {op};
  Sizes(o, o, kSizes, ops);
}

TEST_P(RcData, Send) { AllSizes(Op::kSend); }
TEST_P(RcData, SendWithImm) { AllSizes(Op::kSendImm); }
TEST_P(RcData, RdmaWrite) { AllSizes(Op::kWrite); }
TEST_P(RcData, RdmaWriteWithImm) { AllSizes(Op::kWriteImm); }
TEST_P(RcData, RdmaRead) { AllSizes(Op::kRead); }

// Multi-packet messages of every kind across the 24-bit PSN wrap, in
// both directions of the PSN space (requests and READ responses).
TEST_P(RcData, PsnWrap) {
  QpOptions oa, ob;
  oa.sq_psn = 0xfffff0;
  ob.sq_psn = 0xffffe9;
  const size_t sizes[] = {20000, 3000};
  Sizes(oa, ob, sizes, kAllOps);
}

// A 256-byte path MTU: packetization around the MTU boundary.
TEST_P(RcData, SmallPathMtu) {
  QpOptions o;
  o.mtu = IBV_MTU_256;
  const size_t sizes[] = {255, 256, 257, 512, 513, 10001};
  Sizes(o, o, sizes, kAllOps);
}

RUE_TOPOLOGIES_WITH_IPV6(RcData);

}  // namespace
}  // namespace rue::test
