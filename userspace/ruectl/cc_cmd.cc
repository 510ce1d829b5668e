// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_cmd.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ruectl/cc_fields.h"
#include "ruectl/cc_set.h"
#include "ruectl/errors.h"
#include "ruectl/print.h"

namespace rue::cli {
namespace {

constexpr std::string_view kCcHelp =
    "Usage: ruectl cc [ show [ DEV [ prio PRIO ] ] ]\n"
    "       ruectl cc set DEV [ prio PRIO ] KEY VALUE [ KEY VALUE ... ]\n"
    "       ruectl cc help\n"
    "\n"
    "show  the congestion control of every rue device, or of DEV: ECN\n"
    "      marking, the CNP notification point (NP), the DCQCN reaction\n"
    "      point (RP), ETS and PFC; -d adds the DSCP to priority map\n"
    "set   change the parameters given, and only those (CAP_NET_ADMIN)\n"
    "prio  the DCQCN parameters, dce-tcp-g to rpg-hai-rate but rpg-max-rate,\n"
    "      are kept per priority: show gives PRIO's (else priority 0's), set\n"
    "      changes PRIO's only (else every priority's) and takes no others\n"
    "\n"
    "KEY VALUE (times in us, rates in Mb/s; keys may be shortened):\n"
    "  ecn { off | ect0 | ect1 }      cnp-dscp 0-63      cnp-prio 0-7\n"
    "  np-enable PRIOS   rp-enable PRIOS   PRIOS := { all | none | 0,3-5 }\n"
    "  dscp-prio DSCP:PRIO[,...]      (DSCP may be a range: 24-31:3)\n"
    "  min-time-between-cnps US   dce-tcp-g 0-1023   dce-tcp-rtt US\n"
    "  initial-alpha 0-1023   rate-reduce-monitor-period US   rpg-gd N\n"
    "  rpg-min-dec-fac 0-100   rpg-min-rate RATE   rpg-max-rate RATE\n"
    "  rate-to-set-on-first-cnp RATE   clamp-tgt-rate { on | off }\n"
    "  clamp-tgt-rate-after-time-inc { on | off }   rpg-time-reset US\n"
    "  rpg-byte-reset BYTES   rpg-threshold N   rpg-ai-rate RATE\n"
    "  rpg-hai-rate RATE\n"
    "  ets-tsa { TSA0,...,TSA7 | PRIO:TSA[,...] }   TSA := { strict | ets }\n"
    "  ets-weight { W0,...,W7 | PRIO:W[,...] }   W := 0-100 (%)\n"
    "  (in PRIO:TSA and PRIO:W, PRIO may be a range: 3-4:ets)\n"
    "  pfc-enable PRIOS   pfc-xoff BYTES   pfc-xon BYTES   pfc-quanta 1-65535\n"
    "link-speed (the netdev's), pfc-paused and pfc-asserted (PFC state now),\n"
    "dcqcn-differ (priorities whose DCQCN parameters are not priority 0's)\n"
    "and prio (the priority of the DCQCN parameters shown) are shown only.\n"
    "\n"
    "Examples:\n"
    "  ruectl cc\n"
    "  ruectl -d cc show rue0\n"
    "  ruectl -j -p cc show rue0\n"
    "  ruectl cc show rue0 prio 3\n"
    "  ruectl cc set rue0 ecn ect0 np-enable 3 rp-enable 3\n"
    "  ruectl cc set rue0 dscp-prio 26:3,48:6\n"
    "  ruectl cc set rue0 rpg-ai-rate 10 rpg-hai-rate 100\n"
    "  ruectl cc set rue0 prio 3 rpg-ai-rate 10 rpg-hai-rate 100\n"
    "  ruectl cc set rue0 ets-tsa 3-4:ets ets-weight 3:60,4:40 pfc-enable 3\n";

bool IsNumber(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
}

// DEV: "prio P" comes after it, so "prio" followed by a number is a DEV
// left out ("cc show prio 3"), not a device named prio.
nl::Result<std::string_view> TakeDev(Args& args) {
  nl::Result<std::string_view> name = args.Require("DEV");
  if (!name.ok()) return name.error();
  if (*name == kPrioKeyword && IsNumber(args.Peek()))
    return nl::Error{EINVAL, "missing DEV before \"" +
                                 std::string(kPrioKeyword) + " " +
                                 std::string(args.Peek()) + "\""};
  return name;
}

// Every device's, or the one `name` gives, with the DCQCN parameters of
// priority `prio` (which needs `name`).  A kernel that reports another
// priority's, or does not say, would have them shown under the wrong one.
nl::Result<std::vector<DeviceCc>> Select(Backend& backend,
                                         std::optional<std::string_view> name,
                                         std::optional<uint32_t> prio) {
  if (!name) {
    nl::Result<std::vector<DeviceCc>> all = backend.ListCc();
    if (!all.ok()) return RequestError(all.error(), name);
    return all;
  }
  nl::Result<DeviceCc> cc = backend.GetCc(*name, prio);
  if (!cc.ok()) return RequestError(cc.error(), name);
  if (prio && cc->cc.prio != prio)
    return nl::Error{EPROTO,
                     "the kernel did not report the DCQCN parameters of "
                     "priority " +
                         std::to_string(*prio) +
                         " (rue kernel module too old?)"};
  return std::vector<DeviceCc>{std::move(cc).value()};
}

nl::Status CcShow(Context& context, Args& args) {
  std::optional<std::string_view> name;
  std::optional<uint32_t> prio;
  if (!args.empty()) {
    nl::Result<std::string_view> dev = TakeDev(args);
    if (!dev.ok()) return dev.error();
    name = *dev;
    nl::Result<std::optional<uint32_t>> taken = TakePrio(args);
    if (!taken.ok()) return taken.error();
    prio = *taken;
  }
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  nl::Result<std::vector<DeviceCc>> ccs = Select(context.backend, name, prio);
  if (!ccs.ok()) return ccs.error();
  std::vector<Record> records;
  for (const DeviceCc& cc : *ccs) records.push_back(CcRecord(cc));
  Print(context.out, records, context.options);
  return nl::Ok();
}

nl::Error Unreported(std::string_view key) {
  return nl::Error{EPROTO,
                   "the kernel did not report the current " + std::string(key)};
}

// The whole maps and tables to send: the kernel takes no less, so the
// entries given go over the current ones, read in one request.  Not
// atomic: a change made by someone else between the two requests is lost.
nl::Status CompleteEntries(Backend& backend, std::string_view name,
                           CcChanges& changes) {
  if (changes.dscp_prio.empty() && changes.tables.empty()) return nl::Ok();
  nl::Result<DeviceCc> current = backend.GetCc(name, std::nullopt);
  if (!current.ok()) return RequestError(current.error(), name);
  if (!changes.dscp_prio.empty()) {
    if (!current->cc.dscp_prio) return Unreported("dscp-prio");
    changes.config.dscp_prio =
        ApplyDscpPrio(*current->cc.dscp_prio, changes.dscp_prio);
  }
  for (const TableEntries& table : changes.tables) {
    const std::optional<PrioTable>& now = current->cc.*table.param->table;
    if (!now) return Unreported(table.param->key);
    (changes.config.*table.param->table) = ApplyPrioValues(*now, table.entries);
  }
  return nl::Ok();
}

// The kernel's refusal of a set, in words.  Its policy checks name no
// parameter ("integer out of range"; the extended ACK points at the
// attribute by offset only): when one key was given, it was that one.
nl::Error SetError(const nl::Error& error, std::string_view name,
                   const CcChanges& changes) {
  if (error.code == EPERM)
    return nl::Error{EPERM, error.ToString() +
                                " (changing congestion control needs "
                                "CAP_NET_ADMIN)"};
  bool refused = error.code == EINVAL || error.code == ERANGE;
  if (refused && changes.keys.size() == 1 &&
      error.message.find(changes.keys[0]) == std::string::npos)
    return nl::Error{error.code,
                     std::string(changes.keys[0]) + ": " + error.ToString()};
  return RequestError(error, name);
}

nl::Status CcSet(Context& context, Args& args) {
  nl::Result<std::string_view> name = TakeDev(args);
  if (!name.ok()) return name.error();
  nl::Result<CcChanges> changes = ParseCcChanges(args);
  if (!changes.ok()) return changes.error();
  nl::Status completed = CompleteEntries(context.backend, *name, *changes);
  if (!completed.ok()) return completed;
  nl::Status set = context.backend.SetCc(*name, changes->config);
  if (!set.ok()) return SetError(set.error(), *name, *changes);
  return nl::Ok();
}

nl::Status CcHelp(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kCcHelp;
  return nl::Ok();
}

constexpr Command kCcCommands[] = {
    {"show", CcShow},
    {"set", CcSet},
    {"help", CcHelp},
};

constexpr CommandTable kCcTable = {"command", "ruectl cc help", kCcCommands};

}  // namespace

nl::Status RunCc(Context& context, Args& args) {
  return RunCommand(kCcTable, context, args);
}

}  // namespace rue::cli
