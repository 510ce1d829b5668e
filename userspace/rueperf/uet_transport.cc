// SPDX-License-Identifier: GPL-2.0
//
// UET (RUD, ROD) through librue's direct verbs (ruedv.h): IBV_QPT_DRIVER
// QPs of one job, moved RESET -> INIT -> RTR -> RTS with no peer (UET
// has no connection to set up: a PDC is made in band by the first
// request, UE 1.0.1 section 3.5), requests posted with the extended QP
// API, each naming its peer (an AH to the peer's GID and the peer's UET
// address) and, for WRITE and READ, the peer MR's 64-bit key.
#include <infiniband/ruedv.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "rueperf/transport.h"

namespace rue::perf {
namespace {

class UetTransport : public QpSet {
 public:
  UetTransport(const Params& params, Role role) : params_(params), role_(role) {}

  std::string Init(Device& dev, std::span<const size_t> region_sizes);

  size_t QpOfPeer(size_t peer) const override {
    return role_ == Role::kServer ? peer : 0;
  }
  size_t qp_count() const override { return qps_.size(); }
  std::vector<Endpoint> LocalEndpoints() const override;
  std::string Connect(std::span<const Endpoint> remote) override;
  std::string Post(std::span<const Work> batch) override;
  std::string PostRecv(size_t qp, uint64_t wr_id, uint64_t addr,
                       uint32_t len) override;

 private:
  std::string CheckCaps();
  std::string CreateQp(uint16_t resource_index);
  std::string ToRts(ibv_qp* qp);
  Region& RegionOfQp(size_t i) {
    return region(role_ == Role::kServer ? i : 0);
  }

  Params params_;
  Role role_;
  std::vector<Qp> qps_;
  std::vector<uint32_t> addrs_;     // each QP's UET address
  std::vector<uint64_t> key64s_;    // each region's 64-bit key
  // The peers: the client has one per server QP; the server's QPs all
  // talk to the client's one QP (peer 0 for each of them).
  std::vector<Ah> ahs_;
  std::vector<uint32_t> peer_addrs_;
};

std::string UetTransport::CheckCaps() {
  ruedv_device_attr attr{};
  int ret = ruedv_query_device(dev_->ctx.get(), &attr, sizeof(attr));
  if (ret == EOPNOTSUPP)
    return dev_->name + " is not a rue device (no UET direct verbs)";
  if (ret) return std::string("ruedv_query_device: ") + strerror(ret);
  uint32_t need = params_.transport == Transport::kRud
                      ? RUEDV_DEVICE_CAP_UET_RUD
                      : RUEDV_DEVICE_CAP_UET_ROD;
  switch (params_.op) {
  case Op::kSend: need |= RUEDV_DEVICE_CAP_UET_SEND; break;
  case Op::kWrite: need |= RUEDV_DEVICE_CAP_UET_WRITE; break;
  case Op::kRead: need |= RUEDV_DEVICE_CAP_UET_READ; break;
  }
  if ((attr.caps & need) != need) {
    char caps[16];
    std::snprintf(caps, sizeof(caps), "0x%x", attr.caps);
    return dev_->name + " cannot do UET " +
           std::string(Name(params_.transport)) + " " +
           std::string(Name(params_.op)) + " (its caps: " + caps + ")";
  }
  if (params_.size > attr.max_msg_size)
    return "--size " + std::to_string(params_.size) +
           " is over the device's largest UET message, " +
           std::to_string(attr.max_msg_size);
  return "";
}

std::string UetTransport::CreateQp(uint16_t resource_index) {
  ibv_qp_init_attr_ex init{};
  init.send_cq = cq_.get();
  init.recv_cq = cq_.get();
  init.qp_type = IBV_QPT_DRIVER;
  init.cap.max_send_wr = SendDepth(params_);
  init.cap.max_recv_wr = RecvDepth(params_);
  init.cap.max_send_sge = 1;
  init.cap.max_recv_sge = 1;
  init.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  init.pd = pd_.get();
  // Only the run's operation (latency echoes use it too): a device may
  // offer some UET operations and not others, and librue refuses a QP
  // asking for more than the device can do.
  switch (params_.op) {
  case Op::kSend: init.send_ops_flags = IBV_QP_EX_WITH_SEND; break;
  case Op::kWrite: init.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE; break;
  case Op::kRead: init.send_ops_flags = IBV_QP_EX_WITH_RDMA_READ; break;
  }
  ruedv_qp_init_attr uet{};
  uet.job_id = params_.job;
  uet.mode = params_.transport == Transport::kRud ? RUEDV_UET_RUD
                                                  : RUEDV_UET_ROD;
  uet.resource_index = resource_index;
  ibv_qp* qp = ruedv_create_qp(dev_->ctx.get(), &init, &uet, sizeof(uet));
  if (!qp)
    return std::string("cannot create a UET QP in job ") +
           std::to_string(params_.job) + ": " + strerror(errno) +
           (errno == EPERM || errno == EACCES
                ? " (is the job granted? 'ruectl job add')"
                : "");
  qps_.emplace_back(qp);
  ruedv_qp_attr qattr{};
  int ret = ruedv_query_qp(qp, &qattr, sizeof(qattr));
  if (ret) return std::string("ruedv_query_qp: ") + strerror(ret);
  addrs_.push_back(qattr.addr);
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.port_num = dev_->port;
  ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PORT);
  return ret ? std::string("UET QP to INIT: ") + strerror(ret) : "";
}

std::string UetTransport::Init(Device& dev,
                               std::span<const size_t> region_sizes) {
  size_t n = role_ == Role::kServer ? params_.peers : 1;
  uint32_t sq = SendDepth(params_), rq = RecvDepth(params_);
  dev_ = &dev;
  std::string err = CheckCaps();
  if (err.empty())
    err = Setup(dev, region_sizes, static_cast<int>(n * (sq + rq)));
  if (!err.empty()) return err;
  for (size_t i = 0; i < n; ++i) {
    err = CreateQp(static_cast<uint16_t>(i));
    if (!err.empty()) return err;
  }
  for (const auto& r : regions_) {
    ruedv_mr_attr mattr{};
    int ret = ruedv_query_mr(r->mr(), &mattr, sizeof(mattr));
    if (ret) return std::string("ruedv_query_mr: ") + strerror(ret);
    key64s_.push_back(mattr.key64);
  }
  return "";
}

std::vector<Endpoint> UetTransport::LocalEndpoints() const {
  std::vector<Endpoint> out;
  for (size_t i = 0; i < qps_.size(); ++i) {
    size_t r = role_ == Role::kServer ? i : 0;
    Endpoint e;
    e.gid = dev_->gid;
    e.qpn = addrs_[i];
    e.addr = regions_[r]->addr();
    e.key = key64s_[r];
    e.len = static_cast<uint32_t>(regions_[r]->size());
    out.push_back(e);
  }
  return out;
}

std::string UetTransport::ToRts(ibv_qp* qp) {
  for (ibv_qp_state s : {IBV_QPS_RTR, IBV_QPS_RTS}) {
    ibv_qp_attr attr{};
    attr.qp_state = s;
    int ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE);
    if (ret)
      return std::string("UET QP to ") + (s == IBV_QPS_RTR ? "RTR" : "RTS") +
             ": " + strerror(ret);
  }
  return "";
}

