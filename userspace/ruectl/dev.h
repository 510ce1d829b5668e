// SPDX-License-Identifier: GPL-2.0
//
// The "dev" object: ruectl dev { show [DEV] | help }.  A rue device as
// RUE_CMD_DEV_GET describes it (uapi/linux/rue_netlink.h): the message,
// the field list "dev show" prints, and the command.
#ifndef RUE_RUECTL_DEV_H_
#define RUE_RUECTL_DEV_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "nl/attr.h"
#include "nl/result.h"
#include "ruectl/print.h"

namespace rue::cli {

class Cli;

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

// `attrs`: the attributes after the genlmsghdr.  Everything the kernel
// always sends is required; the GID table may be absent (empty), and
// attributes this code does not know are skipped.  EBADMSG, naming the
// attribute, when one is missing or malformed.
nl::Result<Device> ParseDevice(nl::Bytes attrs);
// `nest`: the payload of one RUE_A_DEV_GID.
nl::Result<Gid> ParseGid(nl::Bytes nest);

// enum ib_port_state: DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER.
std::string_view PortStateName(uint8_t state);
// IB physical port state: SLEEP, POLLING, DISABLED, ..., LINK_UP, ...
std::string_view PhysStateName(uint8_t state);
// enum rue_gid_type: IB, RoCEv1, RoCEv2.
std::string_view GidTypeName(uint8_t type);
// As rdma(8) prints GUIDs: four groups of four hex digits, "0011:2233:...".
std::string FormatGuid(uint64_t guid);

// What "dev show" prints of `device`.
Record DeviceRecord(const Device& device);

void AddDevObject(Cli& cli);

}  // namespace rue::cli

#endif  // RUE_RUECTL_DEV_H_
