// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Topologies and connections: which device and GID each side of a test
// uses, RC queue pairs connected in-process (QPN, PSN and GID exchanged
// in memory), UD queue pairs, and work request helpers.
#ifndef RUE_TESTS_CONN_H_
#define RUE_TESTS_CONN_H_

#include <gtest/gtest.h>

#include <string>

#include "tests/verbs.h"

namespace rue::test {

// Two rue devices over a veth pair (IPv4 or IPv6 GIDs), or both sides on
// one device.
enum class Topology { kTwoDevices, kLoopback, kTwoDevicesIpv6 };

std::string TopologyName(Topology t);

// One side of a connection: a device and the GID it sends from.
struct Endpoint {
  Device* dev = nullptr;
  int gid_index = 0;

  ibv_context* ctx() const { return dev->ctx; }
  ibv_gid gid() const { return dev->Gid(gid_index); }
};

// The two endpoints of @t; false, with the reason, when it cannot run.
bool ResolveTopology(Topology t, Endpoint* a, Endpoint* b, std::string* why);

struct QpOptions {
  ibv_qp_type type = IBV_QPT_RC;
  uint32_t max_send_wr = 64;
  uint32_t max_recv_wr = 64;
  uint32_t max_send_sge = 4;
  uint32_t max_recv_sge = 4;
  uint32_t max_inline_data = 0;
  bool sq_sig_all = false;
  int send_cqe = 0;                     // 0: max_send_wr
  int recv_cqe = 0;                     // 0: max_recv_wr
  ibv_comp_channel* channel = nullptr;  // for both CQs
  // Shared CQs (and PD) owned by the test; the side then creates none.
  ibv_cq* send_cq = nullptr;
  ibv_cq* recv_cq = nullptr;
  ibv_pd* pd = nullptr;
  // An SRQ owned by the test (in pd): the QP takes its receives there.
  ibv_srq* srq = nullptr;
  // Non-zero: the QP comes from ibv_create_qp_ex with these operations
  // (IBV_QP_EX_WITH_*), so ibv_qp_to_qp_ex() gives its extended API.
  uint64_t send_ops_flags = 0;

  // Connection (RC) attributes of this side.
  ibv_mtu mtu = static_cast<ibv_mtu>(0);  // 0: the port's active MTU
  uint8_t timeout = 14;
  uint8_t retry_cnt = 7;
  uint8_t rnr_retry = 7;
  uint8_t min_rnr_timer = 1;  // 0.01 ms
  uint8_t max_rd_atomic = 16;
  uint8_t max_dest_rd_atomic = 16;
  uint8_t traffic_class = 0;  // the GRH's: DSCP and ECN, so the priority
  int access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
               IBV_ACCESS_REMOTE_ATOMIC;
  uint32_t sq_psn = 0x1000;    // the peer's rq_psn
  uint32_t qkey = 0x11111111;  // UD
};

// A QP with its own PD and CQs.  Member order is destruction order in
// reverse: the QP goes first.
struct Side {
  Endpoint ep;
  QpOptions opts;
  Pd pd;
  Cq scq;
  Cq rcq;
  Qp qp;
  ibv_qp_cap cap{};  // what ibv_create_qp returned

  ibv_context* ctx() const { return ep.ctx(); }
  uint32_t qpn() const { return qp->qp_num; }
  ibv_pd* ProtectionDomain() const { return pd ? pd.get() : opts.pd; }
  ibv_cq* SendCq() const { return scq ? scq.get() : opts.send_cq; }
  ibv_cq* RecvCq() const { return rcq ? rcq.get() : opts.recv_cq; }
};

// Creates the PD, CQs and the QP (RESET state).
void CreateSide(const Endpoint& ep, const QpOptions& opts, Side* out);

// Modify steps, returning ibv_modify_qp's result.
int ModifyToInit(Side& s);
int ModifyToRtr(Side& s, uint32_t remote_qpn, uint32_t remote_psn,
                const ibv_gid& remote_gid);
int ModifyToRts(Side& s);
// UD: RESET -> INIT -> RTR -> RTS.
int ModifyUdToRts(Side& s);

// Connects two RC (or UC) sides: both INIT, RTR, RTS.
void Connect(Side& x, Side& y);

struct RcPair {
  Side a;  // the requester in most tests
  Side b;  // the responder
};

void MakeRcPair(const Endpoint& a, const Endpoint& b, const QpOptions& oa,
                const QpOptions& ob, RcPair* out);

inline ibv_ah_attr AhAttr(const Endpoint& local, const ibv_gid& remote_gid) {
  ibv_ah_attr ah{};
  ah.is_global = 1;
  ah.grh.dgid = remote_gid;
  ah.grh.sgid_index = static_cast<uint8_t>(local.gid_index);
  ah.grh.hop_limit = 64;
  ah.port_num = 1;
  return ah;
}

// Work requests.
inline ibv_send_wr SendWr(uint64_t wr_id, ibv_wr_opcode op, ibv_sge* sge,
                          int num_sge, unsigned flags = IBV_SEND_SIGNALED) {
  ibv_send_wr wr{};
  wr.wr_id = wr_id;
  wr.opcode = op;
  wr.sg_list = sge;
  wr.num_sge = num_sge;
  wr.send_flags = flags;
  return wr;
}

inline ibv_send_wr RdmaWr(uint64_t wr_id, ibv_wr_opcode op, ibv_sge* sge,
                          int num_sge, uint64_t remote_addr, uint32_t rkey,
                          unsigned flags = IBV_SEND_SIGNALED) {
  ibv_send_wr wr = SendWr(wr_id, op, sge, num_sge, flags);
  wr.wr.rdma.remote_addr = remote_addr;
  wr.wr.rdma.rkey = rkey;
  return wr;
}

// Posts one WR (or a chain); returns ibv_post_send's result.  @bad, when
// given, receives the failing WR.
int PostSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad = nullptr);
int PostRecv(ibv_qp* qp, uint64_t wr_id, ibv_sge* sge, int num_sge);

}  // namespace rue::test

#endif  // RUE_TESTS_CONN_H_
