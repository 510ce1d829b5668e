// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UD: datagrams arrive behind a 40-byte GRH (for RoCEv2 over IPv4 the
// IPv4 header in its last 20 bytes) with IBV_WC_GRH, the sender's QPN and
// the packet type in sl; an address handle made from the completion
// reaches the sender; a wrong Q_Key drops the datagram; a datagram larger
// than the path MTU fails.
#include <arpa/inet.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>

#include <cstring>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

constexpr uint32_t kGrh = 40;
constexpr uint32_t kQkey = 0x11111111;

class Ud : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.type = IBV_QPT_UD;
    o.qkey = kQkey;
    o.max_send_wr = 128;
    o.max_recv_wr = 128;
    ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
    ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &b));
    ASSERT_EQ(ModifyUdToRts(a), 0);
    ASSERT_EQ(ModifyUdToRts(b), 0);
    ibv_ah_attr attr = AhAttr(a_, b_.gid());
    ah_to_b.reset(ibv_create_ah(a.pd.get(), &attr));
    ASSERT_TRUE(ah_to_b) << "ibv_create_ah: " << strerror(errno);
    mtu = a_.dev->MtuBytes();
    ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 64 * 4096, kAllAccess, &la));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(b.pd.get(), 64 * 4096, kAllAccess, &lb));
  }

  ibv_send_wr UdWr(uint64_t id, ibv_sge* s, ibv_ah* ah, uint32_t qpn,
                   uint32_t qkey, ibv_wr_opcode op = IBV_WR_SEND) {
    ibv_send_wr wr = SendWr(id, op, s, s->length ? 1 : 0);
    wr.wr.ud.ah = ah;
    wr.wr.ud.remote_qpn = qpn;
    wr.wr.ud.remote_qkey = qkey;
    return wr;
  }

  // Checks the GRH a received datagram starts with.
  void CheckGrh(const uint8_t* grh, const Endpoint& from, const Endpoint& to);

  Side a, b;
  Ah ah_to_b;
  uint32_t mtu = 0;
  Region la, lb;
};

bool IsV4Mapped(const ibv_gid& gid) {
  return memcmp(gid.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) == 0;
}

// The sl of a UD receive over RoCEv2: the packet type as RoCE NICs give
// it (0x8 UDP, 0x2 IPv4, 0x1 IPv6), which UCX reads to find the
// destination address in the GRH area.
uint8_t RoceV2Sl(const Endpoint& from) {
  return IsV4Mapped(from.gid()) ? 0xa : 0x9;
}

void Ud::CheckGrh(const uint8_t* grh, const Endpoint& from,
                  const Endpoint& to) {
  ibv_gid src = from.gid(), dst = to.gid();
  if (IsV4Mapped(src)) {
    // IPv4 over RoCEv2: the IPv4 header in the last 20 bytes.
    iphdr ip;
    memcpy(&ip, grh + 20, sizeof(ip));
    EXPECT_EQ(ip.version, 4u);
    EXPECT_EQ(ip.ihl, 5u);
    EXPECT_EQ(ip.protocol, IPPROTO_UDP);
    EXPECT_EQ(memcmp(&ip.saddr, &src.raw[12], 4), 0) << "IPv4 source address";
    EXPECT_EQ(memcmp(&ip.daddr, &dst.raw[12], 4), 0)
        << "IPv4 destination address";
  } else {
    ip6_hdr ip6;
    memcpy(&ip6, grh, sizeof(ip6));
    EXPECT_EQ(grh[0] >> 4, 6);
    EXPECT_EQ(ip6.ip6_nxt, IPPROTO_UDP);
    EXPECT_EQ(memcmp(&ip6.ip6_src, src.raw, 16), 0) << "IPv6 source address";
    EXPECT_EQ(memcmp(&ip6.ip6_dst, dst.raw, 16), 0)
        << "IPv6 destination address";
  }
}

