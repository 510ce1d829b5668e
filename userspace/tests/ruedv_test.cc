// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The ruedv_* API (librue's direct verbs) outside the UET data path:
// device capabilities, the 64-bit key of every MR, and the argument
// rules of every call (inlen, comp_mask, reserved fields, the QP type),
// which hold whether or not the kernel has UET yet.
#include <arpa/inet.h>
#include <infiniband/ruedv.h>

#include <cstring>
#include <vector>

#include "tests/fixture.h"

namespace rue::test {
namespace {

class Ruedv : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx = DevA().ctx;
    ASSERT_EQ(ruedv_query_device(ctx, &dev, sizeof(dev)), 0);
    pd.reset(ibv_alloc_pd(ctx));
    ASSERT_TRUE(pd);
  }
  bool Uet() const {
    return dev.caps & (RUEDV_DEVICE_CAP_UET_RUD | RUEDV_DEVICE_CAP_UET_ROD);
  }

  ibv_context* ctx = nullptr;
  ruedv_device_attr dev{};
  Pd pd;
};

TEST_F(Ruedv, QueryDevice) {
  // A caller's struct larger than ours: the tail comes back zeroed.
  struct {
    ruedv_device_attr a;
    uint8_t tail[16];
  } big;
  memset(&big, 0xa5, sizeof(big));
  ASSERT_EQ(ruedv_query_device(ctx, &big.a, sizeof(big)), 0);
  EXPECT_EQ(big.a.comp_mask, 0u);
  EXPECT_EQ(big.a.caps, dev.caps);
  EXPECT_EQ(big.a.max_msg_size, dev.max_msg_size);
  EXPECT_EQ(big.a.max_entropy, dev.max_entropy);
  for (uint8_t b : big.tail) EXPECT_EQ(b, 0);
  // caps are exactly the kernel's RUE_UET_CAP_* bits, UUD the newest
  EXPECT_EQ(dev.caps & ~((RUEDV_DEVICE_CAP_UET_UUD << 1) - 1u), 0u);
  if (!Uet()) {
    EXPECT_EQ(dev.caps, 0u) << "UET features without UET QPs";
  }
  // The oldest fields end with max_entropy.
  EXPECT_EQ(ruedv_query_device(ctx, &dev, offsetof(ruedv_device_attr, max_entropy)),
            EINVAL);
  EXPECT_EQ(ruedv_query_device(ctx, nullptr, sizeof(dev)), EINVAL);
  EXPECT_EQ(ruedv_query_device(ctx, &dev, 20), 0);
}

// ibv_reg_mr MRs have a 64-bit key when the kernel gives one, and then
// its low half is the rkey; older kernels: EOPNOTSUPP.
TEST_F(Ruedv, QueryMrOfPlainMr) {
  Region r;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(pd.get(), 4096, kAllAccess, &r));
  ruedv_mr_attr attr;
  memset(&attr, 0xa5, sizeof(attr));
  EXPECT_EQ(ruedv_query_mr(r.mr.get(), &attr, offsetof(ruedv_mr_attr, flags)),
            EINVAL);
  int ret = ruedv_query_mr(r.mr.get(), &attr, sizeof(attr));
  if (!(dev.caps & RUEDV_DEVICE_CAP_UET_KEY64)) {
    EXPECT_EQ(ret, EOPNOTSUPP);
    return;
  }
  ASSERT_EQ(ret, 0);
  EXPECT_EQ(attr.comp_mask, 0u);
  EXPECT_EQ(static_cast<uint32_t>(attr.key64), r.rkey());
  EXPECT_EQ(attr.flags, 0u);
  EXPECT_EQ(attr.job_id, 0u);
}

