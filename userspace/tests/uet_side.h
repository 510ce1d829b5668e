// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One side of a UET conversation through ruedv: a UET QP (driver QP,
// RTS), its PD, extended CQs and a region; and reading the extended
// completions with their UET fields.  Shared by rue_uet_test and
// rue_hostile_test.
#ifndef RUE_TESTS_UET_SIDE_H_
#define RUE_TESTS_UET_SIDE_H_

#include <infiniband/ruedv.h>

#include <memory>
#include <vector>

#include "tests/fixture.h"

namespace rue::test {

// One completion of an extended CQ, with the UET fields.
struct UetWc {
  uint64_t wr_id = 0;
  ibv_wc_status status = IBV_WC_SUCCESS;
  ibv_wc_opcode opcode = IBV_WC_SEND;
  uint32_t byte_len = 0;
  uint32_t src_qp = 0;
  unsigned int flags = 0;
  uint32_t initiator = 0;
  uint32_t job = 0;
  uint64_t imm64 = 0;
};

struct CqExDeleter {
  void operator()(ibv_cq_ex* cq) const { ibv_destroy_cq(ibv_cq_ex_to_cq(cq)); }
};
using CqEx = std::unique_ptr<ibv_cq_ex, CqExDeleter>;

CqEx MakeCqEx(ibv_context* ctx, int cqe);

// Polls @n completions of @cq into @out, at most @timeout.
::testing::AssertionResult PollEx(ibv_cq_ex* cq, size_t n,
                                  std::vector<UetWc>* out,
                                  milliseconds timeout = milliseconds(10000));

// A UET QP with its PD, CQs and a region.
struct UetSide {
  Endpoint ep;
  Pd pd;
  CqEx scq, rcq;
  Qp qp;
  ibv_qp_ex* qpx = nullptr;
  uint32_t addr = 0;
  Region mem;
};

// Makes @s on @ep: a UET QP of @job in @mode (RUEDV_UET_*), in RTS, with
// a region of @mem_bytes (none if 0), in @shared_pd or a PD of its own.
void MakeUetSide(const Endpoint& ep, uint32_t job, uint8_t mode,
                 size_t mem_bytes, UetSide* s, ibv_pd* shared_pd = nullptr);

// The 64-bit key of @mr.
uint64_t Key64(ibv_mr* mr);

}  // namespace rue::test

#endif  // RUE_TESTS_UET_SIDE_H_
