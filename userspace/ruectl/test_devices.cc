// SPDX-License-Identifier: GPL-2.0
#include "ruectl/test_devices.h"

#include <linux/rue_netlink.h>

#include <cerrno>

namespace rue::cli::testing {
namespace {

constexpr std::array<uint8_t, 16> kLinkLocal = {
    0xfe, 0x80, 0,    0,    0,    0,    0,    0,
    0x50, 0x54, 0x00, 0xff, 0xfe, 0x12, 0x34, 0x56};
constexpr std::array<uint8_t, 16> kMapped = {0, 0, 0,    0,    0,   0, 0, 0,
                                             0, 0, 0xff, 0xff, 192, 0, 2, 1};

Device Rue0() {
  Device d;
  d.index = 0;
  d.name = "rue0";
  d.netdev_index = 2;
  d.netdev = "eth0";
  d.port_state = 4;  // ACTIVE
  d.phys_state = 5;  // LINK_UP
  d.active_mtu = 1024;
  d.netdev_mtu = 1500;
  d.node_guid = 0x525400fffe123456ull;
  d.gids = {{0, kLinkLocal, RUE_GID_TYPE_ROCE_V1},
            {1, kLinkLocal, RUE_GID_TYPE_ROCE_V2},
            {2, kMapped, RUE_GID_TYPE_ROCE_V2}};
  return d;
}

Device Rue1() {
  Device d;
  d.index = 1;
  d.name = "rue1";
  d.netdev_index = 3;
  d.netdev = "eth1";
  d.port_state = 1;  // DOWN
  d.phys_state = 3;  // DISABLED
  d.active_mtu = 4096;
  d.netdev_mtu = 9000;
  d.node_guid = 0x525400fffe654321ull;
  return d;
}

}  // namespace

std::vector<Device> SampleDevices() { return {Rue0(), Rue1()}; }

nl::Result<std::vector<Device>> FakeBackend::ListDevices() {
  ++requests_;
  if (failure_) return *failure_;
  return devices_;
}

nl::Result<Device> FakeBackend::GetDevice(std::string_view name) {
  ++requests_;
  if (failure_) return *failure_;
  for (const Device& device : devices_) {
    if (device.name == name) return device;
  }
  return nl::Error{ENODEV, "no such rue device"};
}

}  // namespace rue::cli::testing
