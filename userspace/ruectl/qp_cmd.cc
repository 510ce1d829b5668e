// SPDX-License-Identifier: GPL-2.0
#include "ruectl/qp_cmd.h"

#include <cerrno>
#include <optional>
#include <vector>

#include "ruectl/errors.h"
#include "ruectl/print.h"
#include "ruectl/qp_fields.h"

namespace rue::cli {
namespace {

constexpr std::string_view kQpHelp =
    "Usage: ruectl qp [ show [ DEV ] ]\n"
    "       ruectl qp help\n"
    "\n"
    "show  list the QPs of DEV, or of every rue device, one a line: device,\n"
    "      QP number, type, state, peer QP, priority and DSCP, then\n"
    "      congestion control: whether the rate limiter is on, current and\n"
    "      target rate (Mb/s), alpha (in 1/1024), CNPs sent and handled,\n"
    "      CE-marked packets received and bytes sent; -d adds the device\n"
    "      index\n"
    "\n"
    "Examples:\n"
    "  ruectl qp show rue0\n"
    "  ruectl qp\n"
    "  ruectl -j -p qp show rue0\n";

nl::Result<std::vector<Qp>> QpsOf(Backend& backend, std::string_view name) {
  nl::Result<std::vector<Qp>> qps = backend.ListQps(name);
  if (!qps.ok()) return RequestError(qps.error(), name);
  return qps;
}

// Those of every device, device by device.  A device that goes away
// between the two requests has no QPs to show.
nl::Result<std::vector<Qp>> AllQps(Backend& backend) {
  nl::Result<std::vector<Device>> devices = backend.ListDevices();
  if (!devices.ok()) return RequestError(devices.error(), std::nullopt);
  std::vector<Qp> all;
  for (const Device& device : *devices) {
    nl::Result<std::vector<Qp>> qps = backend.ListQps(device.name);
    if (!qps.ok() && qps.error().code == ENODEV) continue;
    if (!qps.ok()) return RequestError(qps.error(), device.name);
    all.insert(all.end(), qps->begin(), qps->end());
  }
  return all;
}

nl::Status QpShow(Context& context, Args& args) {
  std::optional<std::string_view> name;
  if (!args.empty()) name = args.Next();
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  nl::Result<std::vector<Qp>> qps =
      name ? QpsOf(context.backend, *name) : AllQps(context.backend);
  if (!qps.ok()) return qps.error();
  std::vector<Record> records;
  for (const Qp& qp : *qps) records.push_back(QpRecord(qp));
  Print(context.out, records, context.options);
  return nl::Ok();
}

nl::Status QpHelp(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kQpHelp;
  return nl::Ok();
}

constexpr Command kQpCommands[] = {
    {"show", QpShow},
    {"help", QpHelp},
};

constexpr CommandTable kQpTable = {"command", "ruectl qp help", kQpCommands};

}  // namespace

nl::Status RunQp(Context& context, Args& args) {
  return RunCommand(kQpTable, context, args);
}

}  // namespace rue::cli
