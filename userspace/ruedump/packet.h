// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// One captured packet, as the capture reader hands it to the decoder.
#ifndef RUE_RUEDUMP_PACKET_H_
#define RUE_RUEDUMP_PACKET_H_

#include <cstddef>
#include <cstdint>
#include <span>

namespace rue::dump {

struct Packet {
  uint64_t number = 0;  // 1-based position in the capture
  int64_t seconds = 0;  // timestamp
  int64_t micros = 0;
  uint32_t wire_length = 0;  // the packet's length on the wire
  // The bytes captured (wire_length or fewer, if the snap length cut it);
  // borrowed from the reader until the next packet.
  std::span<const std::byte> bytes;
};

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_PACKET_H_
