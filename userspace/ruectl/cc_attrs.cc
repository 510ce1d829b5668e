// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cc_attrs.h"

#include <linux/rue_netlink.h>

#include <algorithm>
#include <vector>

#include "nl/genl.h"
#include "ruectl/cc_params.h"

namespace rue::cli {
namespace {

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

}  // namespace rue::cli
