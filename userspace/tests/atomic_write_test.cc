// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RDMA ATOMIC WRITE (IBTA vol 1 annex A19, Memory Placement Extensions),
// posted with ibv_wr_atomic_write(): 8 bytes stored at the target at once,
// as the requester gave them, completing as IBV_WC_ATOMIC_WRITE.  A reader
// of the target never sees part of a store; a misaligned target, a range
// past the MR, an MR or a QP closed to remote writes are errors that store
// nothing; the operation exists on RC QPs only, and only through the
// extended API (struct ibv_send_wr has no field for its bytes).
#include <array>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "tests/fixture.h"

namespace rue::test {
namespace {

constexpr uint64_t kSentinel = 0x5a5a5a5a5a5a5a5aULL;
// The uapi's IB_UVERBS_DEVICE_ATOMIC_WRITE (rdma-core 44 has no
// IBV_DEVICE_* name for it): device_cap_flags_ex of ibv_query_device_ex.
constexpr uint64_t kDeviceAtomicWrite = 1ULL << 40;

constexpr uint64_t kOps = IBV_QP_EX_WITH_RDMA_WRITE |
                          IBV_QP_EX_WITH_ATOMIC_WRITE |
                          IBV_QP_EX_WITH_SEND;

bool HasAtomicWrite(ibv_context* ctx) {
  ibv_device_attr_ex attr{};
  return ibv_query_device_ex(ctx, nullptr, &attr) == 0 &&
         (attr.device_cap_flags_ex & kDeviceAtomicWrite);
}

class RcAtomicWrite : public TopologyTest {
 protected:
  void SetUp() override {
    TopologyTest::SetUp();
    if (IsSkipped()) return;
    if (!HasAtomicWrite(a_.ctx()) || !HasAtomicWrite(b_.ctx()))
      GTEST_SKIP() << "a device does not report ATOMIC WRITE";
    oa_.send_ops_flags = kOps;
  }

  void Connect() {
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, oa_, ob_, &p_));
    qpx_ = ibv_qp_to_qp_ex(p_.a.qp.get());
    ASSERT_NE(qpx_, nullptr);
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(p_.b.pd.get(), 4096, target_access_, &target_));
    for (size_t off = 0; off < 4096; off += 8) Target(off) = kSentinel;
  }

  uint64_t& Target(size_t off) {
    return *reinterpret_cast<uint64_t*>(target_.data(off));
  }

  // Posts one signaled ATOMIC WRITE of @bytes at target offset @off.
  int Post(uint64_t wr_id, size_t off, const void* bytes) {
    ibv_wr_start(qpx_);
    qpx_->wr_id = wr_id;
    qpx_->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_atomic_write(qpx_, target_.rkey(), target_.addr(off), bytes);
    return ibv_wr_complete(qpx_);
  }

  // ... and waits for its completion.
  void Store(size_t off, const void* bytes, ibv_wc* wc) {
    ASSERT_EQ(Post(0xa3 + off, off, bytes), 0);
    ASSERT_TRUE(PollOne(p_.a.scq.get(), wc));
    EXPECT_EQ(wc->wr_id, 0xa3 + off);
    EXPECT_EQ(wc->qp_num, p_.a.qpn());
  }

  // Every u64 of the target still holds the sentinel.
  void ExpectUntouched() {
    for (size_t off = 0; off < 4096; off += 8)
      EXPECT_EQ(Target(off), kSentinel) << "target offset " << off;
  }

  // The failure of a store the target refuses: an error completion,
  // nothing stored, the requester's QP in error.
  void ExpectRefused(size_t off) {
    const uint64_t v = 0x1122334455667788ULL;
    ibv_wc wc;
    ASSERT_NO_FATAL_FAILURE(Connect());
    ASSERT_NO_FATAL_FAILURE(Store(off, &v, &wc));
    EXPECT_NE(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    ExpectUntouched();
    EXPECT_TRUE(QpReaches(p_.a.qp.get(), IBV_QPS_ERR));
  }

  QpOptions oa_, ob_;
  int target_access_ = kAllAccess;
  RcPair p_;
  ibv_qp_ex* qpx_ = nullptr;
  Region target_;
};

// The bytes land as given (no byte order applied), at the first, a
// middle and the last 8 bytes of the MR, and nothing else changes.
TEST_P(RcAtomicWrite, StoresTheEightBytes) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  const std::array<uint8_t, 8> x = {1, 2, 3, 4, 5, 6, 7, 8};
  for (size_t off : {size_t{0}, size_t{64}, size_t{4088}}) {
    ibv_wc wc;
    ASSERT_NO_FATAL_FAILURE(Store(off, x.data(), &wc));
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.opcode, IBV_WC_ATOMIC_WRITE);
    EXPECT_EQ(memcmp(target_.data(off), x.data(), 8), 0) << "offset " << off;
    Target(off) = kSentinel;
  }
  ExpectUntouched();
}

