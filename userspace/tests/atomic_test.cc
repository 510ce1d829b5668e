// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RC atomics: compare-and-swap and fetch-and-add return the original
// value and update the target; a misaligned target is rejected; remote
// atomics are atomic with respect to the target host's CPU atomics.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "tests/fixture.h"

namespace rue::test {
namespace {

constexpr uint64_t kSentinel = 0x5a5a5a5a5a5a5a5aULL;

class RcAtomic : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    if (a_.dev->attr.atomic_cap == IBV_ATOMIC_NONE)
      GTEST_SKIP() << "the device reports no atomics";
    QpOptions o;
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p_));
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(p_.a.pd.get(), 4096, kAllAccess, &result_));
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(p_.b.pd.get(), 4096, kAllAccess, &target_));
    for (size_t i = 0; i < 4096 / 8; i++) {
      Target(i * 8) = kSentinel;
      Result(i * 8) = kSentinel;
    }
  }

  uint64_t& Target(size_t off) {
    return *reinterpret_cast<uint64_t*>(target_.data(off));
  }
  uint64_t& Result(size_t off) {
    return *reinterpret_cast<uint64_t*>(result_.data(off));
  }

  // Posts one atomic on the 8 bytes at target offset @off, returning the
  // original into result offset @res; the completion goes to @wc.
  void Atomic(ibv_wr_opcode op, size_t off, uint64_t compare_add, uint64_t swap,
              size_t res, ibv_wc* wc) {
    ibv_sge s = result_.sge(res, 8);
    ibv_send_wr wr = SendWr(0xa70 + off, op, &s, 1);
    wr.wr.atomic.remote_addr = target_.addr(off);
    wr.wr.atomic.rkey = target_.rkey();
    wr.wr.atomic.compare_add = compare_add;
    wr.wr.atomic.swap = swap;
    ASSERT_EQ(PostSend(p_.a.qp.get(), &wr), 0);
    ASSERT_TRUE(PollOne(p_.a.scq.get(), wc));
    EXPECT_EQ(wc->wr_id, 0xa70 + off);
    EXPECT_EQ(wc->qp_num, p_.a.qpn());
  }

  // Every u64 but the ones listed still holds the sentinel.
  void ExpectUntouched(std::vector<size_t> target_offs,
                       std::vector<size_t> result_offs) {
    for (size_t off = 0; off < 4096; off += 8) {
      if (std::find(target_offs.begin(), target_offs.end(), off) ==
          target_offs.end()) {
        EXPECT_EQ(Target(off), kSentinel) << "target offset " << off;
      }
      if (std::find(result_offs.begin(), result_offs.end(), off) ==
          result_offs.end()) {
        EXPECT_EQ(Result(off), kSentinel) << "result offset " << off;
      }
    }
  }

  RcPair p_;
  Region result_;
  Region target_;
};

