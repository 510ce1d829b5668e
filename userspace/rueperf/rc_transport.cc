// SPDX-License-Identifier: GPL-2.0
//
// RC: one QP per peer, connected by hand from the exchanged QPNs and
// GIDs (RoCEv2: a global route to the peer's GID), as perftest does
// without rdma_cm.  Requests go in ibv_post_send chains.
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "rueperf/transport.h"

namespace rue::perf {
namespace {

// Both sides start at PSN 0: a fresh QP pair needs nothing else.
constexpr uint32_t kStartPsn = 0;
constexpr uint8_t kMaxRdAtomic = 16;

class RcTransport : public QpSet {
 public:
  RcTransport(const Params& params, Role role) : params_(params), role_(role) {}

  std::string Init(Device& dev, std::span<const size_t> region_sizes);

  size_t QpOfPeer(size_t peer) const override { return peer; }
  size_t qp_count() const override { return qps_.size(); }
  std::vector<Endpoint> LocalEndpoints() const override;
  std::string Connect(std::span<const Endpoint> remote) override;
  std::string Post(std::span<const Work> batch) override;
  std::string PostRecv(size_t qp, uint64_t wr_id, uint64_t addr,
                       uint32_t len) override;

 private:
  std::string ToRtr(ibv_qp* qp, const Endpoint& remote);
  std::string ToRts(ibv_qp* qp);
  // The server's QP i uses region i; the client's all use region 0.
  Region& RegionOfQp(size_t i) {
    return region(role_ == Role::kServer ? i : 0);
  }

