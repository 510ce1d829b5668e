// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Test helpers: RoCEv2 packets from rue::wire's builder.
#ifndef RUE_RUEDUMP_TEST_ROCE_H_
#define RUE_RUEDUMP_TEST_ROCE_H_

#include <cstddef>
#include <cstdint>

#include "rue/wire/roce_packet.h"
#include "ruedump/test_pcap.h"

namespace rue::dump::testing {

// 192.0.2.1 -> 192.0.2.2 or 2001:db8::1 -> 2001:db8::2, UDP 49153 -> 4791.
// IPv4: TTL 64, DF, id 0x1234; IPv6: hop limit 64, flow label 0x12345.
wire::UdpFrameSpec SampleFrame(bool ipv6);

// The BTH (dqpn 0x10, psn 0x1a2b3c) and sample values for every extension
// header the opcode calls for.
wire::RoceHeaders SampleHeaders(uint8_t opcode);

// A RoCEv2 IP packet built by BuildRocePacket(): `payload_size` bytes of
// payload (i & 0xff).
Bytes BuildRoceIp(const wire::RoceHeaders& headers, std::size_t payload_size,
                  bool ipv6 = false);

// A UDP packet (IPv4) to `dst_port` with `payload_size` bytes of payload.
Bytes BuildUdpIp(uint16_t dst_port, std::size_t payload_size);

}  // namespace rue::dump::testing

#endif  // RUE_RUEDUMP_TEST_ROCE_H_
