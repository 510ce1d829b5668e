// SPDX-License-Identifier: GPL-2.0
//
// The "pdc" object: ruectl pdc { show [DEV] | help }.  A UET packet
// delivery context as RUE_CMD_PDC_GET dumps it (enum rue_pdc_attr in
// uapi/linux/rue_netlink.h): the messages, the field list "pdc show"
// prints, and the command.
#ifndef RUE_RUECTL_PDC_H_
#define RUE_RUECTL_PDC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/print.h"

namespace rue::cli {

class Cli;

// All but the device and the local PDCID are optional: initiator PDCs
// carry the send state, target PDCs the receive state, and an older
// kernel may lack some.
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

// One message of a RUE_CMD_PDC_GET dump; `attrs`: the attributes after the
// genlmsghdr.  It needs the device's index and name, the RUE_A_DEV_PDC
// nest and the local PDCID in it; the rest may be absent, and attributes
// this code does not know are skipped.  EBADMSG, naming the attribute,
// when one is missing or malformed; the peer's address must be 4 bytes
// with family AF_INET or 16 with AF_INET6.
nl::Result<Pdc> ParsePdc(nl::Bytes attrs);

// RUE_CMD_PDC_GET as a dump: the PDCs of device `name`, or of every
// device.
nl::MessageBuilder PdcDumpRequest(uint16_t family_id,
                                  std::optional<std::string_view> name);

// enum rue_nl_pdc_role: initiator, target.
std::string_view PdcRoleName(uint8_t role);
// enum rue_uet_mode, as UE 1.0.1 spells the delivery modes: RUD, ROD.
std::string_view UetModeName(uint8_t mode);

// What "pdc show" prints of `pdc`: two lines.
Record PdcRecord(const Pdc& pdc);

void AddPdcObject(Cli& cli);

}  // namespace rue::cli

#endif  // RUE_RUECTL_PDC_H_
