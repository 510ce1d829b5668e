// SPDX-License-Identifier: GPL-2.0
//
// From a RUE_CMD_DEV_GET message's attributes to a Device.  Everything the
// kernel always sends is required; the GID table may be absent (empty),
// and attributes this code does not know are skipped.
#ifndef RUE_RUECTL_DEVICE_PARSE_H_
#define RUE_RUECTL_DEVICE_PARSE_H_

#include "nl/attr.h"
#include "nl/result.h"
#include "ruectl/device.h"

namespace rue::cli {

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed.
nl::Result<Device> ParseDevice(nl::Bytes attrs);

// `nest`: the payload of one RUE_A_DEV_GID.
nl::Result<Gid> ParseGid(nl::Bytes nest);

}  // namespace rue::cli

#endif  // RUE_RUECTL_DEVICE_PARSE_H_
