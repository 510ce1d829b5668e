// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A local user owns the rings mapped into its process and may rewrite any
// index at any time.  Here it moves its send queue's producer index
// backwards, below WQEs the kernel already fetched and sent, and then
// asks for the error state, whose flush reads the index once more
// (kernel/core/sq.c, rue_sq_prod()).  The kernel must not believe it:
// every WQE posted completes, flushed, and the QP, its MR and its PD go
// away as usual.  A kernel that believed it fetched until its head
// wrapped around to the index - 2^32 WQEs, with bottom halves off.
// Found at the next doorbell instead, the lie is the QP's fatal error.
#include <rdma/ib_user_verbs.h>
#include <unistd.h>

#include <atomic>

#include "tests/hostile.h"
#include "tests/ring_maps.h"

namespace rue::test {
namespace {

constexpr uint64_t kWrId = 0x5e0000;  // of the first WQE; then +1 each
constexpr uint32_t kPosted = 8;
constexpr uint32_t kBackwards = 4;  // between tail (0) and head (8)

class HostileSq : public HostileTest {
 protected:
  // Posts kPosted SENDs that the kernel fetches and sends and the peer
  // never acknowledges, then moves the producer index backwards.
  void PostThenMoveBackwards(Region* l) {
    QpOptions o;
    o.max_send_wr = 16;
    o.timeout = 0;  // infinite: the peer never answers, nothing retries
    std::vector<Mapping> before = UverbsMappings();
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    std::vector<Mapping> after = UverbsMappings();
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), 4096, kAllAccess, l));

    // One post, one doorbell: the kernel fetches all of them in one run.
    // Posted one at a time, the second and later would find the SQ armed
    // behind the first, unacknowledged message (kernel/roce/rc_req.c,
    // rue_req_tx()) and wait, without a doorbell, for an ACK this peer
    // never sends.
    std::vector<ibv_sge> sges(kPosted);
    std::vector<ibv_send_wr> wrs(kPosted);
    for (uint32_t i = 0; i < kPosted; i++) {
      sges[i] = l->sge(64 * i, 64);
      wrs[i] = SendWr(kWrId + i, IBV_WR_SEND, &sges[i], 1);
      if (i) wrs[i - 1].next = &wrs[i];
    }
    ASSERT_EQ(PostSend(t_.qp.get(), wrs.data()), 0);
    // All on the wire: fetched, sent, never acknowledged.
    ASSERT_TRUE(peer_->WaitCount(peer_qpn_, kPosted, milliseconds(5000)));
    EXPECT_TRUE(NoCompletion(t_.SendCq(), milliseconds(50)));

    rue_ring_hdr* ring = FindRing(before, after, kPosted, kWrId);
    ASSERT_NE(ring, nullptr) << "no new uverbs mapping holds the send queue";
    std::atomic_ref<uint32_t>(ring->prod)
        .store(kBackwards, std::memory_order_release);
  }

  // Every WQE posted completes flushed, once.
  void ExpectAllFlushed() {
    std::vector<ibv_wc> wcs;
    ASSERT_TRUE(PollCq(t_.SendCq(), kPosted, &wcs));
    for (uint32_t i = 0; i < kPosted; i++) {
      EXPECT_EQ(wcs[i].wr_id, kWrId + i) << WcString(wcs[i]);
      EXPECT_EQ(wcs[i].status, IBV_WC_WR_FLUSH_ERR) << WcString(wcs[i]);
    }
    EXPECT_TRUE(NoCompletion(t_.SendCq(), milliseconds(50)));
  }

  // Released in order, each reporting a failure itself (verbs.h).
  void Release(Region* l) {
    l->mr.reset();
    t_.qp.reset();
    t_.scq.reset();
    t_.rcq.reset();
    t_.pd.reset();
  }
};

TEST_F(HostileSq, SendQueueProducerIndexMovedBackwards) {
  Region l;
  ASSERT_NO_FATAL_FAILURE(PostThenMoveBackwards(&l));
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  auto start = Clock::now();
  ASSERT_EQ(ibv_modify_qp(t_.qp.get(), &attr, IBV_QP_STATE), 0);
  auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
  EXPECT_LT(took.count(), 1000)
      << "modify_qp(ERR) took " << took.count() << " ms";

  ExpectAllFlushed();
  Release(&l);
}

// The same lie, found by the kernel when the doorbell rings (the next
// post): a Local Work Queue Catastrophic Error (IBTA 11.6.3.1).  The QP
// moves to the error state on its own and raises IBV_EVENT_QP_FATAL,
// and every WQE completes flushed.  The doorbell is rung here as the
// provider rings it (userspace/provider/qp.c): a POST_SEND command with
// no work request; a post through the provider would first write its
// own producer index over the lie.
TEST_F(HostileSq, SendQueueProducerIndexLieIsQpFatal) {
  Region l;
  AsyncEvents& events = *dev_->events;
  size_t mark = events.Mark();
  ASSERT_NO_FATAL_FAILURE(PostThenMoveBackwards(&l));
  ib_uverbs_cmd_hdr hdr{};
  ib_uverbs_post_send_resp resp{};
  ib_uverbs_post_send post{};
  hdr.command = IB_USER_VERBS_CMD_POST_SEND;
  hdr.in_words = (sizeof(hdr) + sizeof(post)) / 4;
  hdr.out_words = sizeof(resp) / 4;
  post.response = reinterpret_cast<uintptr_t>(&resp);
  post.qp_handle = t_.qp->handle;
  post.wqe_size = sizeof(ib_uverbs_send_wr);
  uint8_t cmd[sizeof(hdr) + sizeof(post)];
  memcpy(cmd, &hdr, sizeof(hdr));
  memcpy(cmd + sizeof(hdr), &post, sizeof(post));
  ASSERT_EQ(write(t_.qp->context->cmd_fd, cmd, sizeof(cmd)),
            static_cast<ssize_t>(sizeof(cmd)))
      << strerror(errno);

  EXPECT_TRUE(
      events.Wait(mark, IBV_EVENT_QP_FATAL, t_.qp.get(), milliseconds(3000)))
      << "no IBV_EVENT_QP_FATAL";
  ibv_qp_attr attr{};
  ibv_qp_init_attr init{};
  ASSERT_EQ(ibv_query_qp(t_.qp.get(), &attr, IBV_QP_STATE, &init), 0);
  EXPECT_EQ(attr.qp_state, IBV_QPS_ERR);
  ExpectAllFlushed();
  Release(&l);
}

}  // namespace
}  // namespace rue::test
