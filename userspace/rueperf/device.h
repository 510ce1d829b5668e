// SPDX-License-Identifier: GPL-2.0
//
// The RDMA device a run uses: opened by name, the port's attributes, the
// GID the exchange announces (a RoCEv2 GID, the IPv4-mapped ones first,
// or the index -x gave), and owners for the verbs objects.
#ifndef RUE_RUEPERF_DEVICE_H_
#define RUE_RUEPERF_DEVICE_H_

#include <infiniband/verbs.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace rue::perf {

struct ContextCloser {
  void operator()(ibv_context* c) const { ibv_close_device(c); }
};
struct PdDeleter {
  void operator()(ibv_pd* pd) const { ibv_dealloc_pd(pd); }
};
struct CqDeleter {
  void operator()(ibv_cq* cq) const { ibv_destroy_cq(cq); }
};
struct QpDeleter {
  void operator()(ibv_qp* qp) const { ibv_destroy_qp(qp); }
};
struct MrDeleter {
  void operator()(ibv_mr* mr) const { ibv_dereg_mr(mr); }
};
struct AhDeleter {
  void operator()(ibv_ah* ah) const { ibv_destroy_ah(ah); }
};

using Context = std::unique_ptr<ibv_context, ContextCloser>;
using Pd = std::unique_ptr<ibv_pd, PdDeleter>;
using Cq = std::unique_ptr<ibv_cq, CqDeleter>;
using Qp = std::unique_ptr<ibv_qp, QpDeleter>;
using Mr = std::unique_ptr<ibv_mr, MrDeleter>;
using Ah = std::unique_ptr<ibv_ah, AhDeleter>;

struct Device {
  std::string name;
  Context ctx;
  ibv_device_attr attr{};
  ibv_port_attr port_attr{};
  uint8_t port = 1;
  uint8_t gid_index = 0;
  std::array<uint8_t, 16> gid{};
};

struct DeviceResult {
  std::unique_ptr<Device> device;
  std::string error;
};

// @gid_index -1: pick one (see above).
DeviceResult OpenDevice(const std::string& name, uint8_t port, int gid_index);

// A page-aligned, zeroed buffer and its registration.
class Region {
 public:
  Region() = default;
  ~Region();
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;

  // "" or why not.
  std::string Register(ibv_pd* pd, size_t size, int access);

  uint8_t* data(size_t off = 0) const { return mem_ + off; }
  size_t size() const { return size_; }
  uint64_t addr(size_t off = 0) const {
    return reinterpret_cast<uintptr_t>(mem_ + off);
  }
  ibv_mr* mr() const { return mr_.get(); }

 private:
  uint8_t* mem_ = nullptr;
  size_t size_ = 0;
  Mr mr_;
};

}  // namespace rue::perf

#endif  // RUE_RUEPERF_DEVICE_H_
