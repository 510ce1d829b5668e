// SPDX-License-Identifier: GPL-2.0
//
// UET counters on the wire: a RUE_CMD_UET_STATS_GET reply to UetStats,
// and its requests.  A reply needs the device's index and name and the
// RUE_A_DEV_UET_STATS nest; each counter in it needs a name and a value.
// Attributes this code does not know are skipped.
#ifndef RUE_RUECTL_UET_ATTRS_H_
#define RUE_RUECTL_UET_ATTRS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/uet.h"

namespace rue::cli {

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed, or when a counter's name
// is empty or comes twice.
nl::Result<UetStats> ParseUetStats(nl::Bytes attrs);

// RUE_CMD_UET_STATS_GET: as a do, the counters of device `name`; without
// it, as a dump, those of every device.
nl::MessageBuilder UetStatsRequest(uint16_t family_id,
                                   std::optional<std::string_view> name);

}  // namespace rue::cli

#endif  // RUE_RUECTL_UET_ATTRS_H_
