// SPDX-License-Identifier: GPL-2.0
//
// The QPs of one side of a run, behind one interface so that the
// benchmark loops do not care which transport they drive:
//
//   RC   one QP per peer on both sides; peer i is QP i.
//   UET  (RUD, ROD) the client has one QP and addresses every peer (a
//        server QP) through an AH and the peer's UET address; the server
//        has one QP per peer, all talking to the client's one QP.
//
// Every QP shares one CQ.  The caller lays out the buffers: one region
// per server QP, one region for the client.
#ifndef RUE_RUEPERF_TRANSPORT_H_
#define RUE_RUEPERF_TRANSPORT_H_

#include <infiniband/verbs.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rueperf/device.h"
#include "rueperf/exchange.h"
#include "rueperf/options.h"
#include "rueperf/params.h"

namespace rue::perf {

// One send-queue work request.
struct Work {
  Op op;
  uint16_t peer;
  uint64_t wr_id;
  uint64_t local_addr;
  uint32_t len;
  uint64_t remote_addr;  // WRITE, READ
  uint64_t remote_key;   // WRITE, READ: RC rkey or UET 64-bit key
  bool signaled;
};

class QpSet {
 public:
  virtual ~QpSet() = default;

  // The QP that talks to @peer.
  virtual size_t QpOfPeer(size_t peer) const = 0;
  virtual size_t qp_count() const = 0;
  // This side's QPs and buffers, for the exchange (see Hello, Accept).
  virtual std::vector<Endpoint> LocalEndpoints() const = 0;
  // To RTS, talking to @remote; "" or why not.
  virtual std::string Connect(std::span<const Endpoint> remote) = 0;
  // @batch: WRs of one QP, posted in one call; "" or why not.
  virtual std::string Post(std::span<const Work> batch) = 0;
  virtual std::string PostRecv(size_t qp, uint64_t wr_id, uint64_t addr,
                               uint32_t len) = 0;
  // Completions, or -1 if polling failed.
  int Poll(std::span<ibv_wc> wcs) {
    return ibv_poll_cq(cq_.get(), static_cast<int>(wcs.size()), wcs.data());
  }

  Region& region(size_t i) { return *regions_[i]; }
  size_t region_count() const { return regions_.size(); }

 protected:
  // The PD, CQ and regions of @region_sizes; "" or why not.
  std::string Setup(Device& dev, std::span<const size_t> region_sizes,
                    int cqe);

  Device* dev_ = nullptr;
  Pd pd_;
  Cq cq_;
  std::vector<std::unique_ptr<Region>> regions_;
};

struct TransportResult {
  std::unique_ptr<QpSet> transport;
  std::string error;
};

// The QPs (in INIT) and buffers of one side.  @region_sizes: one per
// server QP, or the client's one.
TransportResult CreateTransport(Device& dev, const Params& params, Role role,
                                std::span<const size_t> region_sizes);

// Each transport's factory (rc_transport.cc, uet_transport.cc).
TransportResult CreateRcTransport(Device& dev, const Params& params,
                                  Role role,
                                  std::span<const size_t> region_sizes);
TransportResult CreateUetTransport(Device& dev, const Params& params,
                                   Role role,
                                   std::span<const size_t> region_sizes);

// Latency tests signal one ping in this many (client.cc).
inline constexpr uint32_t kLatSignalEvery = 16;

// The QP caps a side needs.
uint32_t SendDepth(const Params& params);
uint32_t RecvDepth(const Params& params);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_TRANSPORT_H_
