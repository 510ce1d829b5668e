// SPDX-License-Identifier: GPL-2.0
#include "ruectl/pdc_cmd.h"

#include <optional>
#include <vector>

#include "ruectl/errors.h"
#include "ruectl/pdc_fields.h"
#include "ruectl/print.h"

namespace rue::cli {
namespace {

constexpr std::string_view kPdcHelp =
    "Usage: ruectl pdc [ show [ DEV ] ]\n"
    "       ruectl pdc help\n"
    "\n"
    "show  list the UET packet delivery contexts (PDCs) of DEV, or of every\n"
    "      rue device, in PDCID order: device, our PDCID, role (initiator\n"
    "      or target), delivery mode (RUD or ROD), the peer's address and\n"
    "      PDCID (0 while not known), job; an initiator adds its QP, whether\n"
    "      its SYN is still out and whether it is closing, then on a second\n"
    "      line its next PSN, oldest unacknowledged PSN, smoothed RTT and\n"
    "      RTO (us), RTOs without progress and congestion window (bytes);\n"
    "      a target adds the PSN it expects next.  -d adds the device index\n"
    "\n"
    "Examples:\n"
    "  ruectl pdc show rue0\n"
    "  ruectl pdc\n"
    "  ruectl -j -p pdc show rue0\n";

nl::Status PdcShow(Context& context, Args& args) {
  std::optional<std::string_view> name;
  if (!args.empty()) name = args.Next();
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  nl::Result<std::vector<Pdc>> pdcs = context.backend.ListPdcs(name);
  if (!pdcs.ok()) return RequestError(pdcs.error(), name);
  std::vector<Record> records;
  for (const Pdc& pdc : *pdcs) records.push_back(PdcRecord(pdc));
  Print(context.out, records, context.options);
  return nl::Ok();
}

nl::Status PdcHelp(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kPdcHelp;
  return nl::Ok();
}

constexpr Command kPdcCommands[] = {
    {"show", PdcShow},
    {"help", PdcHelp},
};

constexpr CommandTable kPdcTable = {"command", "ruectl pdc help", kPdcCommands};

}  // namespace

nl::Status RunPdc(Context& context, Args& args) {
  return RunCommand(kPdcTable, context, args);
}

}  // namespace rue::cli
