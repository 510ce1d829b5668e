// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A local user owns the rings mapped into its process and may rewrite
// any byte of them at any time, while the kernel reads them (rue-abi.h:
// the kernel copies a slot before it looks at it, validates the copy
// and bounds every index it reads).  Here a thread writes random values
// into every ring of a victim RC QP on device A - its send and receive
// queues and both CQs: the producer and consumer indices, the flags, the
// state mirror and the slots - while the test rings the victim's
// doorbells (POST_SEND and POST_RECV commands with no work request, as
// librue rings them) and posts through librue, and the victim's peer on
// device B sends it SENDs, WRITEs and READs.  Then the victim is moved to
// the error state and destroyed; round after round with new victims.
// Meanwhile a bystander RC pair on the same two devices moves data: a
// WRITE of a fresh pattern and a READ of it back, every eighth step.
//
// What must hold: every system call returns; the bystander's every work
// request succeeds with its data intact, round after round; the guest
// console stays clean (selftests/rue_hostile.sh), and the suite's last
// case finds every QP and MR released.  The victim's own completions are
// not read: its CQs are scribbled, so librue's poll would read garbage.
// RUE_FUZZ_SEED replays a run (the seed is printed); RUE_RING_FUZZ_ROUNDS
// sets the rounds (12).
#include <rdma/ib_user_verbs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <random>
#include <thread>

#include "tests/conn.h"
#include "tests/env.h"
#include "tests/fixture.h"
#include "tests/pattern.h"
#include "tests/ring_maps.h"

namespace rue::test {
namespace {

constexpr size_t kMem = 1 << 16;
constexpr auto kScribble = milliseconds(300);

// Writes random 32-bit values into the mappings until told to stop.
class Scribbler {
 public:
  Scribbler(std::vector<Mapping> rings, uint64_t seed)
      : rings_(std::move(rings)), rng_(seed) {}

  void Start() {
    thread_ = std::thread([this] { Run(); });
  }
  uint64_t Stop() {
    stop_.store(true);
    thread_.join();
    return writes_;
  }

 private:
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }

  // Near what is there (an index a few slots off, or half the counter
  // space away), or anything.
  uint32_t Value(uint32_t cur) {
    switch (Below(6)) {
      case 0:
        return cur + Below(9) - 4;
      case 1:
        return cur + 0x80000000u;
      case 2:
        return 0;
      case 3:
        return 0xffffffffu;
      case 4:
        return Below(8);
      default:
        return static_cast<uint32_t>(rng_());
    }
  }

  void Run() {
    static const size_t header[] = {
        offsetof(rue_ring_hdr, prod), offsetof(rue_ring_hdr, cons),
        offsetof(rue_ring_hdr, flags), offsetof(rue_ring_hdr, state)};
    while (!stop_.load(std::memory_order_relaxed)) {
      const Mapping& m = rings_[Below(static_cast<uint32_t>(rings_.size()))];
      size_t off = Below(2)
                       ? header[Below(4)]
                       : RUE_RING_DATA_OFFSET +
                             4 * Below(static_cast<uint32_t>(
                                     (m.length - RUE_RING_DATA_OFFSET) / 4));
      auto* word = reinterpret_cast<uint32_t*>(m.start + off);
      std::atomic_ref<uint32_t> w(*word);
      w.store(Value(w.load(std::memory_order_relaxed)),
              std::memory_order_release);
      writes_++;
      if (Below(4) == 0)
        std::this_thread::sleep_for(std::chrono::microseconds(Below(200)));
    }
  }

