// SPDX-License-Identifier: GPL-2.0
#include "rueperf/layout.h"

namespace rue::perf {

uint32_t ClientQps(const Params& p) {
  return IsUet(p.transport) ? 1 : p.peers;
}

uint32_t ClientSlots(const Params& p) { return p.depth * ClientQps(p) + 1; }

uint32_t EchoSlot(const Params& p) { return ClientSlots(p) - 1; }

// At least two: the write latency echo's own slot is slot 1.
uint32_t ServerSlots(const Params& p) { return 2 * p.depth; }

uint32_t RemoteSlot(const Params& p, uint32_t local_slot) {
  return local_slot % p.depth;
}

uint32_t FirstSlotOfQp(const Params& p, uint32_t qp) { return qp * p.depth; }

uint8_t PingByte(uint64_t iter) { return static_cast<uint8_t>(1 + iter % 255); }

uint64_t EncodeWrId(WrId id) {
  return (id.recv ? 1ull << 63 : 0) | uint64_t{id.qp & 0xffff} << 32 | id.slot;
}

WrId DecodeWrId(uint64_t wr_id) {
  return {(wr_id >> 63) != 0, static_cast<uint32_t>((wr_id >> 32) & 0xffff),
          static_cast<uint32_t>(wr_id)};
}

}  // namespace rue::perf
