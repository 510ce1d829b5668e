// SPDX-License-Identifier: GPL-2.0
//
// Where messages live.  Both sides derive the layout from the run's
// parameters alone, so the exchange carries only base addresses.
//
//   client  one region of ClientSlots() slots of `size` bytes: `depth`
//           slots per client QP (a slot is busy while its WR is), then
//           the echo slot the server answers latency pings into.
//   server  one region per peer of ServerSlots() slots: WRITE and READ
//           address slots 0..depth-1 (the client's slot s goes to slot
//           s % depth); SEND receives into all of them, two per message
//           in flight; the write latency echo goes out of slot 1.
//
// wr_id: the slot in the low 32 bits, the QP above it, and bit 63 for
// receives.
#ifndef RUE_RUEPERF_LAYOUT_H_
#define RUE_RUEPERF_LAYOUT_H_

#include <cstdint>

#include "rueperf/params.h"

namespace rue::perf {

uint32_t ClientQps(const Params& p);
uint32_t ClientSlots(const Params& p);
uint32_t EchoSlot(const Params& p);
uint32_t ServerSlots(const Params& p);
// The server slot the client's slot @local_slot addresses.
uint32_t RemoteSlot(const Params& p, uint32_t local_slot);
// The first of the client slots of QP @qp.
uint32_t FirstSlotOfQp(const Params& p, uint32_t qp);

// The byte the write latency ping-pong puts last in iteration @iter:
// never 0 (a fresh buffer) and never the previous iteration's.
uint8_t PingByte(uint64_t iter);

struct WrId {
  bool recv;
  uint32_t qp;
  uint32_t slot;
};

uint64_t EncodeWrId(WrId id);
WrId DecodeWrId(uint64_t wr_id);

}  // namespace rue::perf

#endif  // RUE_RUEPERF_LAYOUT_H_
