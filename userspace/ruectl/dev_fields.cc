// SPDX-License-Identifier: GPL-2.0
#include "ruectl/dev_fields.h"

#include <string>

#include "ruectl/names.h"

namespace rue::cli {
namespace {

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

}  // namespace

Record DeviceRecord(const Device& device) {
  return MakeRecord(device, kDeviceFields);
}

}  // namespace rue::cli
