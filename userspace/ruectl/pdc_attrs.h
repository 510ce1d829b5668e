// SPDX-License-Identifier: GPL-2.0
//
// PDCs on the wire: a message of a RUE_CMD_PDC_GET dump to a Pdc, and the
// dump request.  A message needs the device's index and name, the
// RUE_A_DEV_PDC nest and the local PDCID in it; the rest may be absent,
// and attributes this code does not know are skipped.
#ifndef RUE_RUECTL_PDC_ATTRS_H_
#define RUE_RUECTL_PDC_ATTRS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/pdc.h"

namespace rue::cli {

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed; the peer's address must be
// 4 bytes with family AF_INET or 16 with AF_INET6.
nl::Result<Pdc> ParsePdc(nl::Bytes attrs);

// RUE_CMD_PDC_GET as a dump: the PDCs of device `name`, or of every
// device.
nl::MessageBuilder PdcDumpRequest(uint16_t family_id,
                                  std::optional<std::string_view> name);

}  // namespace rue::cli

#endif  // RUE_RUECTL_PDC_ATTRS_H_
