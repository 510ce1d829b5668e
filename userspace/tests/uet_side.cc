// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/uet_side.h"

#include <cstring>

namespace rue::test {

CqEx MakeCqEx(ibv_context* ctx, int cqe) {
  ibv_cq_init_attr_ex attr{};
  attr.cqe = static_cast<uint32_t>(cqe);
  attr.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM |
                  IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP;
  return CqEx(ibv_create_cq_ex(ctx, &attr));
}

::testing::AssertionResult PollEx(ibv_cq_ex* cq, size_t n,
                                  std::vector<UetWc>* out,
                                  milliseconds timeout) {
  auto end = Clock::now() + timeout;
  ibv_poll_cq_attr pa{};
  while (out->size() < n) {
    int ret = ibv_start_poll(cq, &pa);
    if (ret == ENOENT) {
      if (Clock::now() > end)
        return ::testing::AssertionFailure()
               << "got " << out->size() << " of " << n << " completions";
      continue;
    }
    if (ret)
      return ::testing::AssertionFailure() << "ibv_start_poll: " << ret;
    do {
      UetWc w;
      w.wr_id = cq->wr_id;
      w.status = cq->status;
      w.opcode = ibv_wc_read_opcode(cq);
      w.byte_len = ibv_wc_read_byte_len(cq);
      w.src_qp = ibv_wc_read_src_qp(cq);
      w.flags = ibv_wc_read_wc_flags(cq);
      w.initiator = ruedv_wc_read_initiator(cq);
      w.job = ruedv_wc_read_job_id(cq);
      w.imm64 = ruedv_wc_read_imm64(cq);
      out->push_back(w);
    } while (out->size() < n && ibv_next_poll(cq) == 0);
    ibv_end_poll(cq);
  }
  return ::testing::AssertionSuccess();
}

void MakeUetSide(const Endpoint& ep, uint32_t job, uint8_t mode,
                 size_t mem_bytes, UetSide* s, ibv_pd* shared_pd) {
  s->ep = ep;
  ibv_pd* pd = shared_pd;
  if (!pd) {
    s->pd.reset(ibv_alloc_pd(ep.ctx()));
    ASSERT_TRUE(s->pd) << "ibv_alloc_pd: " << strerror(errno);
    pd = s->pd.get();
  }
  s->scq = MakeCqEx(ep.ctx(), 512);
  s->rcq = MakeCqEx(ep.ctx(), 512);
  ASSERT_TRUE(s->scq && s->rcq) << "ibv_create_cq_ex: " << strerror(errno);

  ibv_qp_init_attr_ex ax{};
  ax.qp_type = IBV_QPT_DRIVER;
  ax.send_cq = ibv_cq_ex_to_cq(s->scq.get());
  ax.recv_cq = ibv_cq_ex_to_cq(s->rcq.get());
  ax.cap.max_send_wr = 256;
  ax.cap.max_recv_wr = 256;
  ax.cap.max_send_sge = 2;
  ax.cap.max_recv_sge = 2;
  ax.pd = pd;
  ax.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  ax.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
                      IBV_QP_EX_WITH_RDMA_WRITE |
                      IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
                      IBV_QP_EX_WITH_RDMA_READ;
  ruedv_qp_init_attr ua{};
  ua.job_id = job;
  ua.mode = mode;
  ua.entropy = 4;
  s->qp.reset(ruedv_create_qp(ep.ctx(), &ax, &ua, sizeof(ua)));
  ASSERT_TRUE(s->qp) << "ruedv_create_qp: " << strerror(errno);
  s->qpx = ibv_qp_to_qp_ex(s->qp.get());
  ASSERT_NE(s->qpx, nullptr);

  ruedv_qp_attr qa{};
  ASSERT_EQ(ruedv_query_qp(s->qp.get(), &qa, sizeof(qa)), 0);
  EXPECT_EQ(qa.job_id, job);
  EXPECT_EQ(qa.mode, mode);
  EXPECT_NE(RUEDV_UET_ADDR_PID(qa.addr), 0u);
  s->addr = qa.addr;

  ibv_qp_attr m{};
  m.qp_state = IBV_QPS_INIT;
  m.port_num = 1;
  ASSERT_EQ(ibv_modify_qp(s->qp.get(), &m, IBV_QP_STATE | IBV_QP_PORT), 0);
  m.qp_state = IBV_QPS_RTR;
  ASSERT_EQ(ibv_modify_qp(s->qp.get(), &m, IBV_QP_STATE), 0);
  m.qp_state = IBV_QPS_RTS;
  ASSERT_EQ(ibv_modify_qp(s->qp.get(), &m, IBV_QP_STATE), 0);
  if (mem_bytes) {
    ASSERT_NO_FATAL_FAILURE(MakeRegion(pd, mem_bytes, kAllAccess, &s->mem));
  }
}

uint64_t Key64(ibv_mr* mr) {
  ruedv_mr_attr a{};
  EXPECT_EQ(ruedv_query_mr(mr, &a, sizeof(a)), 0);
  return a.key64;
}

}  // namespace rue::test
