// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fields ruedump shows for the capture record and the link layer.
#ifndef RUE_RUEDUMP_LINK_FIELDS_H_
#define RUE_RUEDUMP_LINK_FIELDS_H_

#include <vector>

#include "ruedump/link_layer.h"
#include "ruedump/packet.h"
#include "ruedump/record.h"

namespace rue::dump {

// Top-level fields: frame number, time, lengths, link type.
Section FrameSection(const Packet& packet, LinkType link_type);

// "eth" or "sll", then "vlan" and "inner-vlan" for the tags.
std::vector<Section> LinkSections(const Link& link);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_LINK_FIELDS_H_