std::string UetTransport::Connect(std::span<const Endpoint> remote) {
  size_t want = role_ == Role::kServer ? 1 : params_.peers;
  if (remote.size() != want)
    return "the peer has " + std::to_string(remote.size()) +
           " UET endpoints, not " + std::to_string(want);
  for (const Endpoint& e : remote) {
    ibv_ah_attr ah{};
    ah.is_global = 1;
    std::memcpy(ah.grh.dgid.raw, e.gid.data(), 16);
    ah.grh.sgid_index = dev_->gid_index;
    ah.grh.hop_limit = 64;
    ah.port_num = dev_->port;
    ahs_.emplace_back(ibv_create_ah(pd_.get(), &ah));
    if (!ahs_.back())
      return std::string("cannot create an AH to the peer: ") +
             strerror(errno);
    peer_addrs_.push_back(e.qpn);
  }
  for (Qp& qp : qps_) {
    std::string err = ToRts(qp.get());
    if (!err.empty()) return err;
  }
  return "";
}

std::string UetTransport::Post(std::span<const Work> batch) {
  if (batch.empty()) return "";
  size_t qp = QpOfPeer(batch[0].peer);
  // The server's QP i has one peer, the client's QP, at index 0.
  auto peer_index = [&](uint16_t peer) -> size_t {
    return role_ == Role::kServer ? 0 : peer;
  };
  uint32_t lkey = RegionOfQp(qp).mr()->lkey;
  ibv_qp_ex* qpx = ibv_qp_to_qp_ex(qps_[qp].get());
  ibv_wr_start(qpx);
  for (const Work& w : batch) {
    size_t p = peer_index(w.peer);
    qpx->wr_id = w.wr_id;
    qpx->wr_flags = w.signaled ? IBV_SEND_SIGNALED : 0;
    switch (w.op) {
    case Op::kSend:
      ibv_wr_send(qpx);
      break;
    case Op::kWrite:
      ibv_wr_rdma_write(qpx, static_cast<uint32_t>(w.remote_key),
                        w.remote_addr);
      ruedv_wr_set_key64(qpx, w.remote_key);
      break;
    case Op::kRead:
      ibv_wr_rdma_read(qpx, static_cast<uint32_t>(w.remote_key),
                       w.remote_addr);
      ruedv_wr_set_key64(qpx, w.remote_key);
      break;
    }
    ruedv_wr_set_peer(qpx, ahs_[p].get(), peer_addrs_[p]);
    ibv_wr_set_sge(qpx, lkey, w.local_addr, w.len);
  }
  int ret = ibv_wr_complete(qpx);
  return ret ? std::string("ibv_wr_complete: ") + strerror(ret) : "";
}

std::string UetTransport::PostRecv(size_t qp, uint64_t wr_id, uint64_t addr,
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

TransportResult CreateUetTransport(Device& dev, const Params& params,
                                   Role role,
                                   std::span<const size_t> region_sizes) {
  auto t = std::make_unique<UetTransport>(params, role);
  std::string err = t->Init(dev, region_sizes);
  if (!err.empty()) return {nullptr, err};
  return {std::move(t), ""};
}

}  // namespace rue::perf
