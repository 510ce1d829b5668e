// SPDX-License-Identifier: GPL-2.0
#include "ruectl/device_parse.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <vector>

namespace rue::cli {
namespace {

using nl::AttrKind;
using nl::AttrPolicy;

constexpr AttrPolicy kDevicePolicy[] = {
    {RUE_A_DEV_INDEX, AttrKind::kU32, "dev-index", true},
    {RUE_A_DEV_NAME, AttrKind::kString, "dev-name", true},
    {RUE_A_DEV_NETDEV_IFINDEX, AttrKind::kU32, "dev-netdev-ifindex", true},
    {RUE_A_DEV_NETDEV_NAME, AttrKind::kString, "dev-netdev-name", true},
    {RUE_A_DEV_PORT_STATE, AttrKind::kU8, "dev-port-state", true},
    {RUE_A_DEV_PHYS_STATE, AttrKind::kU8, "dev-phys-state", true},
    {RUE_A_DEV_ACTIVE_MTU, AttrKind::kU32, "dev-active-mtu", true},
    {RUE_A_DEV_NETDEV_MTU, AttrKind::kU32, "dev-netdev-mtu", true},
    {RUE_A_DEV_GIDS, AttrKind::kNested, "dev-gids"},
    {RUE_A_DEV_NODE_GUID, AttrKind::kU64, "dev-node-guid", true},
};

constexpr AttrPolicy kGidPolicy[] = {
    {RUE_A_GID_INDEX, AttrKind::kU32, "gid-index", true},
    {RUE_A_GID_GID, AttrKind::kBinary, "gid-gid", true, 16},
    {RUE_A_GID_TYPE, AttrKind::kU8, "gid-type", true},
};

nl::Result<std::vector<Gid>> ParseGids(nl::Bytes nest) {
  std::vector<Gid> gids;
  nl::Status walked = nl::ForEachAttr(nest, [&](const nl::Attr& attr) {
    if (attr.type() != RUE_A_DEV_GID) return nl::Ok();
    nl::Result<Gid> gid = ParseGid(attr.payload());
    if (!gid.ok()) return nl::Status(gid.error());
    gids.push_back(*gid);
    return nl::Ok();
  });
  if (!walked.ok()) return walked.error();
  return gids;
}

Device DeviceFrom(const nl::AttrTable& table) {
  Device device;
  device.index = table.U32(RUE_A_DEV_INDEX);
  device.name = table.Str(RUE_A_DEV_NAME);
  device.netdev_index = table.U32(RUE_A_DEV_NETDEV_IFINDEX);
  device.netdev = table.Str(RUE_A_DEV_NETDEV_NAME);
  device.port_state = table.U8(RUE_A_DEV_PORT_STATE);
  device.phys_state = table.U8(RUE_A_DEV_PHYS_STATE);
  device.active_mtu = table.U32(RUE_A_DEV_ACTIVE_MTU);
  device.netdev_mtu = table.U32(RUE_A_DEV_NETDEV_MTU);
  device.node_guid = table.U64(RUE_A_DEV_NODE_GUID);
  return device;
}

}  // namespace

nl::Result<Gid> ParseGid(nl::Bytes nest) {
  nl::Result<nl::AttrTable> table = nl::AttrTable::Parse(nest, kGidPolicy);
  if (!table.ok()) return table.error();
  Gid gid;
  gid.index = table->U32(RUE_A_GID_INDEX);
  nl::Bytes raw = table->Payload(RUE_A_GID_GID);
  std::transform(raw.begin(), raw.end(), gid.raw.begin(),
                 [](std::byte b) { return static_cast<uint8_t>(b); });
  gid.type = table->U8(RUE_A_GID_TYPE);
  return gid;
}

nl::Result<Device> ParseDevice(nl::Bytes attrs) {
  nl::Result<nl::AttrTable> table = nl::AttrTable::Parse(attrs, kDevicePolicy);
  if (!table.ok()) return table.error();
  Device device = DeviceFrom(*table);
  nl::Result<std::vector<Gid>> gids = ParseGids(table->Payload(RUE_A_DEV_GIDS));
  if (!gids.ok()) return gids.error();
  device.gids = std::move(gids).value();
  return device;
}

}  // namespace rue::cli
