// SPDX-License-Identifier: GPL-2.0
//
// From one message of a RUE_CMD_QP_GET dump to a Qp.  The device's index
// and name, the RUE_A_DEV_QP nest and the QP number in it are required;
// everything else may be absent, and attributes this code does not know
// are skipped.
#ifndef RUE_RUECTL_QP_PARSE_H_
#define RUE_RUECTL_QP_PARSE_H_

#include "nl/attr.h"
#include "nl/result.h"
#include "ruectl/qp.h"

namespace rue::cli {

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed.
nl::Result<Qp> ParseQp(nl::Bytes attrs);

}  // namespace rue::cli

#endif  // RUE_RUECTL_QP_PARSE_H_