TEST_P(RcAtomic, CompareAndSwap) {
  ibv_wc wc;
  Target(64) = 0x0102030405060708ULL;
  // Equal: swapped, and the original comes back.
  ASSERT_NO_FATAL_FAILURE(Atomic(IBV_WR_ATOMIC_CMP_AND_SWP, 64,
                                 0x0102030405060708ULL, 0x1112131415161718ULL,
                                 8, &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.opcode, IBV_WC_COMP_SWAP);
  EXPECT_EQ(Result(8), 0x0102030405060708ULL);
  EXPECT_EQ(Target(64), 0x1112131415161718ULL);
  // Not equal: unchanged, and the current value comes back.
  ASSERT_NO_FATAL_FAILURE(Atomic(IBV_WR_ATOMIC_CMP_AND_SWP, 64,
                                 0x0102030405060708ULL, 0xdeadbeefULL, 16,
                                 &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.opcode, IBV_WC_COMP_SWAP);
  EXPECT_EQ(Result(16), 0x1112131415161718ULL);
  EXPECT_EQ(Target(64), 0x1112131415161718ULL);
  // The last 8 bytes of the region.
  Target(4088) = 7;
  ASSERT_NO_FATAL_FAILURE(
      Atomic(IBV_WR_ATOMIC_CMP_AND_SWP, 4088, 7, ~0ULL, 24, &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(Result(24), 7u);
  EXPECT_EQ(Target(4088), ~0ULL);
  ExpectUntouched({64, 4088}, {8, 16, 24});
}

TEST_P(RcAtomic, FetchAndAdd) {
  ibv_wc wc;
  Target(128) = 0x0102030405060708ULL;
  ASSERT_NO_FATAL_FAILURE(Atomic(IBV_WR_ATOMIC_FETCH_AND_ADD, 128,
                                 0x1000000000000001ULL, 0, 0, &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(wc.opcode, IBV_WC_FETCH_ADD);
  EXPECT_EQ(Result(0), 0x0102030405060708ULL);
  EXPECT_EQ(Target(128), 0x1102030405060709ULL);
  // Wraps modulo 2^64.
  Target(136) = ~0ULL - 1;
  ASSERT_NO_FATAL_FAILURE(
      Atomic(IBV_WR_ATOMIC_FETCH_AND_ADD, 136, 3, 0, 32, &wc));
  ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  EXPECT_EQ(Result(32), ~0ULL - 1);
  EXPECT_EQ(Target(136), 1u);
  ExpectUntouched({128, 136}, {0, 32});
}

// A target address that is not 8-byte aligned is an error; nothing is
// modified, and the QP goes to the error state.
TEST_P(RcAtomic, MisalignedTargetRejected) {
  ibv_wc wc;
  ASSERT_NO_FATAL_FAILURE(
      Atomic(IBV_WR_ATOMIC_FETCH_AND_ADD, 68, 1, 0, 0, &wc));
  EXPECT_NE(wc.status, IBV_WC_SUCCESS) << WcString(wc);
  ExpectUntouched({}, {});
  EXPECT_TRUE(QpReaches(p_.a.qp.get(), IBV_QPS_ERR));
  ASSERT_NO_FATAL_FAILURE(
      Atomic(IBV_WR_ATOMIC_CMP_AND_SWP, 64, kSentinel, 0, 0, &wc));
  EXPECT_EQ(wc.status, IBV_WC_WR_FLUSH_ERR) << WcString(wc);
  ExpectUntouched({}, {});
}

// K remote fetch-and-adds of 1 race with a thread of the target process
// adding 1 to the same u64 with CPU atomics: no update may be lost, and
// every remote add saw a different value.
TEST_P(RcAtomic, AtomicWithCpuAtomics) {
  constexpr uint32_t kRemote = 2000, kWindow = 16, kMinLocal = 20000;
  Region results;
  ASSERT_NO_FATAL_FAILURE(
      MakeRegion(p_.a.pd.get(), kRemote * 8, kAllAccess, &results));
  uint64_t* x = &Target(256);
  *x = 0;
  std::atomic<bool> go{false}, stop{false};
  uint64_t local_adds = 0;
  std::thread cpu([&] {
    while (!go.load()) std::this_thread::yield();
    while (!stop.load() || local_adds < kMinLocal) {
      __atomic_fetch_add(x, 1, __ATOMIC_SEQ_CST);
      local_adds++;
    }
  });
  go = true;
  uint32_t posted = 0, completed = 0;
  bool failed = false;
  while (completed < kRemote && !failed) {
    while (posted < kRemote && posted - completed < kWindow) {
      ibv_sge s = results.sge(posted * 8, 8);
      ibv_send_wr wr = SendWr(posted, IBV_WR_ATOMIC_FETCH_AND_ADD, &s, 1);
      wr.wr.atomic.remote_addr = target_.addr(256);
      wr.wr.atomic.rkey = target_.rkey();
      wr.wr.atomic.compare_add = 1;
      if (PostSend(p_.a.qp.get(), &wr)) {
        ADD_FAILURE() << "ibv_post_send failed at " << posted;
        failed = true;
        break;
      }
      posted++;
    }
    ibv_wc wc;
    if (!failed && !PollOne(p_.a.scq.get(), &wc)) {
      ADD_FAILURE() << "no completion after " << completed;
      failed = true;
    } else if (!failed) {
      if (wc.status != IBV_WC_SUCCESS) {
        ADD_FAILURE() << WcString(wc);
        failed = true;
      }
      completed++;
    }
  }
  stop = true;
  cpu.join();
  ASSERT_FALSE(failed);
  EXPECT_EQ(__atomic_load_n(x, __ATOMIC_SEQ_CST), kRemote + local_adds)
      << kRemote << " remote and " << local_adds << " local additions";
  std::set<uint64_t> seen;
  for (uint32_t i = 0; i < kRemote; i++) {
    uint64_t v = reinterpret_cast<uint64_t*>(results.data())[i];
    EXPECT_TRUE(seen.insert(v).second)
        << "original value " << v << " returned twice";
    EXPECT_LT(v, kRemote + local_adds);
  }
}

RUE_TOPOLOGIES_WITH_IPV6(RcAtomic);

}  // namespace
}  // namespace rue::test
