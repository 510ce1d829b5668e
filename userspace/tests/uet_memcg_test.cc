// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Who pays for a UET initiator's PDCs (kernel/uet/pds_ini.c): the memory
// cgroup of the process that made the QP.  A PDC is about 16 KiB, made
// in the transmit engine's context when a QP first sends to a peer; a
// QP keeps up to rue.uet_max_qp_pdcs of them, and a user may make many
// QPs.  Charged to no one, they escaped every container's memory limit.
//
// The test moves itself into a new cgroup (cgroup2 at /sys/fs/cgroup,
// memory controller on), makes kQps UET QPs, and lets each WRITE once to
// device B: kQps PDCs.  The cgroup's memory.current must grow by at
// least kMinPdcBytes per PDC while nothing else is allocated.  (That they
// are uncharged when freed is the slab allocator's part.)
#include <infiniband/ruedv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tests/fixture.h"
#include "tests/uet_side.h"

namespace rue::test {
namespace {

constexpr uint32_t kJob = 0x4242;  // granted by rue_uet.sh
constexpr int kQps = 64;
// Less than a PDC takes (its window alone is more), more than noise.
constexpr int64_t kMinPdcBytes = 8 * 1024;
const std::string kRoot = "/sys/fs/cgroup";

bool WriteFile(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  f.flush();
  return static_cast<bool>(f);
}

int64_t ReadNumber(const std::string& path) {
  std::ifstream f(path);
  int64_t v = -1;
  f >> v;
  return f ? v : -1;
}

class UetMemcg : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!ResolveTopology(Topology::kTwoDevices, &a_, &b_, &why))
      GTEST_SKIP() << why;
    std::ifstream controllers(kRoot + "/cgroup.controllers");
    std::string c;
    bool memory = false;
    while (controllers >> c) memory |= c == "memory";
    if (!memory) GTEST_SKIP() << "no cgroup2 memory controller at " << kRoot;
    ASSERT_TRUE(WriteFile(kRoot + "/cgroup.subtree_control", "+memory"));
    cg_ = kRoot + "/rue_memcg_" + std::to_string(getpid());
    ASSERT_EQ(mkdir(cg_.c_str(), 0755), 0) << cg_ << ": " << strerror(errno);
    ASSERT_TRUE(WriteFile(cg_ + "/cgroup.procs", std::to_string(getpid())));
    moved_ = true;
  }

  void TearDown() override {
    sides_.clear();
    ah_.reset();
    target_.reset();
    if (moved_) WriteFile(kRoot + "/cgroup.procs", std::to_string(getpid()));
    if (!cg_.empty()) rmdir(cg_.c_str());
  }

  int64_t Current() const { return ReadNumber(cg_ + "/memory.current"); }

  int Write(UetSide& from, uint64_t id) {
    ibv_wr_start(from.qpx);
    from.qpx->wr_id = id;
    from.qpx->wr_flags = IBV_SEND_SIGNALED;
    const uint64_t key = Key64(target_->mem.mr.get());
    ibv_wr_rdma_write(from.qpx, static_cast<uint32_t>(key),
                      target_->mem.addr());
    ruedv_wr_set_key64(from.qpx, key);
    ruedv_wr_set_peer(from.qpx, ah_.get(), target_->addr);
    ibv_wr_set_sge(from.qpx, from.mem.lkey(), from.mem.addr(), 64);
    return ibv_wr_complete(from.qpx);
  }

  Endpoint a_, b_;
  std::string cg_;
  bool moved_ = false;
  std::unique_ptr<UetSide> target_;
  Pd pd_;
  Ah ah_;
  std::vector<std::unique_ptr<UetSide>> sides_;
};

TEST_F(UetMemcg, InitiatorPdcsAreChargedToTheQpCreator) {
  target_ = std::make_unique<UetSide>();
  ASSERT_NO_FATAL_FAILURE(
      MakeUetSide(b_, kJob, RUEDV_UET_RUD, 4096, target_.get()));
  pd_.reset(ibv_alloc_pd(a_.ctx()));
  ASSERT_TRUE(pd_);
  ibv_ah_attr attr = AhAttr(a_, b_.gid());
  ah_.reset(ibv_create_ah(pd_.get(), &attr));
  ASSERT_TRUE(ah_) << "ibv_create_ah: " << strerror(errno);
  for (int i = 0; i < kQps; i++) {
    sides_.push_back(std::make_unique<UetSide>());
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(a_, kJob, RUEDV_UET_RUD, 4096,
                                        sides_.back().get(), pd_.get()));
  }

  const int64_t before = Current();
  ASSERT_GT(before, 0);
  for (int i = 0; i < kQps; i++) ASSERT_EQ(Write(*sides_[i], i), 0);
  for (int i = 0; i < kQps; i++) {
    std::vector<UetWc> wc;
    ASSERT_TRUE(PollEx(sides_[i]->scq.get(), 1, &wc));
    ASSERT_EQ(wc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc[0].status);
  }
  const int64_t charged = Current() - before;
  std::cout << "# " << kQps << " PDCs: memory.current +" << charged
            << " bytes\n";
  EXPECT_GE(charged, kQps * kMinPdcBytes);
}

}  // namespace
}  // namespace rue::test
