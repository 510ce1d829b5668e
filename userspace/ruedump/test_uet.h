// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UET packets for the tests, built with rue::wire's writers.
#ifndef RUE_RUEDUMP_TEST_UET_H_
#define RUE_RUEDUMP_TEST_UET_H_

#include <cstddef>

#include "ruedump/test_roce.h"

namespace rue::dump::testing {

// An IPv4 packet 192.0.2.1:49153 > 192.0.2.2:4793 carrying what rue sends
// for a one-packet message: RUD_REQ (AR, psn 0x10, spdcid 0x11, dpdcid
// 0x22) + a standard SES SEND (SOM, EOM, message 1, job 0x42, pid 5,
// resource index 7, request_length = payload_size) + payload_size bytes.
Bytes BuildUetIp(std::size_t payload_size);

}  // namespace rue::dump::testing

#endif  // RUE_RUEDUMP_TEST_UET_H_