TEST_F(Ruedv, RegMrArguments) {
  Buffer buf(4096);
  ruedv_mr_init_attr attr{};
  // Without a job: an ordinary MR, which ibv_dereg_mr releases.
  Mr mr(ruedv_reg_mr(pd.get(), buf.data(), 4096, kAllAccess, &attr,
                     sizeof(attr)));
  ASSERT_TRUE(mr) << strerror(errno);
  EXPECT_EQ(mr->addr, buf.data());
  EXPECT_EQ(mr->length, 4096u);
  EXPECT_EQ(mr->pd, pd.get());
  EXPECT_EQ(mr->context, ctx);
  EXPECT_NE(mr->lkey, 0u);
  mr.reset();

  struct {
    ruedv_mr_init_attr a;
    uint8_t tail[8];
  } big{};
  auto reg = [&](uint32_t inlen) {
    errno = 0;
    ibv_mr* m = ruedv_reg_mr(pd.get(), buf.data(), 4096, kAllAccess, &big.a,
                             inlen);
    int err = m ? 0 : errno;
    if (m) ibv_dereg_mr(m);
    return err;
  };
  EXPECT_EQ(reg(sizeof(big)), 0) << "zero tail";
  big.tail[7] = 1;
  EXPECT_EQ(reg(sizeof(big)), EINVAL) << "nonzero tail";
  big.tail[7] = 0;
  EXPECT_EQ(reg(8), EINVAL) << "inlen short of job_id";
  big.a.reserved = 1;
  EXPECT_EQ(reg(sizeof(big.a)), EINVAL) << "reserved";
  big.a.reserved = 0;
  big.a.comp_mask = 1 << 1;
  EXPECT_EQ(reg(sizeof(big.a)), EINVAL) << "unknown comp_mask bit";
  big.a.comp_mask = RUEDV_MR_INIT_ATTR_MASK_JOB;
  big.a.job_id = 1 << 24;
  if (dev.caps & RUEDV_DEVICE_CAP_UET_JOB_MR) {
    EXPECT_EQ(reg(sizeof(big.a)), EINVAL) << "job ID over 24 bits";
  } else {
    // A kernel that would ignore the job must not be asked.
    big.a.job_id = 5;
    EXPECT_EQ(reg(sizeof(big.a)), EOPNOTSUPP);
  }
}

TEST_F(Ruedv, CreateQpArguments) {
  Cq cq(ibv_create_cq(ctx, 8, nullptr, nullptr, 0));
  ASSERT_TRUE(cq);
  ibv_qp_init_attr_ex init{};
  init.comp_mask = IBV_QP_INIT_ATTR_PD;
  init.pd = pd.get();
  init.send_cq = cq.get();
  init.recv_cq = cq.get();
  init.cap = {8, 8, 1, 1, 0};
  init.qp_type = IBV_QPT_DRIVER;
  struct {
    ruedv_qp_init_attr a;
    uint8_t tail[8];
  } big{};
  big.a.mode = RUEDV_UET_RUD;
  auto create = [&](uint32_t inlen) {
    errno = 0;
    ibv_qp* qp = ruedv_create_qp(ctx, &init, &big.a, inlen);
    int err = qp ? 0 : errno;
    if (qp) ibv_destroy_qp(qp);
    return err;
  };
  init.qp_type = IBV_QPT_RC;
  EXPECT_EQ(create(sizeof(big.a)), EINVAL) << "not IBV_QPT_DRIVER";
  init.qp_type = IBV_QPT_DRIVER;
  EXPECT_EQ(create(offsetof(ruedv_qp_init_attr, resource_index)), EINVAL)
      << "inlen short of resource_index";
  big.a.comp_mask = 1;
  EXPECT_EQ(create(sizeof(big.a)), EINVAL) << "unknown comp_mask bit";
  big.a.comp_mask = 0;
  big.a.reserved[3] = 1;
  EXPECT_EQ(create(sizeof(big.a)), EINVAL) << "reserved";
  big.a.reserved[3] = 0;
  big.tail[0] = 1;
  EXPECT_EQ(create(sizeof(big)), EINVAL) << "nonzero tail";
  big.tail[0] = 0;
  if (!Uet()) {
    EXPECT_EQ(create(sizeof(big)), EOPNOTSUPP) << "no UET in the kernel";
    return;
  }
  big.a.mode = 7;
  EXPECT_EQ(create(sizeof(big.a)), EINVAL) << "unknown mode";
  big.a.mode = RUEDV_UET_RUD;
  big.a.job_id = 1 << 24;
  EXPECT_EQ(create(sizeof(big.a)), EINVAL) << "job ID over 24 bits";
  big.a.job_id = 0;
  big.a.resource_index = 0x1000;
  EXPECT_EQ(create(sizeof(big.a)), EINVAL) << "resource index over 12 bits";
}

