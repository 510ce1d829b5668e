// SPDX-License-Identifier: GPL-2.0
//
// Congestion control on the wire: a RUE_CMD_CC_GET reply to a DeviceCc,
// and a CcConfig to the RUE_A_DEV_CC nest of a RUE_CMD_CC_SET request.
// Both go by the table in cc_params.h.  A reply needs the device's index
// and name and the nest; parameters the nest lacks stay unset, and
// attributes this code does not know are skipped.
#ifndef RUE_RUECTL_CC_ATTRS_H_
#define RUE_RUECTL_CC_ATTRS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/cc.h"

namespace rue::cli {

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed.
nl::Result<DeviceCc> ParseDeviceCc(nl::Bytes attrs);

// `nest`: the payload of one RUE_A_DEV_CC.
nl::Result<CcConfig> ParseCc(nl::Bytes nest);

// Appends a RUE_A_DEV_CC nest holding the parameters `cc` sets, and no
// others.
void PutCc(nl::MessageBuilder& message, const CcConfig& cc);

// The RUE_CMD_CC_SET request that changes device `name` as `changes` says
// (with changes.prio, its DCQCN parameters for that priority only).
nl::MessageBuilder CcSetRequest(uint16_t family_id, std::string_view name,
                                const CcConfig& changes);

// The RUE_CMD_CC_GET request (a do) for device `name`; with `prio`, a
// RUE_A_DEV_CC nest holding RUE_A_CC_PRIO asks for that priority's DCQCN
// parameters, without it the kernel reports priority 0's.
nl::MessageBuilder CcGetRequest(uint16_t family_id, std::string_view name,
                                std::optional<uint32_t> prio);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_ATTRS_H_