  std::vector<Mapping> rings_;
  std::mt19937_64 rng_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  uint64_t writes_ = 0;
};

class HostileRingFuzz : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!ResolveTopology(Topology::kTwoDevices, &a_, &b_, &why))
      GTEST_SKIP() << why;
    seed_ = FuzzSeed();
    rounds_ = EnvOr("RUE_RING_FUZZ_ROUNDS", 12);
    rng_.seed(seed_);
  }

  // A doorbell as librue rings it (userspace/provider/qp.c): the core's
  // POST_SEND or POST_RECV command with no work request.  Its result is
  // the kernel's business; it must return.
  template <typename Post, typename Resp>
  static void RingDoorbell(ibv_qp* qp, uint32_t command, uint32_t wqe_size) {
    struct {
      ib_uverbs_cmd_hdr hdr;
      Post post;
    } c{};
    Resp resp{};
    c.hdr.command = command;
    c.hdr.in_words = sizeof(c) / 4;
    c.hdr.out_words = sizeof(resp) / 4;
    c.post.response = reinterpret_cast<uintptr_t>(&resp);
    c.post.qp_handle = qp->handle;
    c.post.wqe_size = wqe_size;
    (void)!write(qp->context->cmd_fd, &c, sizeof(c));
  }

  static void RingDoorbells(ibv_qp* qp) {
    RingDoorbell<ib_uverbs_post_send, ib_uverbs_post_send_resp>(
        qp, IB_USER_VERBS_CMD_POST_SEND, sizeof(ib_uverbs_send_wr));
    RingDoorbell<ib_uverbs_post_recv, ib_uverbs_post_recv_resp>(
        qp, IB_USER_VERBS_CMD_POST_RECV, sizeof(ib_uverbs_recv_wr));
  }

  // Posts through librue on the victim, whose own index it writes over
  // whatever is in the ring: a WRITE or READ at the peer's region (with
  // its key, or another), a SEND, and a receive.
  void PostToVictim(Side& v, Region& mine, Region& peer) {
    ibv_sge sge = mine.sge(rng_() % (kMem - 4096), 1 + rng_() % 4096);
    uint32_t rkey = rng_() % 4 ? peer.rkey() : static_cast<uint32_t>(rng_());
    ibv_wr_opcode ops[] = {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ, IBV_WR_SEND};
    ibv_send_wr wr = RdmaWr(rng_(), ops[rng_() % 3], &sge, 1,
                            peer.addr(rng_() % (kMem - 4096)), rkey);
    (void)PostSend(v.qp.get(), &wr);
    ibv_sge rsge = mine.sge(0, 4096);
    (void)PostRecv(v.qp.get(), rng_(), &rsge, 1);
  }

  // The victim's peer talks to it as a peer may: SENDs into its receive
  // queue, WRITEs and READs at its region; its completions drained.
  void PeerTalks(Side& p, Region& mine, Region& victim) {
    ibv_sge sge = mine.sge(0, 1 + rng_() % 2048);
    ibv_wr_opcode ops[] = {IBV_WR_SEND, IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ};
    ibv_send_wr wr =
        RdmaWr(rng_(), ops[rng_() % 3], &sge, 1, victim.addr(), victim.rkey());
    (void)PostSend(p.qp.get(), &wr);
    ibv_wc wc[16];
    while (ibv_poll_cq(p.SendCq(), 16, wc) > 0) {
    }
    while (ibv_poll_cq(p.RecvCq(), 16, wc) > 0) {
    }
  }

  // The bystander WRITEs a fresh pattern to B and READs it back.
  ::testing::AssertionResult BystanderMoves(RcPair& by, Region& la, Region& lb,
                                            uint64_t n_move) {
    const size_t n = 8192;
    FillRandom({la.data(), n}, seed_ + n_move);
    ibv_sge w = la.sge(0, n), r = la.sge(n, n);
    ibv_send_wr wr[2] = {
        RdmaWr(1, IBV_WR_RDMA_WRITE, &w, 1, lb.addr(), lb.rkey()),
        RdmaWr(2, IBV_WR_RDMA_READ, &r, 1, lb.addr(), lb.rkey())};
    wr[0].next = &wr[1];
    if (PostSend(by.a.qp.get(), wr))
      return ::testing::AssertionFailure() << "bystander post failed";
    std::vector<ibv_wc> wcs;
    auto polled = PollCq(by.a.SendCq(), 2, &wcs, Deadline(n));
    if (!polled) return polled << " (bystander)";
    for (const ibv_wc& wc : wcs)
      if (wc.status != IBV_WC_SUCCESS)
        return ::testing::AssertionFailure() << "bystander " << WcString(wc);
    return SameBytes({la.data(n), n}, {la.data(), n});
  }

  // One victim: created, scribbled while it and its peer work, moved to
  // error and destroyed.
  void Round(int round, RcPair& by, Region& la, Region& lb, uint64_t* writes) {
    QpOptions o;
    o.timeout = 10;  // 4 ms: a victim's peer gives up soon
    o.retry_cnt = 1;
    o.rnr_retry = 1;
    Side v, p;
    std::vector<Mapping> before = UverbsMappings();
    ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &v));
    std::vector<Mapping> after = UverbsMappings(), rings;
    for (const Mapping& m : after)
      if (std::find(before.begin(), before.end(), m) == before.end() &&
          m.length > RUE_RING_DATA_OFFSET)
        rings.push_back(m);
    // the SQ, the RQ and the two CQs
    ASSERT_GE(rings.size(), 4u) << "the victim's rings are not mapped";
    ASSERT_NO_FATAL_FAILURE(CreateSide(b_, o, &p));
    ASSERT_NO_FATAL_FAILURE(Connect(v, p));
    Region vr, pr;
    ASSERT_NO_FATAL_FAILURE(MakeRegion(v.pd.get(), kMem, kAllAccess, &vr));
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p.pd.get(), kMem, kAllAccess, &pr));
    for (int i = 0; i < 8; i++) {
      ibv_sge s = pr.sge(4096 * i, 4096);
      (void)PostRecv(p.qp.get(), i, &s, 1);
    }

    Scribbler sc(rings, rng_());
    sc.Start();
    auto end = Clock::now() + kScribble;
    ::testing::AssertionResult moved = ::testing::AssertionSuccess();
    for (uint64_t i = 0; moved && Clock::now() < end; i++) {
      PostToVictim(v, vr, pr);
      RingDoorbells(v.qp.get());
      PeerTalks(p, pr, vr);
      if (i % 8 == 0) moved = BystanderMoves(by, la, lb, moves_++);
    }
    *writes += sc.Stop();
    EXPECT_TRUE(moved) << "round " << round;

    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_ERR;
    auto start = Clock::now();
    EXPECT_EQ(ibv_modify_qp(v.qp.get(), &attr, IBV_QP_STATE), 0);
    RingDoorbells(v.qp.get());
    auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - start);
    EXPECT_LT(took.count(), 1000)
        << "round " << round << ": error state took " << took.count() << " ms";
    vr.mr.reset();
    pr.mr.reset();
  }

  Endpoint a_, b_;
  uint64_t seed_ = 0;
  uint64_t rounds_ = 0;
  uint64_t moves_ = 0;  // the bystander's
  std::mt19937_64 rng_;
};

TEST_F(HostileRingFuzz, ScribbledRingsHurtOnlyTheirQp) {
  RcPair by;
  ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, {}, {}, &by));
  Region la, lb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(by.a.pd.get(), kMem, kAllAccess, &la));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(by.b.pd.get(), kMem, kAllAccess, &lb));
  uint64_t writes = 0;
  for (int i = 0; i < static_cast<int>(rounds_) && !HasFailure(); i++)
    ASSERT_NO_FATAL_FAILURE(Round(i, by, la, lb, &writes));
  EXPECT_TRUE(BystanderMoves(by, la, lb, moves_++)) << "after the rounds";
  std::cout << "# " << rounds_ << " victims, " << writes
            << " ring words written, " << moves_ << " bystander moves\n";
}

}  // namespace
}  // namespace rue::test
