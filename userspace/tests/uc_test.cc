// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UC (IBTA 9.8): SEND and RDMA WRITE, with and without immediate data,
// arrive whole and in order; a message the responder cannot take (no
// receive WQE, a bad rkey) is dropped without a word to the sender and
// the QP goes on with the next; READ, atomics and SEND with invalidate
// are refused when posted.
#include <arpa/inet.h>

#include <cstring>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

class Uc : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.type = IBV_QPT_UC;
    o.access = IBV_ACCESS_REMOTE_WRITE;
    ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
    o.sq_psn = 0x2000;
    ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &b));
    ASSERT_NO_FATAL_FAILURE(Connect(a, b));
    mtu = a_.dev->MtuBytes();
    ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), kSize, kAllAccess, &la));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(b.pd.get(), kSize, kAllAccess, &lb));
  }

  // Sends @size bytes from la at @off; b receives them into lb at @off.
  void SendOne(uint64_t id, uint32_t size, size_t off, bool imm) {
    FillRandom(la.buf.span(off, size), id);
    memset(lb.data(off), 0, size);
    ibv_sge rs = lb.sge(off, size);
    ASSERT_EQ(PostRecv(b.qp.get(), id, &rs, 1), 0);
    ibv_sge s = la.sge(off, size);
    ibv_send_wr wr = SendWr(id, imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND,
                            &s, size ? 1 : 0);
    wr.imm_data = htonl(0x5a000000u + static_cast<uint32_t>(id));
    ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
    ibv_wc wc;
    ASSERT_TRUE(PollOne(a.scq.get(), &wc, Deadline(size)));
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.opcode, IBV_WC_SEND);
    ASSERT_TRUE(PollOne(b.rcq.get(), &wc, Deadline(size)));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.wr_id, id);
    EXPECT_EQ(wc.opcode, IBV_WC_RECV);
    EXPECT_EQ(wc.byte_len, size);
    EXPECT_EQ(!!(wc.wc_flags & IBV_WC_WITH_IMM), imm) << WcString(wc);
    if (imm) {
      EXPECT_EQ(wc.imm_data, wr.imm_data);
    }
    EXPECT_EQ(memcmp(la.data(off), lb.data(off), size), 0);
  }

  static constexpr size_t kSize = 1 << 20;
  Side a, b;
  uint32_t mtu = 0;
  Region la, lb;
};

TEST_P(Uc, SendArrivesWhole) {
  const uint32_t sizes[] = {0, 1, mtu - 1, mtu, 3 * mtu + 5, 65536};
  uint64_t id = 0;
  for (uint32_t size : sizes) {
    for (bool imm : {false, true}) {
      SCOPED_TRACE(::testing::Message()
                   << "size " << size << (imm ? " with imm" : ""));
      ASSERT_NO_FATAL_FAILURE(SendOne(++id, size, 4096 - 3, imm));
    }
  }
}

TEST_P(Uc, WriteArrivesWhole) {
  const uint32_t sizes[] = {1, mtu, 5 * mtu + 7, 262144};
  uint64_t id = 0;
  for (uint32_t size : sizes) {
    for (bool imm : {false, true}) {
      SCOPED_TRACE(::testing::Message()
                   << "size " << size << (imm ? " with imm" : ""));
      id++;
      const size_t off = 8192 + 11;
      FillRandom(la.buf.span(off, size), id);
      memset(lb.data(off - 64), 0xee, size + 128);
      if (imm) {
        ASSERT_EQ(PostRecv(b.qp.get(), id, nullptr, 0), 0);
      }
      ibv_sge s = la.sge(off, size);
      ibv_send_wr wr = RdmaWr(
          id, imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE, &s, 1,
          lb.addr(off), lb.rkey());
      wr.imm_data = htonl(0x77000000u + static_cast<uint32_t>(id));
      ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
      ibv_wc wc;
      ASSERT_TRUE(PollOne(a.scq.get(), &wc, Deadline(size)));
      EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
      EXPECT_EQ(wc.opcode, IBV_WC_RDMA_WRITE);
      if (imm) {
        ASSERT_TRUE(PollOne(b.rcq.get(), &wc, Deadline(size)));
        ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
        EXPECT_EQ(wc.opcode, IBV_WC_RECV_RDMA_WITH_IMM);
        EXPECT_EQ(wc.byte_len, size);
        EXPECT_EQ(wc.imm_data, wr.imm_data);
      } else {
        // nothing tells b; the next SEND behind it does
        ASSERT_NO_FATAL_FAILURE(SendOne(1000 + id, 8, 0, false));
      }
      EXPECT_EQ(memcmp(la.data(off), lb.data(off), size), 0);
      EXPECT_EQ(lb.data(off - 1)[0], 0xee);
      EXPECT_EQ(lb.data(off + size)[0], 0xee);
    }
  }
}

