// SPDX-License-Identifier: GPL-2.0
#include "rueperf/device.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace rue::perf {
namespace {

bool IsIpv4Mapped(const ibv_gid& gid) {
  static constexpr uint8_t kPrefix[12] = {0, 0, 0, 0, 0, 0,
                                          0, 0, 0, 0, 0xff, 0xff};
  return std::memcmp(gid.raw, kPrefix, sizeof(kPrefix)) == 0;
}

// The first RoCEv2 GID, IPv4-mapped ones before the others (perftest's
// -x is the usual way to say which; this is its sensible default).
std::optional<uint8_t> PickGid(ibv_context* ctx, uint8_t port, int table) {
  std::optional<uint8_t> any;
  for (int i = 0; i < table && i < 256; ++i) {
    ibv_gid_entry entry{};
    if (ibv_query_gid_ex(ctx, port, i, &entry, 0)) continue;
    if (entry.gid_type != IBV_GID_TYPE_ROCE_V2) continue;
    if (IsIpv4Mapped(entry.gid)) return static_cast<uint8_t>(i);
    if (!any) any = static_cast<uint8_t>(i);
  }
  return any;
}

DeviceResult Fail(std::string error) { return {nullptr, std::move(error)}; }

}  // namespace

DeviceResult OpenDevice(const std::string& name, uint8_t port, int gid_index) {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (!list)
    return Fail("no RDMA devices (looking for " + name + "): " + strerror(errno));
  auto dev = std::make_unique<Device>();
  dev->name = name;
  for (int i = 0; i < n; ++i)
    if (name == ibv_get_device_name(list[i]))
      dev->ctx.reset(ibv_open_device(list[i]));
  ibv_free_device_list(list);
  if (!dev->ctx) return Fail("no RDMA device " + name + " (or it cannot be opened)");
  if (ibv_query_device(dev->ctx.get(), &dev->attr))
    return Fail(name + ": cannot query the device");
  dev->port = port;
  if (ibv_query_port(dev->ctx.get(), port, &dev->port_attr))
    return Fail(name + ": no port " + std::to_string(port));
  if (dev->port_attr.state != IBV_PORT_ACTIVE)
    return Fail(name + ": port " + std::to_string(port) + " is not active");
  if (gid_index < 0) {
    std::optional<uint8_t> g =
        PickGid(dev->ctx.get(), port, dev->port_attr.gid_tbl_len);
    if (!g) return Fail(name + ": no RoCEv2 GID on port " + std::to_string(port));
    dev->gid_index = *g;
  } else {
    dev->gid_index = static_cast<uint8_t>(gid_index);
  }
  ibv_gid gid{};
  if (ibv_query_gid(dev->ctx.get(), port, dev->gid_index, &gid))
    return Fail(name + ": no GID index " + std::to_string(dev->gid_index));
  static constexpr uint8_t kZero[16] = {};
  if (std::memcmp(gid.raw, kZero, sizeof(kZero)) == 0)
    return Fail(name + ": GID index " + std::to_string(dev->gid_index) +
                " is empty");
  std::memcpy(dev->gid.data(), gid.raw, 16);
  return {std::move(dev), ""};
}

Region::~Region() {
  mr_.reset();
  std::free(mem_);
}

std::string Region::Register(ibv_pd* pd, size_t size, int access) {
  long page = sysconf(_SC_PAGESIZE);
  size_t rounded = (size + page - 1) / page * page;
  mem_ = static_cast<uint8_t*>(std::aligned_alloc(page, rounded));
  if (!mem_) return "cannot allocate " + std::to_string(size) + " bytes";
  std::memset(mem_, 0, rounded);
  size_ = size;
  mr_.reset(ibv_reg_mr(pd, mem_, size, access));
  if (!mr_)
    return "cannot register " + std::to_string(size) + " bytes: " +
           strerror(errno);
  return "";
}

}  // namespace rue::perf
