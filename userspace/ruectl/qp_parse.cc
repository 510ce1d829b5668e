// SPDX-License-Identifier: GPL-2.0
#include "ruectl/qp_parse.h"

#include <linux/rue_netlink.h>

#include <optional>

namespace rue::cli {
namespace {

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

}  // namespace rue::cli
