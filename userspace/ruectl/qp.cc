// SPDX-License-Identifier: GPL-2.0
#include "ruectl/qp.h"

#include <linux/rue_netlink.h>

#include <cerrno>
#include <vector>

#include "ruectl/backend.h"
#include "ruectl/cli.h"

namespace rue::cli {
namespace {

// The message.

using nl::AttrKind;
using nl::AttrPolicy;

constexpr AttrPolicy kDeviceQpPolicy[] = {
    {RUE_A_DEV_INDEX, AttrKind::kU32, "dev-index", true},
    {RUE_A_DEV_NAME, AttrKind::kString, "dev-name", true},
    {RUE_A_DEV_QP, AttrKind::kNested, "dev-qp", true},
};

constexpr AttrPolicy kQpPolicy[] = {
    {RUE_A_QP_NUM, AttrKind::kU32, "qp-num", true},
    {RUE_A_QP_TYPE, AttrKind::kU8, "qp-type"},
    {RUE_A_QP_STATE, AttrKind::kU8, "qp-state"},
    {RUE_A_QP_DEST_NUM, AttrKind::kU32, "qp-dest-num"},
    {RUE_A_QP_PRIO, AttrKind::kU8, "qp-prio"},
    {RUE_A_QP_DSCP, AttrKind::kU8, "qp-dscp"},
    {RUE_A_QP_CC_LIMITED, AttrKind::kU8, "qp-cc-limited"},
    {RUE_A_QP_CC_RATE, AttrKind::kU32, "qp-cc-rate"},
    {RUE_A_QP_CC_TARGET, AttrKind::kU32, "qp-cc-target"},
    {RUE_A_QP_CC_ALPHA, AttrKind::kU32, "qp-cc-alpha"},
    {RUE_A_QP_CNP_SENT, AttrKind::kU64, "qp-cnp-sent"},
    {RUE_A_QP_CNP_HANDLED, AttrKind::kU64, "qp-cnp-handled"},
    {RUE_A_QP_ECN_MARKED, AttrKind::kU64, "qp-ecn-marked"},
    {RUE_A_QP_TX_BYTES, AttrKind::kU64, "qp-tx-bytes"},
    {RUE_A_QP_CWND, AttrKind::kU32, "qp-cwnd"},
};

// The attribute's value, or nullopt when the nest lacks it.
template <typename T>
std::optional<T> Get(const nl::AttrTable& table, uint16_t type) {
  std::optional<nl::Attr> attr = table.Find(type);
  if (!attr) return std::nullopt;
  if constexpr (sizeof(T) == 8)
    return attr->U64();
  else if constexpr (sizeof(T) == 4)
    return attr->U32();
  else
    return static_cast<T>(attr->U8());
}

void FillQp(Qp& qp, const nl::AttrTable& table) {
  qp.qpn = table.U32(RUE_A_QP_NUM);
  qp.type = Get<uint8_t>(table, RUE_A_QP_TYPE);
  qp.state = Get<uint8_t>(table, RUE_A_QP_STATE);
  qp.dest_qpn = Get<uint32_t>(table, RUE_A_QP_DEST_NUM);
  qp.prio = Get<uint8_t>(table, RUE_A_QP_PRIO);
  qp.dscp = Get<uint8_t>(table, RUE_A_QP_DSCP);
  qp.limited = Get<bool>(table, RUE_A_QP_CC_LIMITED);
  qp.rate = Get<uint32_t>(table, RUE_A_QP_CC_RATE);
  qp.target = Get<uint32_t>(table, RUE_A_QP_CC_TARGET);
  qp.alpha = Get<uint32_t>(table, RUE_A_QP_CC_ALPHA);
  qp.cnp_sent = Get<uint64_t>(table, RUE_A_QP_CNP_SENT);
  qp.cnp_handled = Get<uint64_t>(table, RUE_A_QP_CNP_HANDLED);
  qp.ecn_marked = Get<uint64_t>(table, RUE_A_QP_ECN_MARKED);
  qp.tx_bytes = Get<uint64_t>(table, RUE_A_QP_TX_BYTES);
  qp.cwnd = Get<uint32_t>(table, RUE_A_QP_CWND);
}

// The names: indexed by value; value 7 of the types is unused.

constexpr std::string_view kQpTypes[] = {
    "SMI",           "GSI", "RC",         "UC",      "UD",      "RAW_IPV6",
    "RAW_ETHERTYPE", "",    "RAW_PACKET", "XRC_INI", "XRC_TGT",
};

constexpr std::string_view kQpStates[] = {
    "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
};

// The fields: one line of text per QP.

constexpr Field<Qp> kQpFields[] = {
    {"dev", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Value(q.dev); }},
    {"dev-index", Text::kKeyValue, Level::kDetail,
     [](const Qp& q) { return Value(uint64_t{q.dev_index}); }},
    {"qpn", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Value(uint64_t{q.qpn}); }},
    {"type", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Named(q.type, kQpTypes); }},
    {"state", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Named(q.state, kQpStates); }},
    {"dest-qpn", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.dest_qpn); }},
    {"prio", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.prio); }},
    {"dscp", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.dscp); }},
    {"limited", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return YesNo(q.limited); }},
    {"rate", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.rate); }},
    {"target", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.target); }},
    {"alpha", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.alpha); }},
    {"cnp-sent", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.cnp_sent); }},
    {"cnp-handled", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.cnp_handled); }},
    {"ecn-marked", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.ecn_marked); }},
    {"tx-bytes", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.tx_bytes); }},
    {"cwnd", Text::kKeyValue, Level::kBrief,
     [](const Qp& q) { return Optional(q.cwnd); }},
};

