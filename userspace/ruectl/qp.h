// SPDX-License-Identifier: GPL-2.0
//
// A QP as RUE_CMD_QP_GET dumps it (enum rue_qp_attr in
// uapi/linux/rue_netlink.h): its identity and its congestion-control
// state.  All but the device and the QP number are optional: a message
// may lack them (a UD QP has no peer; an older kernel may not count).
#ifndef RUE_RUECTL_QP_H_
#define RUE_RUECTL_QP_H_

#include <cstdint>
#include <optional>
#include <string>

namespace rue::cli {

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

  bool operator==(const Qp&) const = default;
};

}  // namespace rue::cli

#endif  // RUE_RUECTL_QP_H_