TEST_P(Ud, SendReceiveWithGrh) {
  const uint32_t sizes[] = {0, 1, 63, 1000, mtu};
  uint32_t id = 0;
  for (uint32_t size : sizes) {
    for (bool imm : {false, true}) {
      id++;
      SCOPED_TRACE(::testing::Message()
                   << "size " << size << (imm ? " with imm" : ""));
      const size_t roff = 8192, loff = 4096 - 7;
      FillRandom(la.buf.span(loff, size), id);
      FillRandom(lb.buf.span(roff - 64, kGrh + size + 128), 1000 + id);
      std::vector<uint8_t> after(lb.data(roff + kGrh + size),
                                 lb.data(roff + kGrh + size + 64));
      std::vector<uint8_t> before(lb.data(roff - 64), lb.data(roff));
      ibv_sge rs = lb.sge(roff, kGrh + size);
      ASSERT_EQ(PostRecv(b.qp.get(), id, &rs, 1), 0);
      ibv_sge s = la.sge(loff, size);
      ibv_send_wr wr = UdWr(id, &s, ah_to_b.get(), b.qpn(), kQkey,
                            imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND);
      wr.imm_data = htonl(0xabc00000 + id);
      ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
      ibv_wc wc;
      ASSERT_TRUE(PollOne(b.rcq.get(), &wc));
      ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
      EXPECT_EQ(wc.wr_id, id);
      EXPECT_EQ(wc.opcode, IBV_WC_RECV);
      EXPECT_EQ(wc.byte_len, kGrh + size);
      EXPECT_EQ(wc.qp_num, b.qpn());
      EXPECT_EQ(wc.src_qp, a.qpn());
      EXPECT_TRUE(wc.wc_flags & IBV_WC_GRH) << WcString(wc);
      EXPECT_EQ(!!(wc.wc_flags & IBV_WC_WITH_IMM), imm) << WcString(wc);
      if (imm) {
        EXPECT_EQ(wc.imm_data, htonl(0xabc00000 + id));
      }
      EXPECT_EQ(wc.pkey_index, 0);
      if (b_.dev->IsRue()) {
        EXPECT_EQ(wc.sl, RoceV2Sl(a_)) << WcString(wc);  // rxe gives 0
      }
      CheckGrh(lb.data(roff), a_, b_);
      EXPECT_TRUE(
          SameBytes(lb.buf.span(roff + kGrh, size), la.buf.span(loff, size)))
          << "payload";
      EXPECT_TRUE(SameBytes(lb.buf.span(roff - 64, 64), before))
          << "before the buffer";
      EXPECT_TRUE(SameBytes(lb.buf.span(roff + kGrh + size, 64), after))
          << "after the buffer";
      ASSERT_TRUE(PollOne(a.scq.get(), &wc));
      EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
      EXPECT_EQ(wc.wr_id, id);
      EXPECT_EQ(wc.opcode, IBV_WC_SEND);
    }
  }
}

// The GRH and the payload scattered over several receive SGEs.
TEST_P(Ud, ScatterGrhAndPayload) {
  const uint32_t size = 900;
  FillRandom(la.buf.span(0, size), 5);
  FillRandom(lb.buf.span(0, 16384), 6);
  ibv_sge rs[3] = {lb.sge(100, 16), lb.sge(4090, 500), lb.sge(9000, 1000)};
  ASSERT_EQ(PostRecv(b.qp.get(), 1, rs, 3), 0);
  ibv_sge s[2] = {la.sge(0, 300), la.sge(300, size - 300)};
  ibv_send_wr wr = UdWr(1, s, ah_to_b.get(), b.qpn(), kQkey);
  wr.num_sge = 2;
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, kGrh + size);
  std::vector<uint8_t> got(lb.data(100), lb.data(116));
  got.insert(got.end(), lb.data(4090), lb.data(4590));
  got.insert(got.end(), lb.data(9000), lb.data(9000 + kGrh + size - 516));
  CheckGrh(got.data(), a_, b_);
  EXPECT_TRUE(SameBytes(std::span(got).subspan(kGrh), la.buf.span(0, size)));
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
}

