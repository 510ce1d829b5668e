// SPDX-License-Identifier: GPL-2.0
//
// The "qp" object: ruectl qp { show [DEV] | help }.  A QP as
// RUE_CMD_QP_GET dumps it (enum rue_qp_attr in uapi/linux/rue_netlink.h),
// its identity and the state of its congestion control: the message, the
// field list "qp show" prints, and the command.
#ifndef RUE_RUECTL_QP_H_
#define RUE_RUECTL_QP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nl/attr.h"
#include "nl/result.h"
#include "ruectl/print.h"

namespace rue::cli {

class Cli;

// All but the device and the QP number are optional: a message may lack
// them (a UD QP has no peer; an older kernel may not count).
struct Qp {
  uint32_t dev_index = 0;  // ib_device index
  std::string dev;
  uint32_t qpn = 0;
  std::optional<uint8_t> type;   // enum ib_qp_type
  std::optional<uint8_t> state;  // enum ib_qp_state
  std::optional<uint32_t> dest_qpn;
  std::optional<uint8_t> prio;
  std::optional<uint8_t> dscp;
  std::optional<bool> limited;     // the rate limiter is on
  std::optional<uint32_t> rate;    // current rate RC, Mb/s
  std::optional<uint32_t> target;  // target rate RT, Mb/s
  std::optional<uint32_t> alpha;   // 1/1024
  std::optional<uint64_t> cnp_sent;
  std::optional<uint64_t> cnp_handled;
  std::optional<uint64_t> ecn_marked;
  std::optional<uint64_t> tx_bytes;
  std::optional<uint32_t> cwnd;  // RC: packets its loss window allows

  bool operator==(const Qp&) const = default;
};

// One message of a RUE_CMD_QP_GET dump; `attrs`: the attributes after the
// genlmsghdr.  The device's index and name, the RUE_A_DEV_QP nest and the
// QP number in it are required; everything else may be absent, and
// attributes this code does not know are skipped.  EBADMSG, naming the
// attribute, when one is missing or malformed.
nl::Result<Qp> ParseQp(nl::Bytes attrs);

// enum ib_qp_type, as rdma(8) spells it: SMI, GSI, RC, UC, UD, ...
std::string_view QpTypeName(uint8_t type);
// enum ib_qp_state: RESET, INIT, RTR, RTS, SQD, SQE, ERR.
std::string_view QpStateName(uint8_t state);

// What "qp show" prints of `qp`: one line.
Record QpRecord(const Qp& qp);

void AddQpObject(Cli& cli);

}  // namespace rue::cli

#endif  // RUE_RUECTL_QP_H_
