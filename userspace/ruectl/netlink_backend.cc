// SPDX-License-Identifier: GPL-2.0
#include "ruectl/netlink_backend.h"

#include <linux/rue_netlink.h>

#include <cerrno>
#include <string>

#include "ruectl/device_parse.h"

namespace rue::cli {
namespace {

// The kernel refuses longer names (IB_DEVICE_NAME_MAX - 1): no device can
// have one.
constexpr size_t kMaxDeviceName = 63;

nl::Error BadReply(const nl::Error& error) {
  return nl::Error{error.code,
                   "bad device message from the kernel: " + error.message};
}

// A handler that parses each reply into a device and passes it on.
nl::GenlHandler CollectDevices(std::vector<Device>& devices) {
  return [&devices](const nl::GenlMessage& message) -> nl::Status {
    nl::Result<Device> device = ParseDevice(message.attrs);
    if (!device.ok()) return BadReply(device.error());
    devices.push_back(std::move(device).value());
    return nl::Ok();
  };
}

}  // namespace

nl::Status NetlinkBackend::Connect() {
  if (socket_) return nl::Ok();
  nl::Result<nl::GenlSocket> socket = nl::GenlSocket::Open();
  if (!socket.ok()) return socket.error();
  nl::Result<nl::Family> family = socket->ResolveFamily(RUE_GENL_NAME);
  if (!family.ok() && family.error().code == ENOENT)
    return nl::Error{ENOENT, std::string(kModuleNotLoaded)};
  if (!family.ok()) return family.error();
  family_ = std::move(family).value();
  socket_.emplace(std::move(socket).value());
  return nl::Ok();
}

nl::MessageBuilder NetlinkBackend::Request(uint8_t cmd) const {
  return nl::GenlRequest(family_.id, cmd, RUE_GENL_VERSION);
}

nl::Result<std::vector<Device>> NetlinkBackend::ListDevices() {
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Device> devices;
  nl::MessageBuilder request = Request(RUE_CMD_DEV_GET);
  nl::Status dumped = socket_->Dump(request, CollectDevices(devices));
  if (!dumped.ok()) return dumped.error();
  return devices;
}

nl::Result<Device> NetlinkBackend::GetDevice(std::string_view name) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Device> devices;
  nl::MessageBuilder request = Request(RUE_CMD_DEV_GET);
  request.PutString(RUE_A_DEV_NAME, name);
  nl::Status done = socket_->Do(request, CollectDevices(devices));
  if (!done.ok()) return done.error();
  if (devices.size() != 1)
    return nl::Error{EPROTO, "expected one device in the kernel's reply"};
  return std::move(devices.front());
}

}  // namespace rue::cli
