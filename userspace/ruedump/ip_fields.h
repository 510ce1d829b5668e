// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fields ruedump shows for the IPv4, IPv6 and UDP headers.
#ifndef RUE_RUEDUMP_IP_FIELDS_H_
#define RUE_RUEDUMP_IP_FIELDS_H_

#include "rue/wire/ip.h"
#include "rue/wire/udp.h"
#include "ruedump/record.h"

namespace rue::dump {

// Key "ip", titled IPv4 or IPv6; one line shows "src > dst" and "ce" on
// congestion-marked packets.
Section Ipv4Section(const wire::Ipv4Header& header);
Section Ipv6Section(const wire::Ipv6Header& header);
// Key "udp"; one line shows "udp SPORT > DPORT".
Section UdpSection(const wire::UdpHeader& header);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_IP_FIELDS_H_
