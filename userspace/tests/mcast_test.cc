// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UD multicast: UD QPs attached to a group (IBTA 10.5) each receive the
// datagrams sent to the group's GID with the multicast QPN, behind a GRH
// naming the group; a QP not attached, or detached, receives nothing.
// Attach and detach follow rdma_rxe's rules: only UD QPs, only multicast
// GIDs, attaching twice is no error, detaching what is not attached is,
// and a group takes max_mcast_qp_attach QPs.
#include <arpa/inet.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>

#include <cstring>
#include <memory>
#include <vector>

#include "tests/fixture.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

constexpr uint32_t kGrh = 40;
constexpr uint32_t kQkey = 0x22222222;
constexpr uint32_t kMulticastQpn = 0xffffff;

bool IsV4(const ibv_gid& gid) {
  return memcmp(gid.raw, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12) == 0;
}

// A group of the address family of @like: 239.1.2.<n> or ff0e::4242:<n>.
ibv_gid Group(const ibv_gid& like, uint8_t n) {
  ibv_gid g{};
  if (IsV4(like)) {
    g.raw[10] = g.raw[11] = 0xff;
    g.raw[12] = 239;
    g.raw[13] = 1;
    g.raw[14] = 2;
  } else {
    g.raw[0] = 0xff;
    g.raw[1] = 0x0e;
    g.raw[13] = 0x42;
    g.raw[14] = 0x42;
  }
  g.raw[15] = n;
  return g;
}

class Multicast : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.type = IBV_QPT_UD;
    o.qkey = kQkey;
    ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &a));
    ASSERT_EQ(ModifyUdToRts(a), 0);
    ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &b));
    ASSERT_EQ(ModifyUdToRts(b), 0);
    group = Group(b_.gid(), 1);
    ibv_ah_attr attr = AhAttr(a_, group);
    attr.grh.hop_limit = 1;
    ah_to_group.reset(ibv_create_ah(a.pd.get(), &attr));
    ASSERT_TRUE(ah_to_group) << "ibv_create_ah: " << strerror(errno);
    ASSERT_NO_FATAL_FAILURE(MakeRegion(a.pd.get(), 16 * 4096, kAllAccess, &la));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(b.pd.get(), 64 * 4096, kAllAccess, &lb));
  }

  // Another UD QP on b's side, in b's PD, with CQs of its own.
  void MoreReceivers(int n) {
    for (int i = 0; i < n; i++) {
      QpOptions o;
      o.type = IBV_QPT_UD;
      o.qkey = kQkey;
      o.pd = b.pd.get();
      auto s = std::make_unique<Side>();
      ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, s.get()));
      ASSERT_EQ(ModifyUdToRts(*s), 0);
      more.push_back(std::move(s));
    }
  }

  // Send @size bytes at offset @off of la to the group; completes.
  void SendToGroup(uint64_t id, size_t off, uint32_t size) {
    ibv_sge s = la.sge(off, size);
    ibv_send_wr wr = SendWr(id, IBV_WR_SEND, &s, size ? 1 : 0);
    wr.wr.ud.ah = ah_to_group.get();
    wr.wr.ud.remote_qpn = kMulticastQpn;
    wr.wr.ud.remote_qkey = kQkey;
    ASSERT_EQ(PostSend(a.qp.get(), &wr), 0);
    ibv_wc wc;
    ASSERT_TRUE(PollOne(a.scq.get(), &wc));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  }

  // One datagram of @size from la at @off arrived at @s in lb at @roff.
  void ExpectDatagram(Side& s, uint64_t id, size_t roff, size_t off,
                      uint32_t size) {
    ibv_wc wc;
    ASSERT_TRUE(PollOne(s.RecvCq(), &wc)) << "QP " << s.qpn();
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.wr_id, id);
    EXPECT_EQ(wc.byte_len, kGrh + size);
    EXPECT_EQ(wc.qp_num, s.qpn());
    EXPECT_EQ(wc.src_qp, a.qpn());
    EXPECT_TRUE(wc.wc_flags & IBV_WC_GRH);
    const uint8_t* grh = lb.data(roff);
    if (IsV4(group)) {
      iphdr ip;
      memcpy(&ip, grh + 20, sizeof(ip));
      EXPECT_EQ(memcmp(&ip.daddr, &group.raw[12], 4), 0)
          << "the GRH names the group";
    } else {
      ip6_hdr ip6;
      memcpy(&ip6, grh, sizeof(ip6));
      EXPECT_EQ(memcmp(&ip6.ip6_dst, group.raw, 16), 0)
          << "the GRH names the group";
    }
    EXPECT_TRUE(SameBytes(lb.buf.span(roff + kGrh, size),
                          la.buf.span(off, size)))
        << "payload at QP " << s.qpn();
  }

  Side a, b;
  std::vector<std::unique_ptr<Side>> more;
  ibv_gid group{};
  Ah ah_to_group;
  Region la, lb;
};

