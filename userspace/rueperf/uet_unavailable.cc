// SPDX-License-Identifier: GPL-2.0
//
// The UET factory of a build without librue's ruedv.h: the transports
// exist on the command line and in the exchange, but cannot run.
#include "rueperf/transport.h"

namespace rue::perf {

TransportResult CreateUetTransport(Device&, const Params&, Role,
                                   std::span<const size_t>) {
  return {nullptr,
          "this rueperf was built without librue's ruedv.h: the UET "
          "transports (rud, rod) are not available"};
}

}  // namespace rue::perf
