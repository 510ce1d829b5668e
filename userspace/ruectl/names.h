// SPDX-License-Identifier: GPL-2.0
//
// How ruectl spells the kernel's numbers: enum names (with an "UNKNOWN"
// fallback), GUIDs and GIDs.  Congestion-control values, which "cc set"
// also reads, are in cc_value.h.
#ifndef RUE_RUECTL_NAMES_H_
#define RUE_RUECTL_NAMES_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace rue::cli {

// enum ib_port_state: DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER.
std::string_view PortStateName(uint8_t state);
// IB physical port state: SLEEP, POLLING, DISABLED, ..., LINK_UP, ...
std::string_view PhysStateName(uint8_t state);
// enum rue_gid_type: IB, RoCEv1, RoCEv2.
std::string_view GidTypeName(uint8_t type);
// enum ib_qp_type, as rdma(8) spells it: SMI, GSI, RC, UC, UD, ...
std::string_view QpTypeName(uint8_t type);
// enum ib_qp_state: RESET, INIT, RTR, RTS, SQD, SQE, ERR.
std::string_view QpStateName(uint8_t state);
// enum rue_nl_pdc_role: initiator, target.
std::string_view PdcRoleName(uint8_t role);
// enum rue_uet_mode, as UE 1.0.1 spells the delivery modes: RUD, ROD.
std::string_view UetModeName(uint8_t mode);

// As rdma(8) prints GUIDs: four groups of four hex digits, "0011:2233:...".
std::string FormatGuid(uint64_t guid);
// Standard IPv6 notation (RFC 5952 compression); IPv4-mapped GIDs print
// as ::ffff:a.b.c.d.
std::string FormatGid(const std::array<uint8_t, 16>& gid);

}  // namespace rue::cli

#endif  // RUE_RUECTL_NAMES_H_
