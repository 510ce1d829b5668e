// SPDX-License-Identifier: GPL-2.0
#include "ruectl/dev.h"

#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>

#include <algorithm>
#include <cstdio>
#include <optional>

#include "ruectl/backend.h"
#include "ruectl/cli.h"

namespace rue::cli {
namespace {

using nl::AttrKind;
using nl::AttrPolicy;

// The message.

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

// The names: indexed by value, an empty entry a value with no name.

constexpr std::string_view kPortStates[] = {
    "", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER",
};

constexpr std::string_view kPhysStates[] = {
    "",
    "SLEEP",
    "POLLING",
    "DISABLED",
    "PORT_CONFIGURATION_TRAINING",
    "LINK_UP",
    "LINK_ERROR_RECOVERY",
    "PHY_TEST",
};

constexpr std::string_view kGidTypes[] = {"IB", "RoCEv1", "RoCEv2"};
static_assert(RUE_GID_TYPE_IB == 0 && RUE_GID_TYPE_ROCE_V1 == 1 &&
              RUE_GID_TYPE_ROCE_V2 == 2);

// The fields: one line per device, its GIDs indented below it.

Value Number(uint64_t number) { return number; }
Value String(std::string_view text) { return std::string(text); }

constexpr Field<Gid> kGidFields[] = {
    {"index", Text::kName, Level::kBrief,
     [](const Gid& g) { return Number(g.index); }},
    {"gid", Text::kKeyValue, Level::kBrief,
     [](const Gid& g) { return String(FormatGid(g.raw)); }},
    {"type", Text::kKeyValue, Level::kBrief,
     [](const Gid& g) { return String(GidTypeName(g.type)); }},
};

constexpr Field<Device> kDeviceFields[] = {
    {"index", Text::kName, Level::kBrief,
     [](const Device& d) { return Number(d.index); }},
    {"name", Text::kName, Level::kBrief,
     [](const Device& d) { return String(d.name); }},
    {"netdev", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return String(d.netdev); }},
    {"netdev-index", Text::kKeyValue, Level::kDetail,
     [](const Device& d) { return Number(d.netdev_index); }},
    {"port-state", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return String(PortStateName(d.port_state)); }},
    {"phys-state", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return String(PhysStateName(d.phys_state)); }},
    {"active-mtu", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return Number(d.active_mtu); }},
    {"netdev-mtu", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return Number(d.netdev_mtu); }},
    {"node-guid", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return String(FormatGuid(d.node_guid)); }},
    {"gids", Text::kKeyValue, Level::kBrief,
     [](const Device& d) { return Value(MakeList<Gid>(d.gids, kGidFields)); }},
};

// The command.

constexpr char kUsage[] =
    "Usage: ruectl dev [ show [ DEV ] ]\n"
    "       ruectl dev help\n";

constexpr char kShowHelp[] =
    "list the rue devices, or only DEV: name, netdev, port and\n"
    "physical state, active and netdev MTU, node GUID and GID table;\n"
    "-d adds the netdev's ifindex";

constexpr char kFooter[] =
    "\n"
    "Examples:\n"
    "  ruectl dev\n"
    "  ruectl dev show rue0\n"
    "  ruectl -d dev show rue0\n"
    "  ruectl -j -p dev\n";

// Every device, or the one `name` gives.
nl::Result<std::vector<Device>> Select(Backend& backend,
                                       std::optional<std::string_view> name) {
  if (!name) return backend.ListDevices();
  nl::Result<Device> device = backend.GetDevice(*name);
  if (!device.ok()) return RequestError(device.error(), name);
  return std::vector<Device>{std::move(device).value()};
}

nl::Status DevShow(Context& context, const CLI::App& command) {
  nl::Result<std::vector<Device>> devices =
      Select(context.backend, Arg(command, kDev));
  if (!devices.ok()) return devices.error();
  std::vector<Record> records;
  for (const Device& device : *devices) records.push_back(DeviceRecord(device));
  Print(context.out, records, context.options);
  return nl::Ok();
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

std::string_view PortStateName(uint8_t state) {
  return NameOf(kPortStates, state);
}

std::string_view PhysStateName(uint8_t state) {
  return NameOf(kPhysStates, state);
}

std::string_view GidTypeName(uint8_t type) { return NameOf(kGidTypes, type); }

std::string FormatGuid(uint64_t guid) {
  char text[sizeof("0000:0000:0000:0000")];
  std::snprintf(text, sizeof(text), "%04x:%04x:%04x:%04x",
                static_cast<unsigned>(guid >> 48) & 0xffff,
                static_cast<unsigned>(guid >> 32) & 0xffff,
                static_cast<unsigned>(guid >> 16) & 0xffff,
                static_cast<unsigned>(guid) & 0xffff);
  return text;
}

Record DeviceRecord(const Device& device) {
  return MakeRecord(device, kDeviceFields);
}

void AddDevObject(Cli& cli) {
  CLI::App* dev = cli.AddObject("dev", kUsage, kFooter);
  cli.AddCommand(dev, "show", kShowHelp, DevShow)->add_option(kDev);
}

}  // namespace rue::cli