  Params params_;
  Role role_;
  uint8_t rd_atomic_ = 1;
  std::vector<Qp> qps_;
};

std::string RcTransport::Init(Device& dev,
                              std::span<const size_t> region_sizes) {
  size_t n = params_.peers;
  uint32_t sq = SendDepth(params_), rq = RecvDepth(params_);
  if (sq > static_cast<uint32_t>(dev.attr.max_qp_wr) ||
      rq > static_cast<uint32_t>(dev.attr.max_qp_wr))
    return "--depth " + std::to_string(params_.depth) +
           " needs more WRs per QP than the device's " +
           std::to_string(dev.attr.max_qp_wr);
  std::string err = Setup(dev, region_sizes, static_cast<int>(n * (sq + rq)));
  if (!err.empty()) return err;
  rd_atomic_ = static_cast<uint8_t>(
      std::min<int>(kMaxRdAtomic, std::max(1, dev.attr.max_qp_rd_atom)));
  for (size_t i = 0; i < n; ++i) {
    ibv_qp_init_attr init{};
    init.send_cq = cq_.get();
    init.recv_cq = cq_.get();
    init.qp_type = IBV_QPT_RC;
    init.cap.max_send_wr = sq;
    init.cap.max_recv_wr = rq;
    init.cap.max_send_sge = 1;
    init.cap.max_recv_sge = 1;
    qps_.emplace_back(ibv_create_qp(pd_.get(), &init));
    if (!qps_.back())
      return std::string("cannot create an RC QP: ") + strerror(errno);
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = 0;
    attr.port_num = dev.port;
    attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                           IBV_ACCESS_REMOTE_READ;
    int ret = ibv_modify_qp(qps_.back().get(), &attr,
                            IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                                IBV_QP_ACCESS_FLAGS);
    if (ret) return std::string("RC QP to INIT: ") + strerror(ret);
  }
  return "";
}

std::vector<Endpoint> RcTransport::LocalEndpoints() const {
  std::vector<Endpoint> out;
  for (size_t i = 0; i < qps_.size(); ++i) {
    const Region& r = *regions_[role_ == Role::kServer ? i : 0];
    Endpoint e;
    e.gid = dev_->gid;
    e.qpn = qps_[i]->qp_num;
    e.addr = r.addr();
    e.key = r.mr()->rkey;
    e.len = static_cast<uint32_t>(r.size());
    out.push_back(e);
  }
  return out;
}

std::string RcTransport::ToRtr(ibv_qp* qp, const Endpoint& remote) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTR;
  attr.path_mtu = dev_->port_attr.active_mtu;
  attr.dest_qp_num = remote.qpn;
  attr.rq_psn = kStartPsn;
  attr.max_dest_rd_atomic = rd_atomic_;
  attr.min_rnr_timer = 1;  // 0.01 ms: a missing receive is reposted soon
  attr.ah_attr.is_global = 1;
  std::memcpy(attr.ah_attr.grh.dgid.raw, remote.gid.data(), 16);
  attr.ah_attr.grh.sgid_index = dev_->gid_index;
  attr.ah_attr.grh.hop_limit = 64;
  attr.ah_attr.port_num = dev_->port;
  int ret = ibv_modify_qp(qp, &attr,
                          IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                              IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                              IBV_QP_MAX_DEST_RD_ATOMIC |
                              IBV_QP_MIN_RNR_TIMER);
  return ret ? std::string("RC QP to RTR: ") + strerror(ret) : "";
}

std::string RcTransport::ToRts(ibv_qp* qp) {
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_RTS;
  attr.sq_psn = kStartPsn;
  attr.timeout = 14;
  attr.retry_cnt = 7;
  attr.rnr_retry = 7;  // retry forever: the peer reposts
  attr.max_rd_atomic = rd_atomic_;
  int ret = ibv_modify_qp(qp, &attr,
                          IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                              IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                              IBV_QP_MAX_QP_RD_ATOMIC);
  return ret ? std::string("RC QP to RTS: ") + strerror(ret) : "";
}

std::string RcTransport::Connect(std::span<const Endpoint> remote) {
  if (remote.size() != qps_.size())
    return "the peer has " + std::to_string(remote.size()) + " QPs for our " +
           std::to_string(qps_.size());
  for (size_t i = 0; i < qps_.size(); ++i) {
    std::string err = ToRtr(qps_[i].get(), remote[i]);
    if (err.empty()) err = ToRts(qps_[i].get());
    if (!err.empty()) return err;
  }
  return "";
}

std::string RcTransport::Post(std::span<const Work> batch) {
  if (batch.empty()) return "";
  constexpr size_t kMax = 64;
  ibv_send_wr wrs[kMax];
  ibv_sge sges[kMax];
  if (batch.size() > kMax) return "internal: batch too long";
  size_t qp = QpOfPeer(batch[0].peer);
  uint32_t lkey = RegionOfQp(qp).mr()->lkey;
  for (size_t i = 0; i < batch.size(); ++i) {
    const Work& w = batch[i];
    sges[i] = {w.local_addr, w.len, lkey};
    ibv_send_wr& wr = wrs[i];
    wr = {};
    wr.wr_id = w.wr_id;
    wr.sg_list = &sges[i];
    wr.num_sge = 1;
    wr.send_flags = w.signaled ? IBV_SEND_SIGNALED : 0;
    wr.next = i + 1 < batch.size() ? &wrs[i + 1] : nullptr;
    switch (w.op) {
    case Op::kSend: wr.opcode = IBV_WR_SEND; break;
    case Op::kWrite: wr.opcode = IBV_WR_RDMA_WRITE; break;
    case Op::kRead: wr.opcode = IBV_WR_RDMA_READ; break;
    }
    wr.wr.rdma.remote_addr = w.remote_addr;
    wr.wr.rdma.rkey = static_cast<uint32_t>(w.remote_key);
  }
  ibv_send_wr* bad = nullptr;
  int ret = ibv_post_send(qps_[qp].get(), wrs, &bad);
  return ret ? std::string("ibv_post_send: ") + strerror(ret) : "";
}

std::string RcTransport::PostRecv(size_t qp, uint64_t wr_id, uint64_t addr,
                                  uint32_t len) {
  ibv_sge sge{addr, len, RegionOfQp(qp).mr()->lkey};
  ibv_recv_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  int ret = ibv_post_recv(qps_[qp].get(), &wr, &bad);
  return ret ? std::string("ibv_post_recv: ") + strerror(ret) : "";
}

}  // namespace

TransportResult CreateRcTransport(Device& dev, const Params& params, Role role,
                                  std::span<const size_t> region_sizes) {
  auto t = std::make_unique<RcTransport>(params, role);
  std::string err = t->Init(dev, region_sizes);
  if (!err.empty()) return {nullptr, err};
  return {std::move(t), ""};
}

}  // namespace rue::perf