TEST_F(Ruedv, QueryQpOfRcQp) {
  Cq cq(ibv_create_cq(ctx, 8, nullptr, nullptr, 0));
  ASSERT_TRUE(cq);
  ibv_qp_init_attr init{};
  init.send_cq = cq.get();
  init.recv_cq = cq.get();
  init.cap = {8, 8, 1, 1, 0};
  init.qp_type = IBV_QPT_RC;
  Qp qp(ibv_create_qp(pd.get(), &init));
  ASSERT_TRUE(qp);
  ruedv_qp_attr attr{};
  EXPECT_EQ(ruedv_query_qp(qp.get(), &attr, sizeof(attr)), EINVAL);
  EXPECT_EQ(ruedv_query_qp(qp.get(), &attr, offsetof(ruedv_qp_attr, mode)),
            EINVAL);
  EXPECT_EQ(RUEDV_UET_ADDR(0x123, 0xabc), 0xabc123u);
  EXPECT_EQ(RUEDV_UET_ADDR_PID(0xabc123u), 0x123u);
  EXPECT_EQ(RUEDV_UET_ADDR_RI(0xabc123u), 0xabcu);
}

// The UET setters on an RC QP's batch: EINVAL at wr_complete, nothing
// posted.  The completion readers on a RoCE completion: the 32-bit
// immediate as the low half, no initiator or job; 0 outside a poll.
class RuedvRc : public TopologyTest {};

TEST_P(RuedvRc, UetCallsOnRc) {
  ibv_cq_init_attr_ex cattr{};
  cattr.cqe = 16;
  cattr.wc_flags = IBV_WC_STANDARD_FLAGS;
  ibv_cq_ex* scqx = ibv_create_cq_ex(a_.ctx(), &cattr);
  ASSERT_NE(scqx, nullptr) << strerror(errno);
  ibv_cq_ex* rcqx = ibv_create_cq_ex(b_.ctx(), &cattr);
  ASSERT_NE(rcqx, nullptr) << strerror(errno);
  Cq scq(ibv_cq_ex_to_cq(scqx)), rcq(ibv_cq_ex_to_cq(rcqx));

  QpOptions o;
  o.send_cq = scq.get();
  o.recv_cq = scq.get();
  RcPair p;
  ASSERT_NO_FATAL_FAILURE(CreateSide(a_, o, &p.a));
  // The receiving side's QP needs the CQ of its own device.
  QpOptions ob;
  ob.recv_cq = rcq.get();
  ASSERT_NO_FATAL_FAILURE(CreateSide(b_, ob, &p.b));
  ASSERT_NO_FATAL_FAILURE(Connect(p.a, p.b));
  Region la, lb;
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.ProtectionDomain(), 4096, kAllAccess, &la));
  ASSERT_NO_FATAL_FAILURE(MakeRegion(p.b.ProtectionDomain(), 4096, kAllAccess, &lb));

  // The classic QP has no ibv_qp_ex: make one that has.
  ibv_qp_init_attr_ex init{};
  init.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  init.pd = p.a.ProtectionDomain();
  init.send_cq = scq.get();
  init.recv_cq = scq.get();
  init.cap = {8, 8, 1, 1, 0};
  init.qp_type = IBV_QPT_RC;
  init.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE;
  Qp xqp(ibv_create_qp_ex(a_.ctx(), &init));
  ASSERT_TRUE(xqp) << strerror(errno);
  ibv_qp_ex* qpx = ibv_qp_to_qp_ex(xqp.get());
  ASSERT_NE(qpx, nullptr);
  ibv_wr_start(qpx);
  ibv_wr_rdma_write(qpx, 1, 0);
  ruedv_wr_set_key64(qpx, 0x1234567800000001ULL);
  EXPECT_EQ(ibv_wr_complete(qpx), EINVAL);
  ibv_wr_start(qpx);
  ibv_wr_send(qpx);
  ruedv_wr_set_imm64(qpx, 1);
  EXPECT_EQ(ibv_wr_complete(qpx), EINVAL);
  ibv_wr_start(qpx);
  ibv_wr_send(qpx);
  ruedv_wr_set_peer(qpx, nullptr, 1);
  EXPECT_EQ(ibv_wr_complete(qpx), EINVAL);

  EXPECT_EQ(ruedv_wc_read_imm64(rcqx), 0u) << "outside a poll";
  ibv_sge rs = lb.sge(0, 64);
  ASSERT_EQ(PostRecv(p.b.qp.get(), 1, &rs, 1), 0);
  ibv_sge ls = la.sge(0, 64);
  ibv_send_wr wr = SendWr(2, IBV_WR_SEND_WITH_IMM, &ls, 1);
  wr.imm_data = htonl(0x89abcdef);
  ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
  ibv_poll_cq_attr pattr{};
  auto deadline = Clock::now() + milliseconds(5000);
  int ret;
  while ((ret = ibv_start_poll(rcqx, &pattr)) == ENOENT &&
         Clock::now() < deadline) {
  }
  ASSERT_EQ(ret, 0);
  EXPECT_EQ(rcqx->status, IBV_WC_SUCCESS);
  EXPECT_EQ(ibv_wc_read_imm_data(rcqx), htonl(0x89abcdef));
  EXPECT_EQ(ruedv_wc_read_imm64(rcqx), htonl(0x89abcdef));
  EXPECT_EQ(ruedv_wc_read_initiator(rcqx), 0u);
  EXPECT_EQ(ruedv_wc_read_job_id(rcqx), 0u);
  ibv_end_poll(rcqx);
  std::vector<ibv_wc> wc;
  EXPECT_TRUE(PollCq(scq.get(), 1, &wc));
  EXPECT_TRUE(NoCompletion(scq.get(), milliseconds(20)))
      << "a rejected batch was posted";
}

