// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A local user owns its SRQ's mapped ring and may rewrite the producer
// index at any time (kernel/core/srq.c, rue_srq_take()).  Moved past the
// ring's size, or backwards below what the kernel already consumed, the
// index is garbage: the kernel reads no slot for it, the QP whose SEND
// needed a WQE NAKs it (remote operational error) and goes to the error
// state, and everything is destroyed as usual afterwards.
#include <atomic>

#include "tests/hostile.h"
#include "tests/ring_maps.h"

namespace rue::test {
namespace {

using wire::NakCode;
using wire::Opcode;

constexpr uint32_t P = kPeerPsn;
constexpr uint64_t kWrId = 0x5f0000;  // of the first WQE; then +1 each
constexpr uint32_t kPosted = 4;

class HostileSrq : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    pd_.reset(ibv_alloc_pd(dev_->ctx));
    ASSERT_TRUE(pd_) << "ibv_alloc_pd: " << strerror(errno);
    ibv_srq_init_attr init{};
    init.attr.max_wr = 16;
    init.attr.max_sge = 1;
    std::vector<Mapping> before = UverbsMappings();
    srq_.reset(ibv_create_srq(pd_.get(), &init));
    ASSERT_TRUE(srq_) << "ibv_create_srq: " << strerror(errno);
    slots_ = init.attr.max_wr;
    ASSERT_NO_FATAL_FAILURE(MakeRegion(pd_.get(), 4096, kAllAccess, &r_));
    for (uint32_t i = 0; i < kPosted; i++) {
      ibv_sge s = r_.sge(0, 4096);
      ibv_recv_wr wr{};
      wr.wr_id = kWrId + i;
      wr.sg_list = &s;
      wr.num_sge = 1;
      ibv_recv_wr* bad = nullptr;
      ASSERT_EQ(ibv_post_srq_recv(srq_.get(), &wr, &bad), 0);
    }
    ring_ = FindRing(before, UverbsMappings(), kPosted, kWrId);
    ASSERT_NE(ring_, nullptr) << "no new uverbs mapping holds the SRQ";

    QpOptions o;
    o.pd = pd_.get();
    o.srq = srq_.get();
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
  }

  // The QP goes before the SRQ and PD it uses.
  void TearDown() override { t_.qp.reset(); }

  void SetProd(uint32_t prod) {
    std::atomic_ref<uint32_t>(ring_->prod).store(prod,
                                                 std::memory_order_release);
  }
  uint32_t Cons() {
    return std::atomic_ref<uint32_t>(ring_->cons).load(
        std::memory_order_acquire);
  }

  // A SEND_ONLY of 100 bytes at @psn, and the answer to it.
  ::testing::AssertionResult SendAnswered(uint32_t psn, bool nak) {
    Inject(Request(Opcode::kRcSendOnly, psn, true), Bytes(100, 0x3c));
    return WaitAnswer([&](const Answer& a) {
      return nak ? IsNak(a, psn, NakCode::kRemoteOperationalError)
                 : IsAck(a, psn);
    });
  }

  Pd pd_;
  Srq srq_;
  Region r_;
  rue_ring_hdr* ring_ = nullptr;
  uint32_t slots_ = 0;
};

TEST_F(HostileSrq, ProducerIndexPastTheRing) {
  SetProd(kPosted + slots_ + 1);
  EXPECT_TRUE(SendAnswered(P, true));
  EXPECT_TRUE(QpReaches(t_.qp.get(), IBV_QPS_ERR));
  EXPECT_EQ(Cons(), 0u) << "a WQE was consumed for a garbage index";
  EXPECT_TRUE(NoCompletion(t_.RecvCq(), milliseconds(100)));
}

TEST_F(HostileSrq, ProducerIndexMovedBackwards) {
  EXPECT_TRUE(SendAnswered(P, false));
  ibv_wc wc;
  ASSERT_TRUE(PollOne(t_.RecvCq(), &wc));
  EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.wr_id, kWrId);
  ASSERT_EQ(Cons(), 1u);
  SetProd(0);  // below the consumer
  EXPECT_TRUE(SendAnswered(P + 1, true));
  EXPECT_TRUE(QpReaches(t_.qp.get(), IBV_QPS_ERR));
  EXPECT_EQ(Cons(), 1u) << "a WQE was consumed for a garbage index";
  EXPECT_TRUE(NoCompletion(t_.RecvCq(), milliseconds(100)));
}

}  // namespace
}  // namespace rue::test
