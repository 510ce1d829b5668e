// SPDX-License-Identifier: GPL-2.0
#include "ruectl/dev_cmd.h"

#include <optional>
#include <vector>

#include "ruectl/dev_fields.h"
#include "ruectl/errors.h"
#include "ruectl/print.h"

namespace rue::cli {
namespace {

constexpr std::string_view kDevHelp =
    "Usage: ruectl dev [ show [ DEV ] ]\n"
    "       ruectl dev help\n"
    "\n"
    "show  list the rue devices, or only DEV: name, netdev, port and\n"
    "      physical state, active and netdev MTU, node GUID and GID table;\n"
    "      -d adds the netdev's ifindex\n"
    "\n"
    "Examples:\n"
    "  ruectl dev\n"
    "  ruectl dev show rue0\n"
    "  ruectl -d dev show rue0\n"
    "  ruectl -j -p dev\n";

void PrintDevices(Context& context, const std::vector<Device>& devices) {
  std::vector<Record> records;
  for (const Device& device : devices) records.push_back(DeviceRecord(device));
  Print(context.out, records, context.options);
}

// Every device, or the one `name` gives.
nl::Result<std::vector<Device>> Select(Backend& backend,
                                       std::optional<std::string_view> name) {
  if (!name) return backend.ListDevices();
  nl::Result<Device> device = backend.GetDevice(*name);
  if (!device.ok()) return RequestError(device.error(), name);
  return std::vector<Device>{std::move(device).value()};
}

nl::Status DevShow(Context& context, Args& args) {
  std::optional<std::string_view> name;
  if (!args.empty()) name = args.Next();
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  nl::Result<std::vector<Device>> devices = Select(context.backend, name);
  if (!devices.ok()) return devices.error();
  PrintDevices(context, *devices);
  return nl::Ok();
}

nl::Status DevHelp(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kDevHelp;
  return nl::Ok();
}

constexpr Command kDevCommands[] = {
    {"show", DevShow},
    {"help", DevHelp},
};

constexpr CommandTable kDevTable = {"command", "ruectl dev help", kDevCommands};

}  // namespace

nl::Status RunDev(Context& context, Args& args) {
  return RunCommand(kDevTable, context, args);
}

}  // namespace rue::cli
