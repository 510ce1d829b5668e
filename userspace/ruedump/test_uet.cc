// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/test_uet.h"

#include <gtest/gtest.h>

#include "rue/wire/uet_packet.h"

namespace rue::dump::testing {

Bytes BuildUetIp(std::size_t payload_size) {
  wire::UetHeaders h;
  wire::PdsRequest pds;
  pds.prologue = {static_cast<uint8_t>(wire::PdsType::kRudReq),
                  static_cast<uint8_t>(wire::NextHeader::kReqStd),
                  wire::pds_flags::kAr};
  pds.psn = 0x10;
  pds.spdcid = 0x11;
  pds.dpdcid = 0x22;
  h.pds = pds;
  wire::SesRequest ses;
  ses.opcode = static_cast<uint8_t>(wire::SesOpcode::kSend);
  ses.flags = wire::ses_flags::kSom | wire::ses_flags::kEom;
  ses.message_id = 1;
  ses.job_id = 0x42;
  ses.pid_on_fep = 5;
  ses.resource_index = 7;
  ses.request_length = static_cast<uint32_t>(payload_size);
  h.ses_request = ses;

  const std::size_t headers = wire::PdsRequest::kSize + wire::SesRequest::kStdSize;
  Bytes ip = BuildUdpIp(wire::kUetUdpPort, headers + payload_size);
  // Overwrite the start of the UDP payload (after 20 + 8 bytes) with the
  // UET headers; BuildUdpIp wrote no UDP checksum, so nothing else changes.
  wire::Writer w{std::span(ip).subspan(28, headers)};
  EXPECT_TRUE(wire::WriteUetHeaders(w, h));
  return ip;
}

}  // namespace rue::dump::testing
