// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Text forms of addresses.
#ifndef RUE_RUEDUMP_FORMAT_H_
#define RUE_RUEDUMP_FORMAT_H_

#include <cstdint>
#include <span>
#include <string>

#include "rue/wire/ethernet.h"
#include "rue/wire/ip.h"

namespace rue::dump {

// "02:00:00:00:00:01"; any length, colon-separated.
std::string FormatLinkAddress(std::span<const uint8_t> address);
std::string FormatMac(const wire::MacAddress& mac);
// "192.0.2.1".
std::string FormatIpv4(const wire::Ipv4Address& address);
// RFC 5952 form, as inet_ntop(3) writes it: "2001:db8::1".
std::string FormatIpv6(const wire::Ipv6Address& address);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_FORMAT_H_
