// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/uet_decoder.h"

#include "rue/wire/uet_packet.h"
#include "ruedump/uet_fields.h"

namespace rue::dump {

wire::Result<std::vector<Section>> DecodeUet(
    std::span<const std::byte> udp_payload) {
  wire::Result<wire::UetPacket> packet = wire::ParseUet(udp_payload);
  if (!packet.ok()) return wire::Error{packet.code(), packet.message()};
  return UetSections(*packet);
}

}  // namespace rue::dump