TEST_P(Multicast, AttachAndDetachRules) {
  ibv_qp* qp = b.qp.get();
  EXPECT_EQ(ibv_attach_mcast(qp, &group, 0), 0);
  EXPECT_EQ(ibv_attach_mcast(qp, &group, 0), 0) << "attached twice";
  ibv_gid other = Group(group, 2);
  EXPECT_EQ(ibv_attach_mcast(qp, &other, 0), 0) << "a second group";
  ibv_gid unicast = b_.gid();
  EXPECT_EQ(ibv_attach_mcast(qp, &unicast, 0), EINVAL) << "a unicast GID";
  EXPECT_EQ(ibv_detach_mcast(qp, &unicast, 0), EINVAL);
  EXPECT_EQ(ibv_detach_mcast(qp, &group, 0), 0);
  EXPECT_EQ(ibv_detach_mcast(qp, &group, 0), EINVAL) << "detached twice";
  EXPECT_EQ(ibv_detach_mcast(a.qp.get(), &other, 0), EINVAL)
      << "a QP that never attached";
  // uverbs refuses to destroy a QP still attached (EBUSY)
  EXPECT_EQ(ibv_detach_mcast(qp, &other, 0), 0);

  QpOptions o;  // RC
  Side rc;
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &rc));
  EXPECT_EQ(ibv_attach_mcast(rc.qp.get(), &group, 0), EINVAL) << "an RC QP";
}

TEST_P(Multicast, DeliveredToEveryAttachedQp) {
  constexpr int kN = 8;
  constexpr uint32_t kSize = 1000;
  ASSERT_NO_FATAL_FAILURE(MoreReceivers(2));
  Side& r1 = *more[0];
  Side& r2 = *more[1];  // never attached
  ASSERT_EQ(ibv_attach_mcast(b.qp.get(), &group, 0), 0);
  ASSERT_EQ(ibv_attach_mcast(r1.qp.get(), &group, 0), 0);
  Side* rcv[] = {&b, &r1, &r2};
  for (int q = 0; q < 3; q++)
    for (int i = 0; i < kN + 1; i++) {
      ibv_sge rs = lb.sge((q * 16 + i) * 2048, kGrh + kSize);
      ASSERT_EQ(PostRecv(rcv[q]->qp.get(), i, &rs, 1), 0);
    }
  FillRandom(la.buf.span(), 7);
  for (int i = 0; i < kN; i++)
    ASSERT_NO_FATAL_FAILURE(SendToGroup(i, i * 2048, kSize));
  for (int q = 0; q < 2; q++)
    for (int i = 0; i < kN; i++)
      ASSERT_NO_FATAL_FAILURE(ExpectDatagram(*rcv[q], i,
                                             (q * 16 + i) * 2048,
                                             i * 2048, kSize));
  EXPECT_TRUE(NoCompletion(r2.RecvCq(), milliseconds(200)))
      << "a QP not attached received a datagram to the group";

  // Detached, b receives no more; r1 still does.
  ASSERT_EQ(ibv_detach_mcast(b.qp.get(), &group, 0), 0);
  ASSERT_NO_FATAL_FAILURE(SendToGroup(kN, kN * 2048, kSize));
  ASSERT_NO_FATAL_FAILURE(
      ExpectDatagram(r1, kN, (16 + kN) * 2048, kN * 2048, kSize));
  EXPECT_TRUE(NoCompletion(b.rcq.get(), milliseconds(200)))
      << "a detached QP received a datagram to the group";
  ASSERT_EQ(ibv_detach_mcast(r1.qp.get(), &group, 0), 0);
}

// A group takes max_mcast_qp_attach QPs; one more is refused, and a
// place freed by a detach is taken again.
TEST_P(Multicast, QpsPerGroupLimited) {
  ibv_device_attr attr;
  ASSERT_EQ(ibv_query_device(b_.ctx(), &attr), 0);
  ASSERT_GT(attr.max_mcast_qp_attach, 0);
  ASSERT_GT(attr.max_mcast_grp, 0);
  ASSERT_GE(attr.max_total_mcast_qp_attach,
            attr.max_mcast_qp_attach * attr.max_mcast_grp);
  ASSERT_LE(attr.max_mcast_qp_attach, 256) << "too many QPs to test";
  ASSERT_NO_FATAL_FAILURE(MoreReceivers(attr.max_mcast_qp_attach));
  for (int i = 0; i < attr.max_mcast_qp_attach; i++)
    ASSERT_EQ(ibv_attach_mcast(more[i]->qp.get(), &group, 0), 0) << i;
  EXPECT_EQ(ibv_attach_mcast(b.qp.get(), &group, 0), ENOMEM);
  ASSERT_EQ(ibv_detach_mcast(more[0]->qp.get(), &group, 0), 0);
  EXPECT_EQ(ibv_attach_mcast(b.qp.get(), &group, 0), 0);
  EXPECT_EQ(ibv_detach_mcast(b.qp.get(), &group, 0), 0);
  for (int i = 1; i < attr.max_mcast_qp_attach; i++)
    EXPECT_EQ(ibv_detach_mcast(more[i]->qp.get(), &group, 0), 0) << i;
}

RUE_TOPOLOGIES_WITH_IPV6(Multicast);

}  // namespace
}  // namespace rue::test