// The command.

constexpr char kUsage[] =
    "Usage: ruectl qp [ show [ DEV ] ]\n"
    "       ruectl qp help\n";

constexpr char kShowHelp[] =
    "list the QPs of DEV, or of every rue device, one a line: device,\n"
    "QP number, type, state, peer QP, priority and DSCP, then\n"
    "congestion control: whether the rate limiter is on, current and\n"
    "target rate (Mb/s), alpha (in 1/1024), CNPs sent and handled,\n"
    "CE-marked packets received and bytes sent, and for RC the packets\n"
    "its loss window allows in flight; -d adds the device index";

constexpr char kFooter[] =
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

nl::Status QpShow(Context& context, const CLI::App& command) {
  std::optional<std::string> name = Arg(command, kDev);
  nl::Result<std::vector<Qp>> qps =
      name ? QpsOf(context.backend, *name) : AllQps(context.backend);
  if (!qps.ok()) return qps.error();
  std::vector<Record> records;
  for (const Qp& qp : *qps) records.push_back(QpRecord(qp));
  Print(context.out, records, context.options);
  return nl::Ok();
}

}  // namespace

nl::Result<Qp> ParseQp(nl::Bytes attrs) {
  nl::Result<nl::AttrTable> outer =
      nl::AttrTable::Parse(attrs, kDeviceQpPolicy);
  if (!outer.ok()) return outer.error();
  nl::Result<nl::AttrTable> inner =
      nl::AttrTable::Parse(outer->Payload(RUE_A_DEV_QP), kQpPolicy);
  if (!inner.ok()) return inner.error();
  Qp qp;
  qp.dev_index = outer->U32(RUE_A_DEV_INDEX);
  qp.dev = outer->Str(RUE_A_DEV_NAME);
  FillQp(qp, *inner);
  return qp;
}

std::string_view QpTypeName(uint8_t type) { return NameOf(kQpTypes, type); }

std::string_view QpStateName(uint8_t state) {
  return NameOf(kQpStates, state);
}

Record QpRecord(const Qp& qp) { return MakeRecord(qp, kQpFields); }

void AddQpObject(Cli& cli) {
  CLI::App* qp = cli.AddObject("qp", kUsage, kFooter);
  cli.AddCommand(qp, "show", kShowHelp, QpShow)->add_option(kDev);
}

}  // namespace rue::cli
