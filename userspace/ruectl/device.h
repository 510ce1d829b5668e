// SPDX-License-Identifier: GPL-2.0
//
// A rue device as RUE_CMD_DEV_GET describes it (uapi/linux/rue_netlink.h).
#ifndef RUE_RUECTL_DEVICE_H_
#define RUE_RUECTL_DEVICE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rue::cli {

struct Gid {
  uint32_t index = 0;
  std::array<uint8_t, 16> raw{};  // network order, as on the wire
  uint8_t type = 0;               // enum rue_gid_type
};

struct Device {
  uint32_t index = 0;  // ib_device index
  std::string name;
  uint32_t netdev_index = 0;
  std::string netdev;
  uint8_t port_state = 0;   // enum ib_port_state
  uint8_t phys_state = 0;   // IB physical port state
  uint32_t active_mtu = 0;  // bytes
  uint32_t netdev_mtu = 0;
  uint64_t node_guid = 0;  // host order
  std::vector<Gid> gids;
};

}  // namespace rue::cli

#endif  // RUE_RUECTL_DEVICE_H_
