// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fields ruedump shows for a RoCEv2 packet: the BTH, each extension
// header its opcode carries, the payload length and the ICRC verdict.
#ifndef RUE_RUEDUMP_ROCE_FIELDS_H_
#define RUE_RUEDUMP_ROCE_FIELDS_H_

#include <vector>

#include "rue/wire/roce_packet.h"
#include "ruedump/record.h"

namespace rue::dump {

// Sections "bth", then the extension headers in wire order ("reth",
// "aeth", "deth", "immdt", "ieth", "atomic-eth", "atomic-ack-eth",
// "cnp"), then payload length and ICRC at the top level.
std::vector<Section> RoceSections(const wire::RoceFrame& frame);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_ROCE_FIELDS_H_
