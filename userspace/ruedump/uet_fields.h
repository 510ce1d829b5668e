// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fields ruedump shows for a UET packet: the PDS header, the SES
// header its next_hdr names, the atomic extension header, and the payload
// length.
#ifndef RUE_RUEDUMP_UET_FIELDS_H_
#define RUE_RUEDUMP_UET_FIELDS_H_

#include <vector>

#include "rue/wire/uet_packet.h"
#include "ruedump/record.h"

namespace rue::dump {

// Sections "pds", then "ses" and "atomic" when present, then
// payload-length at the top level.
std::vector<Section> UetSections(const wire::UetPacket& packet);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_UET_FIELDS_H_