// ibv_create_ah_from_wc() on the receiver builds an AH back to the sender.
TEST_P(Ud, ReplyThroughAhFromCompletion) {
  ibv_sge rs = lb.sge(0, kGrh + 64);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_sge s = la.sge(0, 64);
  ibv_send_wr wr = UdWr(1, &s, ah_to_b.get(), b.qpn(), kQkey);
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ibv_wc rwc, wc;
  ASSERT_TRUE(PollOne(b.rcq.get(), &rwc));
  ASSERT_EQ(rwc.status, IBV_WC_SUCCESS) << WcString(rwc);
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
  Ah back(ibv_create_ah_from_wc(b.pd.get(), &rwc,
                                reinterpret_cast<ibv_grh*>(lb.data(0)), 1));
  ASSERT_TRUE(back) << "ibv_create_ah_from_wc: " << strerror(errno);

  ibv_sge ars = la.sge(8192, kGrh + 32);
  ASSERT_EQ(PostRecv(a.qp.get(), 3, &ars, 1), 0);
  FillRandom(lb.buf.span(4096, 32), 7);
  ibv_sge bs = lb.sge(4096, 32);
  ibv_send_wr reply = UdWr(4, &bs, back.get(), rwc.src_qp, kQkey);
  ASSERT_EQ(PostSend(b.qp.get(), &reply), 0);
  ASSERT_TRUE(PollOne(a.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.src_qp, b.qpn());
  EXPECT_EQ(wc.byte_len, kGrh + 32);
  CheckGrh(la.data(8192), b_, a_);
  EXPECT_TRUE(SameBytes(la.buf.span(8192 + kGrh, 32), lb.buf.span(4096, 32)));
  ASSERT_TRUE(PollOne(b.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
}

// A datagram with the wrong Q_Key is silently dropped; the QP goes on.
TEST_P(Ud, WrongQkeyDropped) {
  ibv_sge rs = lb.sge(0, kGrh + 64);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_sge s = la.sge(0, 64);
  ibv_send_wr wr = UdWr(1, &s, ah_to_b.get(), b.qpn(), kQkey + 1);
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS)
      << "a UD send completes: " << WcString(wc);
  EXPECT_TRUE(NoCompletion(b.rcq.get(), milliseconds(200)))
      << "datagram with the wrong Q_Key delivered";
  // The receive is still there for the right Q_Key.
  FillRandom(la.buf.span(0, 64), 9);
  wr = UdWr(2, &s, ah_to_b.get(), b.qpn(), kQkey);
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ASSERT_TRUE(PollOne(b.rcq.get(), &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.wr_id, 1u);
  EXPECT_TRUE(SameBytes(lb.buf.span(kGrh, 64), la.buf.span(0, 64)));
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
}

// A datagram is one packet: more than the path MTU is an error
// (rejected at post time, or completed with IBV_WC_LOC_LEN_ERR), and
// nothing arrives.
TEST_P(Ud, LargerThanMtuFails) {
  ibv_sge rs = lb.sge(0, kGrh + 2 * mtu);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_sge s = la.sge(0, mtu + 1);
  ibv_send_wr wr = UdWr(1, &s, ah_to_b.get(), b.qpn(), kQkey);
  int ret = PostSend(a.qp.get(), &wr);
  if (ret == 0) {
    ibv_wc wc;
    ASSERT_TRUE(PollOne(a.scq.get(), &wc));
    EXPECT_EQ(wc.status, IBV_WC_LOC_LEN_ERR) << WcString(wc);
  } else {
    EXPECT_EQ(ret, EINVAL);
  }
  EXPECT_TRUE(NoCompletion(b.rcq.get(), milliseconds(100)))
      << "oversized datagram arrived";
}

// A receive buffer that cannot hold GRH and payload completes in error.
TEST_P(Ud, ReceiveBufferTooSmall) {
  FillRandom(lb.buf.span(0, 8192), 3);
  std::vector<uint8_t> after(lb.data(kGrh + 10), lb.data(kGrh + 10 + 512));
  ibv_sge rs = lb.sge(0, kGrh + 10);
  ASSERT_EQ(PostRecv(b.qp.get(), 1, &rs, 1), 0);
  ibv_sge s = la.sge(0, 100);
  ibv_send_wr wr = UdWr(1, &s, ah_to_b.get(), b.qpn(), kQkey);
  ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  ibv_wc wc;
  ASSERT_TRUE(PollOne(b.rcq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_LOC_LEN_ERR) << WcString(wc);
  EXPECT_EQ(wc.wr_id, 1u);
  EXPECT_TRUE(SameBytes(lb.buf.span(kGrh + 10, 512), after))
      << "past the receive buffer";
  ASSERT_TRUE(PollOne(a.scq.get(), &wc));
}

// UD QPs take SEND only.
TEST_P(Ud, RdmaOpcodesRejected) {
  ibv_sge s = la.sge(0, 8);
  for (ibv_wr_opcode op :
       {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ, IBV_WR_ATOMIC_FETCH_AND_ADD}) {
    ibv_send_wr wr = UdWr(1, &s, ah_to_b.get(), b.qpn(), kQkey, op);
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(PostSend(a.qp.get(), &wr, &bad), EINVAL) << "opcode " << op;
    EXPECT_EQ(bad, &wr);
  }
  EXPECT_TRUE(NoCompletion(a.scq.get(), milliseconds(20)));
}

// A burst of datagrams of different sizes, all delivered intact and in
// order (a lossless veth, receives posted in advance).
TEST_P(Ud, Burst) {
  constexpr uint32_t kN = 100;
  auto size = [&](uint32_t i) { return (i * 37) % (mtu + 1); };
  FillRandom(la.buf.span(), 11);
  for (uint32_t i = 0; i < kN; i++) {
    ibv_sge rs = lb.sge(i * 2048, kGrh + mtu);
    ASSERT_EQ(PostRecv(b.qp.get(), i, &rs, 1), 0);
  }
  for (uint32_t i = 0; i < kN; i++) {
    ibv_sge s = la.sge(i * 2048, size(i));
    ibv_send_wr wr = UdWr(i, &s, ah_to_b.get(), b.qpn(), kQkey);
    wr.send_flags = i % 10 == 9 ? IBV_SEND_SIGNALED : 0;
    ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
  }
  std::vector<ibv_wc> wcs;
  ASSERT_TRUE(PollCq(b.rcq.get(), kN, &wcs));
  for (uint32_t i = 0; i < kN; i++) {
    EXPECT_EQ(wcs[i].status, IBV_WC_SUCCESS) << WcString(wcs[i]);
    EXPECT_EQ(wcs[i].wr_id, i);
    EXPECT_EQ(wcs[i].byte_len, kGrh + size(i));
    EXPECT_TRUE(SameBytes(lb.buf.span(i * 2048 + kGrh, size(i)),
                          la.buf.span(i * 2048, size(i))))
        << "datagram " << i;
  }
  ASSERT_TRUE(PollCq(a.scq.get(), kN / 10, &wcs));
  EXPECT_TRUE(NoCompletion(a.scq.get(), milliseconds(10)));
}

RUE_TOPOLOGIES_WITH_IPV6(Ud);

}  // namespace
}  // namespace rue::test
