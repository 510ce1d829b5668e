// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/format.h"

#include <arpa/inet.h>

#include <cstdio>

namespace rue::dump {

std::string FormatLinkAddress(std::span<const uint8_t> address) {
  std::string out;
  for (uint8_t b : address) {
    char text[4];
    std::snprintf(text, sizeof(text), "%02x", b);
    if (!out.empty()) out += ':';
    out += text;
  }
  return out;
}

std::string FormatMac(const wire::MacAddress& mac) {
  return FormatLinkAddress(mac);
}

std::string FormatIpv4(const wire::Ipv4Address& address) {
  return std::to_string(address[0]) + "." + std::to_string(address[1]) + "." +
         std::to_string(address[2]) + "." + std::to_string(address[3]);
}

std::string FormatIpv6(const wire::Ipv6Address& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (!inet_ntop(AF_INET6, address.data(), text, sizeof(text))) return "?";
  return text;
}

}  // namespace rue::dump
