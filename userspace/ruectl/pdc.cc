// SPDX-License-Identifier: GPL-2.0
#include "ruectl/pdc.h"

#include <arpa/inet.h>
#include <linux/rue_netlink.h>
#include <rdma/rue-abi.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <vector>

#include "nl/genl.h"
#include "ruectl/backend.h"
#include "ruectl/cli.h"

namespace rue::cli {
namespace {

// The messages.

using nl::AttrKind;
using nl::AttrPolicy;

constexpr AttrPolicy kDevicePdcPolicy[] = {
    {RUE_A_DEV_INDEX, AttrKind::kU32, "dev-index", true},
    {RUE_A_DEV_NAME, AttrKind::kString, "dev-name", true},
    {RUE_A_DEV_PDC, AttrKind::kNested, "dev-pdc", true},
};

// The peer's length depends on its family: checked in ParsePeer().
constexpr AttrPolicy kPdcPolicy[] = {
    {RUE_A_PDC_LOCAL_ID, AttrKind::kU16, "pdc-local-id", true},
    {RUE_A_PDC_REMOTE_ID, AttrKind::kU16, "pdc-remote-id"},
    {RUE_A_PDC_ROLE, AttrKind::kU8, "pdc-role"},
    {RUE_A_PDC_MODE, AttrKind::kU8, "pdc-mode"},
    {RUE_A_PDC_JOB, AttrKind::kU32, "pdc-job"},
    {RUE_A_PDC_FAMILY, AttrKind::kU8, "pdc-family"},
    {RUE_A_PDC_PEER, AttrKind::kBinary, "pdc-peer"},
    {RUE_A_PDC_SYN, AttrKind::kU8, "pdc-syn"},
    {RUE_A_PDC_CLOSING, AttrKind::kU8, "pdc-closing"},
    {RUE_A_PDC_QPN, AttrKind::kU32, "pdc-qpn"},
    {RUE_A_PDC_NEXT_PSN, AttrKind::kU32, "pdc-next-psn"},
    {RUE_A_PDC_UNA_PSN, AttrKind::kU32, "pdc-una-psn"},
    {RUE_A_PDC_SRTT, AttrKind::kU32, "pdc-srtt"},
    {RUE_A_PDC_RTO, AttrKind::kU32, "pdc-rto"},
    {RUE_A_PDC_RETRIES, AttrKind::kU32, "pdc-retries"},
    {RUE_A_PDC_CWND, AttrKind::kU32, "pdc-cwnd"},
    {RUE_A_PDC_RX_NEXT_PSN, AttrKind::kU32, "pdc-rx-next-psn"},
};

// The attribute's value, or nullopt when the nest lacks it.
template <typename T>
std::optional<T> Get(const nl::AttrTable& table, uint16_t type) {
  std::optional<nl::Attr> attr = table.Find(type);
  if (!attr) return std::nullopt;
  if constexpr (sizeof(T) == 4)
    return attr->U32();
  else if constexpr (sizeof(T) == 2)
    return attr->U16();
  else
    return static_cast<T>(attr->U8());
}

nl::Error BadPeer(const std::string& why) {
  return nl::Error{EBADMSG, "attribute \"pdc-peer\" (" +
                                std::to_string(RUE_A_PDC_PEER) + "): " + why};
}

// The peer as text: both attributes or neither.
nl::Result<std::optional<std::string>> ParsePeer(const nl::AttrTable& table) {
  std::optional<nl::Attr> family = table.Find(RUE_A_PDC_FAMILY);
  std::optional<nl::Attr> peer = table.Find(RUE_A_PDC_PEER);
  if (!peer && !family) return std::optional<std::string>();
  if (!peer || !family)
    return BadPeer("the address and its family (pdc-family) go together");
  nl::Bytes bytes = peer->payload();
  if (family->U8() == AF_INET && bytes.size() == 4) {
    char text[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, bytes.data(), text, sizeof(text));
    return std::optional<std::string>(text);
  }
  if (family->U8() == AF_INET6 && bytes.size() == 16) {
    std::array<uint8_t, 16> address;
    std::memcpy(address.data(), bytes.data(), address.size());
    return std::optional<std::string>(FormatGid(address));
  }
  return BadPeer(std::to_string(bytes.size()) + " bytes for family " +
                 std::to_string(family->U8()));
}

void FillPdc(Pdc& pdc, const nl::AttrTable& table) {
  pdc.local_id = table.U16(RUE_A_PDC_LOCAL_ID);
  pdc.remote_id = Get<uint16_t>(table, RUE_A_PDC_REMOTE_ID);
  pdc.role = Get<uint8_t>(table, RUE_A_PDC_ROLE);
  pdc.mode = Get<uint8_t>(table, RUE_A_PDC_MODE);
  pdc.job = Get<uint32_t>(table, RUE_A_PDC_JOB);
  pdc.syn = Get<bool>(table, RUE_A_PDC_SYN);
  pdc.closing = Get<bool>(table, RUE_A_PDC_CLOSING);
  pdc.qpn = Get<uint32_t>(table, RUE_A_PDC_QPN);
  pdc.next_psn = Get<uint32_t>(table, RUE_A_PDC_NEXT_PSN);
  pdc.una_psn = Get<uint32_t>(table, RUE_A_PDC_UNA_PSN);
  pdc.srtt_us = Get<uint32_t>(table, RUE_A_PDC_SRTT);
  pdc.rto_us = Get<uint32_t>(table, RUE_A_PDC_RTO);
  pdc.retries = Get<uint32_t>(table, RUE_A_PDC_RETRIES);
  pdc.cwnd = Get<uint32_t>(table, RUE_A_PDC_CWND);
  pdc.rx_next_psn = Get<uint32_t>(table, RUE_A_PDC_RX_NEXT_PSN);
}

// The names, indexed by value.

constexpr std::string_view kPdcRoles[] = {"initiator", "target"};
static_assert(RUE_PDC_ROLE_INITIATOR == 0 && RUE_PDC_ROLE_TARGET == 1);

constexpr std::string_view kUetModes[] = {"RUD", "ROD"};
static_assert(RUE_UET_MODE_RUD == 0 && RUE_UET_MODE_ROD == 1);

// The fields.

// Two lines of text per PDC: who it connects, then its PSN state (the
// initiator's send state, or the target's receive state: a PDC has one of
// them, the other is absent).
constexpr Field<Pdc> kPdcFields[] = {
    {"dev", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Value(p.dev); }},
    {"dev-index", Text::kKeyValue, Level::kDetail,
     [](const Pdc& p) { return Value(uint64_t{p.dev_index}); }},
    {"pdc", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Value(uint64_t{p.local_id}); }},
    {"role", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Named(p.role, kPdcRoles); }},
    {"mode", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Named(p.mode, kUetModes); }},
    {"peer", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return p.peer ? Value(*p.peer) : Value(Absent{}); }},
    {"peer-pdc", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.remote_id); }},
    {"job", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.job); }},
    {"qpn", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.qpn); }},
    {"syn", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return YesNo(p.syn); }},
    {"closing", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return YesNo(p.closing); }},
    {"next-psn", Text::kLine, Level::kBrief,
     [](const Pdc& p) { return Optional(p.next_psn); }},
    {"una-psn", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.una_psn); }},
    {"srtt-us", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.srtt_us); }},
    {"rto-us", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.rto_us); }},
    {"retries", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.retries); }},
    {"cwnd", Text::kKeyValue, Level::kBrief,
     [](const Pdc& p) { return Optional(p.cwnd); }},
    {"rx-next-psn", Text::kLine, Level::kBrief,
     [](const Pdc& p) { return Optional(p.rx_next_psn); }},
};

