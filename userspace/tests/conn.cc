// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/conn.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rue::test {

std::string TopologyName(Topology t) {
  switch (t) {
    case Topology::kTwoDevices:
      return "TwoDevices";
    case Topology::kLoopback:
      return "Loopback";
    case Topology::kTwoDevicesIpv6:
      return "TwoDevicesIpv6";
  }
  return "Unknown";
}

bool ResolveTopology(Topology t, Endpoint* a, Endpoint* b, std::string* why) {
  Device& da = DevA();
  Device& db = DevB();
  switch (t) {
    case Topology::kTwoDevices:
      *a = {&da, *da.gid4};
      *b = {&db, *db.gid4};
      return true;
    case Topology::kLoopback:
      *a = {&da, *da.gid4};
      *b = {&da, *da.gid4};
      return true;
    case Topology::kTwoDevicesIpv6:
      if (!da.gid6 || !db.gid6) {
        *why = "no RoCEv2 GID for " + (da.gid6 ? db.ip6 : da.ip6);
        return false;
      }
      *a = {&da, *da.gid6};
      *b = {&db, *db.gid6};
      return true;
  }
  return false;
}

void CreateSide(const Endpoint& ep, const QpOptions& opts, Side* out) {
  out->ep = ep;
  out->opts = opts;
  if (out->opts.mtu == 0) out->opts.mtu = ep.dev->ActiveMtu();
  // The defaults ask for the most; a device may offer less.
  out->opts.max_rd_atomic = static_cast<uint8_t>(
      std::min<int>(out->opts.max_rd_atomic, ep.dev->attr.max_qp_init_rd_atom));
  out->opts.max_dest_rd_atomic = static_cast<uint8_t>(
      std::min<int>(out->opts.max_dest_rd_atomic, ep.dev->attr.max_qp_rd_atom));
  errno = 0;
  if (!opts.pd) {
    out->pd.reset(ibv_alloc_pd(ep.ctx()));
    ASSERT_NE(out->pd, nullptr) << "ibv_alloc_pd: " << strerror(errno);
  }
  int scqe = opts.send_cqe ? opts.send_cqe : static_cast<int>(opts.max_send_wr);
  int rcqe = opts.recv_cqe ? opts.recv_cqe : static_cast<int>(opts.max_recv_wr);
  if (!opts.send_cq) {
    out->scq.reset(ibv_create_cq(ep.ctx(), scqe, nullptr, opts.channel, 0));
    ASSERT_NE(out->scq, nullptr)
        << "ibv_create_cq(" << scqe << "): " << strerror(errno);
  }
  if (!opts.recv_cq) {
    out->rcq.reset(ibv_create_cq(ep.ctx(), rcqe, nullptr, opts.channel, 0));
    ASSERT_NE(out->rcq, nullptr)
        << "ibv_create_cq(" << rcqe << "): " << strerror(errno);
  }

  ibv_qp_init_attr_ex init{};
  init.send_cq = out->SendCq();
  init.recv_cq = out->RecvCq();
  init.qp_type = opts.type;
  init.sq_sig_all = opts.sq_sig_all;
  init.srq = opts.srq;
  init.cap.max_send_wr = opts.max_send_wr;
  init.cap.max_recv_wr = opts.max_recv_wr;
  init.cap.max_send_sge = opts.max_send_sge;
  init.cap.max_recv_sge = opts.max_recv_sge;
  init.cap.max_inline_data = opts.max_inline_data;
  init.pd = out->ProtectionDomain();
  init.comp_mask = IBV_QP_INIT_ATTR_PD;
  if (opts.send_ops_flags) {
    init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    init.send_ops_flags = opts.send_ops_flags;
  }
  out->qp.reset(ibv_create_qp_ex(ep.ctx(), &init));
  ASSERT_NE(out->qp, nullptr) << "ibv_create_qp_ex: " << strerror(errno);
  out->cap = init.cap;
}

