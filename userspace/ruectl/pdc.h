// SPDX-License-Identifier: GPL-2.0
//
// A UET packet delivery context as RUE_CMD_PDC_GET dumps it (enum
// rue_pdc_attr in uapi/linux/rue_netlink.h).  All but the device and the
// local PDCID are optional: initiator PDCs carry the send state, target
// PDCs the receive state, and an older kernel may lack some.
#ifndef RUE_RUECTL_PDC_H_
#define RUE_RUECTL_PDC_H_

#include <cstdint>
#include <optional>
#include <string>

namespace rue::cli {

struct Pdc {
  uint32_t dev_index = 0;  // ib_device index
  std::string dev;
  uint16_t local_id = 0;              // our PDCID
  std::optional<uint16_t> remote_id;  // the peer's, 0 while unknown
  std::optional<uint8_t> role;        // enum rue_nl_pdc_role
  std::optional<uint8_t> mode;        // enum rue_uet_mode
  std::optional<uint32_t> job;        // JobID
  std::optional<std::string> peer;    // IPv4 or IPv6 address, as text
  // Initiator.
  std::optional<bool> syn;      // the peer's PDCID not known yet
  std::optional<bool> closing;  // CLOSE sent
  std::optional<uint32_t> qpn;
  std::optional<uint32_t> next_psn;
  std::optional<uint32_t> una_psn;
  std::optional<uint32_t> srtt_us;  // 0: no sample yet
  std::optional<uint32_t> rto_us;
  std::optional<uint32_t> retries;
  std::optional<uint32_t> cwnd;  // bytes, 0: no window
  // Target.
  std::optional<uint32_t> rx_next_psn;

  bool operator==(const Pdc&) const = default;
};

}  // namespace rue::cli

#endif  // RUE_RUECTL_PDC_H_