// The command.

constexpr char kUsage[] =
    "Usage: ruectl pdc [ show [ DEV ] ]\n"
    "       ruectl pdc help\n";

constexpr char kShowHelp[] =
    "list the UET packet delivery contexts (PDCs) of DEV, or of every\n"
    "rue device, in PDCID order: device, our PDCID, role (initiator\n"
    "or target), delivery mode (RUD or ROD), the peer's address and\n"
    "PDCID (0 while not known), job; an initiator adds its QP, whether\n"
    "its SYN is still out and whether it is closing, then on a second\n"
    "line its next PSN, oldest unacknowledged PSN, smoothed RTT and\n"
    "RTO (us), RTOs without progress and congestion window (bytes);\n"
    "a target adds the PSN it expects next.  -d adds the device index";

constexpr char kFooter[] =
    "\n"
    "Examples:\n"
    "  ruectl pdc show rue0\n"
    "  ruectl pdc\n"
    "  ruectl -j -p pdc show rue0\n";

nl::Status PdcShow(Context& context, const CLI::App& command) {
  std::optional<std::string> name = Arg(command, kDev);
  nl::Result<std::vector<Pdc>> pdcs = context.backend.ListPdcs(name);
  if (!pdcs.ok()) return RequestError(pdcs.error(), name);
  std::vector<Record> records;
  for (const Pdc& pdc : *pdcs) records.push_back(PdcRecord(pdc));
  Print(context.out, records, context.options);
  return nl::Ok();
}

}  // namespace

nl::Result<Pdc> ParsePdc(nl::Bytes attrs) {
  nl::Result<nl::AttrTable> outer =
      nl::AttrTable::Parse(attrs, kDevicePdcPolicy);
  if (!outer.ok()) return outer.error();
  nl::Result<nl::AttrTable> inner =
      nl::AttrTable::Parse(outer->Payload(RUE_A_DEV_PDC), kPdcPolicy);
  if (!inner.ok()) return inner.error();
  nl::Result<std::optional<std::string>> peer = ParsePeer(*inner);
  if (!peer.ok()) return peer.error();
  Pdc pdc;
  pdc.dev_index = outer->U32(RUE_A_DEV_INDEX);
  pdc.dev = outer->Str(RUE_A_DEV_NAME);
  pdc.peer = std::move(peer).value();
  FillPdc(pdc, *inner);
  return pdc;
}

nl::MessageBuilder PdcDumpRequest(uint16_t family_id,
                                  std::optional<std::string_view> name) {
  nl::MessageBuilder request =
      nl::GenlRequest(family_id, RUE_CMD_PDC_GET, RUE_GENL_VERSION);
  if (name) request.PutString(RUE_A_DEV_NAME, *name);
  return request;
}

std::string_view PdcRoleName(uint8_t role) { return NameOf(kPdcRoles, role); }

std::string_view UetModeName(uint8_t mode) { return NameOf(kUetModes, mode); }

Record PdcRecord(const Pdc& pdc) { return MakeRecord(pdc, kPdcFields); }

void AddPdcObject(Cli& cli) {
  CLI::App* pdc = cli.AddObject("pdc", kUsage, kFooter);
  cli.AddCommand(pdc, "show", kShowHelp, PdcShow)->add_option(kDev);
}

}  // namespace rue::cli