// A batch of ATOMIC WRITEs among RDMA WRITEs to the same word completes
// in order, and the word ends as the last one left it.
TEST_P(RcAtomicWrite, InOrderWithWrites) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  Region src;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p_.a.pd.get(), 64, kAllAccess, &src));
  *reinterpret_cast<uint64_t*>(src.data()) = 7;
  const uint64_t v[3] = {100, 200, 300};
  ibv_wr_start(qpx_);
  qpx_->wr_flags = IBV_SEND_SIGNALED;
  for (int i = 0; i < 3; i++) {
    qpx_->wr_id = 10 * i;
    ibv_wr_atomic_write(qpx_, target_.rkey(), target_.addr(256), &v[i]);
    qpx_->wr_id = 10 * i + 1;
    ibv_wr_rdma_write(qpx_, target_.rkey(), target_.addr(256));
    ibv_wr_set_sge(qpx_, src.lkey(), src.addr(), 8);
  }
  qpx_->wr_id = 30;
  ibv_wr_atomic_write(qpx_, target_.rkey(), target_.addr(256), &v[2]);
  ASSERT_EQ(ibv_wr_complete(qpx_), 0);
  for (uint64_t id : {0, 1, 10, 11, 20, 21, 30}) {
    ibv_wc wc;
    ASSERT_TRUE(PollOne(p_.a.scq.get(), &wc)) << "wr_id " << id;
    ASSERT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.wr_id, id);
    EXPECT_EQ(wc.opcode, id % 10 ? IBV_WC_RDMA_WRITE : IBV_WC_ATOMIC_WRITE);
  }
  EXPECT_EQ(Target(256), 300u);
}

// Remote stores of values whose halves are equal race with a thread of
// the target process reading the word: it never sees halves that differ.
TEST_P(RcAtomicWrite, NeverSeenHalfStored) {
  constexpr uint32_t kStores = 2000, kWindow = 16;
  ASSERT_NO_FATAL_FAILURE(Connect());
  uint64_t* word = &Target(512);
  __atomic_store_n(word, 0, __ATOMIC_SEQ_CST);
  std::atomic<bool> stop{false};
  uint64_t torn = 0, reads = 0;
  std::thread reader([&] {
    while (!stop.load()) {
      uint64_t w = __atomic_load_n(word, __ATOMIC_ACQUIRE);
      torn += (w >> 32) != (w & 0xffffffffu);
      reads++;
    }
  });
  std::vector<uint64_t> values(kStores);
  for (uint32_t i = 0; i < kStores; i++)
    values[i] = (uint64_t{i + 1} << 32 | (i + 1)) ^ 0xffffffffffffffffULL;
  uint32_t posted = 0, completed = 0;
  bool failed = false;
  while (completed < kStores && !failed) {
    while (posted < kStores && posted - completed < kWindow) {
      if (Post(posted, 512, &values[posted])) {
        ADD_FAILURE() << "posting failed at " << posted;
        failed = true;
        break;
      }
      posted++;
    }
    ibv_wc wc;
    if (failed) break;
    if (!PollOne(p_.a.scq.get(), &wc)) {
      ADD_FAILURE() << "no completion after " << completed;
      failed = true;
    } else if (wc.status != IBV_WC_SUCCESS) {
      ADD_FAILURE() << WcString(wc);
      failed = true;
    }
    completed++;
  }
  stop = true;
  reader.join();
  ASSERT_FALSE(failed);
  EXPECT_EQ(torn, 0u) << "of " << reads << " reads";
  EXPECT_EQ(*word, values[kStores - 1]);
}

TEST_P(RcAtomicWrite, MisalignedTargetRefused) {
  ExpectRefused(68);
}

TEST_P(RcAtomicWrite, PastTheRegionRefused) {
  ExpectRefused(4096);
}

TEST_P(RcAtomicWrite, RegionWithoutRemoteWriteRefused) {
  target_access_ = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
                   IBV_ACCESS_REMOTE_ATOMIC;
  ExpectRefused(64);
}

// The responder's QP must allow remote writes (as for RDMA WRITE).
TEST_P(RcAtomicWrite, QpWithoutRemoteWriteRefused) {
  ob_.access = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
  ExpectRefused(64);
}

// What the API refuses before anything is posted.
TEST_P(RcAtomicWrite, ApiRules) {
  ASSERT_NO_FATAL_FAILURE(Connect());
  const uint64_t v = 5;
  // No local data: an SGE after it fails the batch.
  ibv_wr_start(qpx_);
  ibv_wr_atomic_write(qpx_, target_.rkey(), target_.addr(0), &v);
  ibv_wr_set_sge(qpx_, 0, 0, 8);
  EXPECT_EQ(ibv_wr_complete(qpx_), EINVAL);
  // ibv_post_send has no field for the bytes.
  ibv_send_wr wr = SendWr(1, IBV_WR_ATOMIC_WRITE, nullptr, 0);
  wr.wr.rdma.remote_addr = target_.addr(0);
  wr.wr.rdma.rkey = target_.rkey();
  EXPECT_EQ(PostSend(p_.a.qp.get(), &wr), EINVAL);
  // UC has no ATOMIC WRITE.
  ibv_qp_init_attr_ex init{};
  init.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  init.pd = p_.a.pd.get();
  init.send_cq = p_.a.scq.get();
  init.recv_cq = p_.a.rcq.get();
  init.qp_type = IBV_QPT_UC;
  init.cap = {8, 8, 1, 1, 0};
  init.send_ops_flags = IBV_QP_EX_WITH_ATOMIC_WRITE;
  errno = 0;
  EXPECT_EQ(ibv_create_qp_ex(a_.ctx(), &init), nullptr);
  EXPECT_EQ(errno, EOPNOTSUPP);
  // Nothing of the above reached the target.
  EXPECT_TRUE(NoCompletion(p_.a.scq.get(), milliseconds(200)));
  ExpectUntouched();
}

RUE_TOPOLOGIES(RcAtomicWrite);

}  // namespace
}  // namespace rue::test
