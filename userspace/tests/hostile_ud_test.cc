// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A remote sender aims at the multicast QPN (kernel/roce/mcast.c) with a
// UD QP of the target attached to a group:
//  - a UD SEND to QPN 0xFFFFFF at the target's unicast address names no
//    group: dropped and counted as an unknown QP, nothing received;
//  - an RC SEND to QPN 0xFFFFFF: dropped and counted as a bad opcode;
// and the attached QP still takes a datagram to its own QPN.
#include <cstring>

#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr uint32_t kQkey = 0x33333333;
constexpr uint32_t kMulticastQpn = 0xffffff;

class HostileUd : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    QpOptions o;
    o.type = IBV_QPT_UD;
    o.qkey = kQkey;
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_EQ(ModifyUdToRts(t_), 0);
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(t_.pd.get(), 4 * 4096, kAllAccess, &r_));
    // 239.1.2.77, v4-mapped
    group_.raw[10] = group_.raw[11] = 0xff;
    group_.raw[12] = 239;
    group_.raw[13] = 1;
    group_.raw[14] = 2;
    group_.raw[15] = 77;
    ASSERT_EQ(ibv_attach_mcast(t_.qp.get(), &group_, 0), 0);
  }

  void TearDown() override {
    if (t_.qp) {
      // uverbs refuses to destroy a QP still attached
      EXPECT_EQ(ibv_detach_mcast(t_.qp.get(), &group_, 0), 0);
    }
    HostileTest::TearDown();
  }

  // A UD SEND from the peer's QP 0x123 to @qpn, sent once the previous
  // packet was taken (rx_packets).
  void SendTo(Opcode op, uint32_t qpn, uint8_t fill) {
    const int64_t rx = Counter("rx_packets");
    wire::RoceHeaders h = Request(op, 0);
    h.bth.dest_qp = qpn;
    if (h.deth) {
      h.deth->qkey = kQkey;
      h.deth->src_qp = 0x123;
    }
    ASSERT_NO_FATAL_FAILURE(Inject(h, Bytes(64, fill)));
    ASSERT_TRUE(CounterReaches(*dev_, "rx_packets", rx + 1));
  }

  Region r_;
  ibv_gid group_{};
};

TEST_F(HostileUd, MulticastQpnWithoutAGroupIsDropped) {
  ibv_sge rs = r_.sge(0, 40 + 64);
  ASSERT_EQ(PostRecv(t_.qp.get(), 1, &rs, 1), 0);
  const int64_t unknown = Counter("rx_drop_unknown_qp");
  const int64_t opcode = Counter("rx_drop_opcode");
  ASSERT_NO_FATAL_FAILURE(SendTo(Opcode::kUdSendOnly, kMulticastQpn, 0xa1));
  ASSERT_NO_FATAL_FAILURE(SendTo(Opcode::kRcSendOnly, kMulticastQpn, 0xb2));
  EXPECT_EQ(Counter("rx_drop_unknown_qp"), unknown + 1);
  EXPECT_EQ(Counter("rx_drop_opcode"), opcode + 1);
  EXPECT_TRUE(NoCompletion(t_.rcq.get(), milliseconds(200)))
      << "a datagram to the multicast QPN at a unicast address delivered";

  // the QP itself is unharmed
  ASSERT_NO_FATAL_FAILURE(SendTo(Opcode::kUdSendOnly, t_.qpn(), 0xc3));
  ibv_wc wc;
  ASSERT_TRUE(PollOne(t_.rcq.get(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.byte_len, 40u + 64);
  EXPECT_EQ(wc.src_qp, 0x123u);
  EXPECT_TRUE(SameBytes(r_.buf.span(40, 64), Bytes(64, 0xc3)));
}

}  // namespace
}  // namespace rue::test
