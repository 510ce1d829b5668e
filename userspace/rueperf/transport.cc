// SPDX-License-Identifier: GPL-2.0
#include "rueperf/transport.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rue::perf {

// A full window and a latency echo fit; so do the unsignaled pings of a
// latency test, up to two signaled ones.
uint32_t SendDepth(const Params& params) {
  return std::max(params.depth + 1, 2 * kLatSignalEvery);
}

// The server keeps two receives per message in flight, so that a message
// never finds the receive queue empty while the last completion is being
// reposted (an RC RNR NAK would stall the run for the RNR timer).
uint32_t RecvDepth(const Params& params) { return 2 * params.depth + 1; }

std::string QpSet::Setup(Device& dev, std::span<const size_t> region_sizes,
                             int cqe) {
  dev_ = &dev;
  pd_.reset(ibv_alloc_pd(dev.ctx.get()));
  if (!pd_) return std::string("cannot allocate a PD: ") + strerror(errno);
  if (cqe > dev.attr.max_cqe)
    return "a CQ of " + std::to_string(cqe) + " entries is over the device's " +
           std::to_string(dev.attr.max_cqe) + ": lower --depth or --peers";
  cq_.reset(ibv_create_cq(dev.ctx.get(), cqe, nullptr, nullptr, 0));
  if (!cq_) return std::string("cannot create a CQ: ") + strerror(errno);
  const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                     IBV_ACCESS_REMOTE_READ;
  for (size_t size : region_sizes) {
    regions_.push_back(std::make_unique<Region>());
    std::string err = regions_.back()->Register(pd_.get(), size, access);
    if (!err.empty()) return err;
  }
  return "";
}

TransportResult CreateTransport(Device& dev, const Params& params, Role role,
                                std::span<const size_t> region_sizes) {
  if (IsUet(params.transport))
    return CreateUetTransport(dev, params, role, region_sizes);
  return CreateRcTransport(dev, params, role, region_sizes);
}

}  // namespace rue::perf