// No receive WQE: the SEND is lost, the sender hears nothing of it, and
// the next one (with a WQE) arrives as if nothing happened.
TEST_P(Uc, SendWithoutReceiveIsDropped) {
  ibv_sge s = la.sge(0, 3 * mtu);
  ibv_send_wr wr = SendWr(1, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_TRUE(NoCompletion(b.rcq.get(), milliseconds(100)));
  ASSERT_NO_FATAL_FAILURE(SendOne(2, 2 * mtu + 1, 4096, false));
  EXPECT_EQ(QpState(b.qp.get()), IBV_QPS_RTS);
}

// A WRITE with a key b never gave, or past its MR: dropped, nothing
// written, and the QP goes on.
TEST_P(Uc, WriteOutsideMrIsDropped) {
  memset(lb.data(), 0x11, kSize);
  ibv_sge s = la.sge(0, 2 * mtu);
  ibv_send_wr bad_key =
      RdmaWr(1, IBV_WR_RDMA_WRITE, &s, 1, lb.addr(), lb.rkey() ^ 0x80);
  ibv_send_wr past_end =
      RdmaWr(2, IBV_WR_RDMA_WRITE, &s, 1, lb.addr(kSize - mtu), lb.rkey());
  for (ibv_send_wr* wr : {&bad_key, &past_end}) {
    ASSERT_EQ(PostSend(a.qp.get(), wr), 0);
    ibv_wc wc;
    ASSERT_TRUE(PollOne(a.scq.get(), &wc));
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }
  ASSERT_NO_FATAL_FAILURE(SendOne(3, 100, 8192, false));
  std::vector<uint8_t> want(kSize, 0x11);
  EXPECT_EQ(memcmp(lb.data(kSize - mtu), want.data(), mtu), 0)
      << "a WRITE past the MR's end placed its first packet";
  EXPECT_EQ(memcmp(lb.data(), want.data(), 8192), 0);
  EXPECT_EQ(QpState(b.qp.get()), IBV_QPS_RTS);
}

// A SEND larger than its receive WQE completes that WQE with a local
// length error; the QP stays in RTS and takes the next SEND.
TEST_P(Uc, SendLargerThanReceiveFailsThatReceive) {
  ibv_sge rs = lb.sge(0, 100);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_sge s = la.sge(0, 200);
  ibv_send_wr wr = SendWr(1, IBV_WR_SEND, &s, 1);
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(b.rcq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_LOC_LEN_ERR) << WcString(wc);
  EXPECT_EQ(wc.wr_id, 1u);
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
  ASSERT_NO_FATAL_FAILURE(SendOne(2, 50, 4096, false));
  EXPECT_EQ(QpState(b.qp.get()), IBV_QPS_RTS);
}

TEST_P(Uc, ReadAtomicAndInvalidateRefused) {
  ibv_sge s = la.sge(0, 8);
  const ibv_wr_opcode ops[] = {IBV_WR_RDMA_READ, IBV_WR_ATOMIC_CMP_AND_SWP,
                               IBV_WR_ATOMIC_FETCH_AND_ADD,
                               IBV_WR_SEND_WITH_INV};
  for (ibv_wr_opcode op : ops) {
    SCOPED_TRACE(::testing::Message() << "opcode " << op);
    ibv_send_wr wr = RdmaWr(1, op, &s, 1, lb.addr(), lb.rkey());
    wr.wr.atomic.remote_addr = lb.addr();
    wr.wr.atomic.rkey = lb.rkey();
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(PostSend(a.qp.get(), &wr, &bad), EINVAL);
    EXPECT_EQ(bad, &wr);
  }
  EXPECT_TRUE(NoCompletion(a.scq.get(), milliseconds(20)));
  ASSERT_NO_FATAL_FAILURE(SendOne(2, 64, 0, true));
}

RUE_TOPOLOGIES_WITH_IPV6(Uc);

}  // namespace
}  // namespace rue::test
