// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <cerrno>
#include <span>
#include <vector>

#include "nl/genl.h"
#include "ruectl/backend.h"
#include "ruectl/cc_params.h"
#include "ruectl/cc_value.h"
#include "ruectl/cli.h"

namespace rue::cli {
namespace {

// The messages.

using nl::AttrKind;
using nl::AttrPolicy;

constexpr AttrPolicy kDeviceCcPolicy[] = {
    {RUE_A_DEV_INDEX, AttrKind::kU32, "dev-index", true},
    {RUE_A_DEV_NAME, AttrKind::kString, "dev-name", true},
    {RUE_A_DEV_CC, AttrKind::kNested, "dev-cc", true},
};

// The policy of the nest, from the parameter table: each attribute under
// its key, so that errors name the parameter.
const std::vector<AttrPolicy>& CcPolicy() {
  static const std::vector<AttrPolicy> policy = [] {
    std::vector<AttrPolicy> rows;
    for (const CcParam& p : CcParams()) {
      uint16_t len = p.wire == AttrKind::kBinary ? BinaryLength(p) : 0;
      rows.push_back({p.attr, p.wire, p.key, false, len});
    }
    return rows;
  }();
  return policy;
}

// `raw` is as long as T: the policy checked it.
template <typename T>
T ArrayFrom(nl::Bytes raw) {
  T array{};
  std::transform(raw.begin(), raw.end(), array.begin(),
                 [](std::byte b) { return static_cast<uint8_t>(b); });
  return array;
}

template <typename T>
void PutArray(nl::MessageBuilder& message, uint16_t attr,
              const std::optional<T>& array) {
  if (array) message.PutBytes(attr, std::as_bytes(std::span(*array)));
}

// The fields.

using Member = std::optional<uint32_t> CcConfig::*;
using TableMember = std::optional<PrioTable> CcConfig::*;

template <Member member>
Value Number(const DeviceCc& d) {
  return Optional(d.cc.*member);
}

template <Member member>
Value Prios(const DeviceCc& d) {
  const std::optional<uint32_t>& mask = d.cc.*member;
  if (!mask) return Absent{};
  return Numbers{PrioList(*mask), FormatPrios(*mask)};
}

template <Member member>
Value OnOff(const DeviceCc& d) {
  const std::optional<uint32_t>& value = d.cc.*member;
  if (!value) return Absent{};
  return Flag{*value != 0, *value ? "on" : "off"};
}

Value Ecn(const DeviceCc& d) {
  if (!d.cc.ecn) return Absent{};
  return std::string(EcnName(*d.cc.ecn));
}

Value DscpPrio(const DeviceCc& d) {
  if (!d.cc.dscp_prio) return Absent{};
  const DscpMap& map = *d.cc.dscp_prio;
  return Numbers{std::vector<uint64_t>(map.begin(), map.end()),
                 FormatDscpMap(map)};
}

template <TableMember member>
Value NumberTable(const DeviceCc& d) {
  const std::optional<PrioTable>& table = d.cc.*member;
  if (!table) return Absent{};
  return Numbers{std::vector<uint64_t>(table->begin(), table->end()),
                 FormatNumberTable(*table)};
}

Value TsaTable(const DeviceCc& d) {
  if (!d.cc.ets_tsa) return Absent{};
  return Words{TsaNames(*d.cc.ets_tsa), FormatTsaTable(*d.cc.ets_tsa)};
}

// In text, below the "index: name:" line, twelve lines by theme (ECN and
// the NP; the CNP spacing and the priorities whose DCQCN parameters differ
// from priority 0's; the RP, from the priority its parameters are of: its
// alpha, cuts, rate bounds, target clamping, timer and byte counter,
// increase steps, and the link speed; the TSAs, the ETS weights, PFC's
// settings and its state now), and with -d a thirteenth for the DSCP map.
constexpr Field<DeviceCc> kCcFields[] = {
    {"index", Text::kName, Level::kBrief,
     [](const DeviceCc& d) { return Value(uint64_t{d.index}); }},
    {"name", Text::kName, Level::kBrief,
     [](const DeviceCc& d) { return Value(d.name); }},
    {"ecn", Text::kLine, Level::kBrief, Ecn},
    {"cnp-dscp", Text::kKeyValue, Level::kBrief, Number<&CcConfig::cnp_dscp>},
    {"cnp-prio", Text::kKeyValue, Level::kBrief, Number<&CcConfig::cnp_prio>},
    {"np-enable", Text::kKeyValue, Level::kBrief, Prios<&CcConfig::np_enable>},
    {"rp-enable", Text::kKeyValue, Level::kBrief, Prios<&CcConfig::rp_enable>},
    {"min-time-between-cnps", Text::kLine, Level::kBrief,
     Number<&CcConfig::min_time_between_cnps>},
    {"dcqcn-differ", Text::kKeyValue, Level::kBrief,
     Prios<&CcConfig::dcqcn_differ>},
    {"prio", Text::kLine, Level::kBrief, Number<&CcConfig::prio>},
    {"dce-tcp-g", Text::kKeyValue, Level::kBrief, Number<&CcConfig::dce_tcp_g>},
    {"dce-tcp-rtt", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::dce_tcp_rtt>},
    {"initial-alpha", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::initial_alpha>},
    {"rate-reduce-monitor-period", Text::kLine, Level::kBrief,
     Number<&CcConfig::rate_reduce_monitor_period>},
    {"rpg-gd", Text::kKeyValue, Level::kBrief, Number<&CcConfig::rpg_gd>},
    {"rpg-min-dec-fac", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_min_dec_fac>},
    {"rpg-min-rate", Text::kLine, Level::kBrief,
     Number<&CcConfig::rpg_min_rate>},
    {"rpg-max-rate", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_max_rate>},
    {"rate-to-set-on-first-cnp", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rate_to_set_on_first_cnp>},
    {"clamp-tgt-rate", Text::kLine, Level::kBrief,
     OnOff<&CcConfig::clamp_tgt_rate>},
    {"clamp-tgt-rate-after-time-inc", Text::kKeyValue, Level::kBrief,
     OnOff<&CcConfig::clamp_tgt_rate_after_time_inc>},
    {"rpg-time-reset", Text::kLine, Level::kBrief,
     Number<&CcConfig::rpg_time_reset>},
    {"rpg-byte-reset", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_byte_reset>},
    {"rpg-threshold", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_threshold>},
    {"rpg-ai-rate", Text::kLine, Level::kBrief, Number<&CcConfig::rpg_ai_rate>},
    {"rpg-hai-rate", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::rpg_hai_rate>},
    {"link-speed", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::link_speed>},
    {"ets-tsa", Text::kLine, Level::kBrief, TsaTable},
    {"ets-weight", Text::kLine, Level::kBrief,
     NumberTable<&CcConfig::ets_weight>},
    {"pfc-enable", Text::kLine, Level::kBrief, Prios<&CcConfig::pfc_enable>},
    {"pfc-xoff", Text::kKeyValue, Level::kBrief, Number<&CcConfig::pfc_xoff>},
    {"pfc-xon", Text::kKeyValue, Level::kBrief, Number<&CcConfig::pfc_xon>},
    {"pfc-quanta", Text::kKeyValue, Level::kBrief,
     Number<&CcConfig::pfc_quanta>},
    {"pfc-paused", Text::kLine, Level::kBrief, Prios<&CcConfig::pfc_paused>},
    {"pfc-asserted", Text::kKeyValue, Level::kBrief,
     Prios<&CcConfig::pfc_asserted>},
    {"dscp-prio", Text::kLine, Level::kDetail, DscpPrio},
};

// The commands.

constexpr char kUsage[] =
    "Usage: ruectl cc [ show [ DEV [ prio PRIO ] ] ]\n"
    "       ruectl cc set DEV [ prio PRIO ] KEY VALUE [ KEY VALUE ... ]\n"
    "       ruectl cc help\n";

constexpr char kShowHelp[] =
    "the congestion control of every rue device, or of DEV: ECN\n"
    "marking, the CNP notification point (NP), the DCQCN reaction\n"
    "point (RP), ETS and PFC; -d adds the DSCP to priority map";

constexpr char kSetHelp[] =
    "change the parameters given, and only those (CAP_NET_ADMIN)";

// "prio" in the column of the commands, then the parameters.
constexpr char kFooter[] =
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
nl::Status CheckDev(std::string_view dev, const Args& words) {
  if (dev != kPrioKeyword || !IsNumber(words.Peek())) return nl::Ok();
  return nl::Error{EINVAL, "missing DEV before \"" +
                               std::string(kPrioKeyword) + " " +
                               std::string(words.Peek()) + "\""};
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

nl::Status CcShow(Context& context, const CLI::App& command) {
  std::optional<std::string> name = Arg(command, kDev);
  Args words = WordsOf(command);
  std::optional<uint32_t> prio;
  if (name) {
    nl::Status dev = CheckDev(*name, words);
    if (!dev.ok()) return dev;
    nl::Result<std::optional<uint32_t>> taken = TakePrio(words);
    if (!taken.ok()) return taken.error();
    prio = *taken;
  }
  nl::Status end = words.ExpectEnd();
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

nl::Status CcSet(Context& context, const CLI::App& command) {
  std::string name = *Arg(command, kDev);
  Args words = WordsOf(command);
  nl::Status dev = CheckDev(name, words);
  if (!dev.ok()) return dev;
  nl::Result<CcChanges> changes = ParseCcChanges(words);
  if (!changes.ok()) return changes.error();
  nl::Status completed = CompleteEntries(context.backend, name, *changes);
  if (!completed.ok()) return completed;
  nl::Status set = context.backend.SetCc(name, changes->config);
  if (!set.ok()) return SetError(set.error(), name, *changes);
  return nl::Ok();
}

}  // namespace

nl::Result<CcConfig> ParseCc(nl::Bytes nest) {
  nl::Result<nl::AttrTable> table = nl::AttrTable::Parse(nest, CcPolicy());
  if (!table.ok()) return table.error();
  CcConfig cc;
  for (const CcParam& p : CcParams()) {
    std::optional<nl::Attr> attr = table->Find(p.attr);
    if (!attr) continue;
    if (p.table)
      (cc.*p.table) = ArrayFrom<PrioTable>(attr->payload());
    else if (p.wire == AttrKind::kBinary)
      cc.dscp_prio = ArrayFrom<DscpMap>(attr->payload());
    else
      (cc.*p.member) = p.wire == AttrKind::kU8 ? attr->U8() : attr->U32();
  }
  return cc;
}

nl::Result<DeviceCc> ParseDeviceCc(nl::Bytes attrs) {
  nl::Result<nl::AttrTable> table =
      nl::AttrTable::Parse(attrs, kDeviceCcPolicy);
  if (!table.ok()) return table.error();
  nl::Result<CcConfig> cc = ParseCc(table->Payload(RUE_A_DEV_CC));
  if (!cc.ok()) return cc.error();
  return DeviceCc{table->U32(RUE_A_DEV_INDEX),
                  std::string(table->Str(RUE_A_DEV_NAME)),
                  std::move(cc).value()};
}

void PutCc(nl::MessageBuilder& message, const CcConfig& cc) {
  nl::MessageBuilder::Nest nest = message.BeginNest(RUE_A_DEV_CC);
  for (const CcParam& p : CcParams()) {
    if (p.table) {
      PutArray(message, p.attr, cc.*p.table);
      continue;
    }
    if (p.wire == AttrKind::kBinary) {
      PutArray(message, p.attr, cc.dscp_prio);
      continue;
    }
    const std::optional<uint32_t>& value = cc.*p.member;
    if (!value) continue;
    if (p.wire == AttrKind::kU8)
      message.PutU8(p.attr, static_cast<uint8_t>(*value));
    else
      message.PutU32(p.attr, *value);
  }
  message.EndNest(nest);
}

nl::MessageBuilder CcSetRequest(uint16_t family_id, std::string_view name,
                                const CcConfig& changes) {
  nl::MessageBuilder request =
      nl::GenlRequest(family_id, RUE_CMD_CC_SET, RUE_GENL_VERSION);
  request.PutString(RUE_A_DEV_NAME, name);
  PutCc(request, changes);
  return request;
}

nl::MessageBuilder CcGetRequest(uint16_t family_id, std::string_view name,
                                std::optional<uint32_t> prio) {
  nl::MessageBuilder request =
      nl::GenlRequest(family_id, RUE_CMD_CC_GET, RUE_GENL_VERSION);
  request.PutString(RUE_A_DEV_NAME, name);
  if (prio) {
    CcConfig which;
    which.prio = prio;
    PutCc(request, which);
  }
  return request;
}

Record CcRecord(const DeviceCc& device) {
  return MakeRecord(device, kCcFields);
}

void AddCcObject(Cli& cli) {
  CLI::App* cc = cli.AddObject("cc", kUsage, kFooter);
  CLI::App* show = cli.AddCommand(cc, "show", kShowHelp, CcShow);
  show->add_option(kDev);
  AddWords(show);
  CLI::App* set = cli.AddCommand(cc, "set", kSetHelp, CcSet);
  set->add_option(kDev)->required();
  AddWords(set);
}

}  // namespace rue::cli