int ModifyToInit(Side& s) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.pkey_index = 0;
  attr.port_num = 1;
  int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
  if (s.opts.type == IBV_QPT_UD) {
    attr.qkey = s.opts.qkey;
    mask |= IBV_QP_QKEY;
  } else {
    attr.qp_access_flags = static_cast<unsigned>(s.opts.access);
    mask |= IBV_QP_ACCESS_FLAGS;
  }
  return ibv_modify_qp(s.qp.get(), &attr, mask);
}

int ModifyToRtr(Side& s, uint32_t remote_qpn, uint32_t remote_psn,
                const ibv_gid& remote_gid) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTR;
  attr.path_mtu = s.opts.mtu;
  attr.dest_qp_num = remote_qpn;
  attr.rq_psn = remote_psn;
  attr.max_dest_rd_atomic = s.opts.max_dest_rd_atomic;
  attr.min_rnr_timer = s.opts.min_rnr_timer;
  attr.ah_attr = AhAttr(s.ep, remote_gid);
  attr.ah_attr.grh.traffic_class = s.opts.traffic_class;
  int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
             IBV_QP_RQ_PSN;
  // UC has no READs, atomics or RNR NAKs (IBTA 11.2.4.2, table 91)
  if (s.opts.type != IBV_QPT_UC)
    mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
  return ibv_modify_qp(s.qp.get(), &attr, mask);
}

int ModifyToRts(Side& s) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTS;
  attr.timeout = s.opts.timeout;
  attr.retry_cnt = s.opts.retry_cnt;
  attr.rnr_retry = s.opts.rnr_retry;
  attr.sq_psn = s.opts.sq_psn;
  attr.max_rd_atomic = s.opts.max_rd_atomic;
  int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
  // ... and no acknowledgements to time out
  if (s.opts.type != IBV_QPT_UC)
    mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
            IBV_QP_MAX_QP_RD_ATOMIC;
  return ibv_modify_qp(s.qp.get(), &attr, mask);
}

int ModifyUdToRts(Side& s) {
  if (int ret = ModifyToInit(s)) return ret;
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTR;
  if (int ret = ibv_modify_qp(s.qp.get(), &attr, IBV_QP_STATE)) return ret;
  attr.qp_state = IBV_QPS_RTS;
  attr.sq_psn = s.opts.sq_psn;
  return ibv_modify_qp(s.qp.get(), &attr, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

void Connect(Side& x, Side& y) {
  int ret = ModifyToInit(x);
  ASSERT_EQ(ret, 0) << "INIT: " << strerror(ret);
  ret = ModifyToInit(y);
  ASSERT_EQ(ret, 0) << "INIT: " << strerror(ret);
  ret = ModifyToRtr(x, y.qpn(), y.opts.sq_psn, y.ep.gid());
  ASSERT_EQ(ret, 0) << "RTR: " << strerror(ret);
  ret = ModifyToRtr(y, x.qpn(), x.opts.sq_psn, x.ep.gid());
  ASSERT_EQ(ret, 0) << "RTR: " << strerror(ret);
  ret = ModifyToRts(x);
  ASSERT_EQ(ret, 0) << "RTS: " << strerror(ret);
  ret = ModifyToRts(y);
  ASSERT_EQ(ret, 0) << "RTS: " << strerror(ret);
}

void MakeRcPair(const Endpoint& a, const Endpoint& b, const QpOptions& oa,
                const QpOptions& ob, RcPair* out) {
  ASSERT_NO_FATAL_FAILURE(CreateSide(a, oa, &out->a));
  ASSERT_NO_FATAL_FAILURE(CreateSide(b, ob, &out->b));
  ASSERT_NO_FATAL_FAILURE(Connect(out->a, out->b));
}

int PostSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
  ibv_send_wr* dummy = nullptr;
  return ibv_post_send(qp, wr, bad ? bad : &dummy);
}

int PostRecv(ibv_qp* qp, uint64_t wr_id, ibv_sge* sge, int num_sge) {
  ibv_recv_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = sge;
  wr.num_sge = num_sge;
  ibv_recv_wr* bad = nullptr;
  return ibv_post_recv(qp, &wr, &bad);
}

}  // namespace rue::test