// An MR restricted to a UET job serves only that job's UET requests: a
// RoCE WRITE or READ through its 32-bit key (the low half of its UET
// key) is a remote access error, and nothing is written (issue 15).
TEST_P(RuedvRc, JobMrClosedToRoce) {
  ruedv_device_attr dev{};
  ASSERT_EQ(ruedv_query_device(b_.ctx(), &dev, sizeof(dev)), 0);
  if (!(dev.caps & RUEDV_DEVICE_CAP_UET_JOB_MR))
    GTEST_SKIP() << "no job MRs";
  for (ibv_wr_opcode op : {IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ}) {
    SCOPED_TRACE(op == IBV_WR_RDMA_WRITE ? "WRITE" : "READ");
    QpOptions o;
    RcPair p;
    ASSERT_NO_FATAL_FAILURE(MakeRcPair(a_, b_, o, o, &p));
    Region la;
    ASSERT_NO_FATAL_FAILURE(MakeRegion(p.a.pd.get(), 4096, kAllAccess, &la));
    Buffer buf(4096);
    memset(buf.data(), 0x5a, 4096);
    ruedv_mr_init_attr ma{};
    ma.comp_mask = RUEDV_MR_INIT_ATTR_MASK_JOB;
    ma.job_id = 7;
    Mr mr(ruedv_reg_mr(p.b.pd.get(), buf.data(), 4096, kAllAccess, &ma,
                       sizeof(ma)));
    ASSERT_TRUE(mr) << "ruedv_reg_mr: " << strerror(errno);
    ibv_sge s = la.sge(0, 64);
    ibv_send_wr wr = SendWr(1, op, &s, 1);
    wr.wr.rdma.remote_addr = buf.addr();
    wr.wr.rdma.rkey = mr->rkey;
    ASSERT_EQ(PostSend(p.a.qp.get(), &wr), 0);
    ibv_wc wc;
    ASSERT_TRUE(PollOne(p.a.scq.get(), &wc));
    EXPECT_EQ(wc.status, IBV_WC_REM_ACCESS_ERR) << WcString(wc);
    for (int i = 0; i < 4096; i++) ASSERT_EQ(buf.data()[i], 0x5a) << i;
  }
}

RUE_TOPOLOGIES(RuedvRc);

}  // namespace
}  // namespace rue::test
