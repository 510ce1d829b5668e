// SPDX-License-Identifier: GPL-2.0
//
// The "cc" object:
// ruectl cc { show [DEV [prio P]] | set DEV [prio P] KEY VALUE... | help }.
// A rue device's congestion control as RUE_CMD_CC_GET describes it and
// RUE_CMD_CC_SET changes it (enum rue_cc_attr in uapi/linux/rue_netlink.h):
// the messages, the field list "cc show" prints, and the commands.  The
// parameters' table and "cc set"'s KEY VALUE words are in cc_params.h,
// how their values are written in cc_value.h.
//
// Every parameter is optional: a reply may lack one (an older kernel), and
// a change carries only what is to change.  A reply needs the device's
// index and name and the nest; parameters the nest lacks stay unset, and
// attributes this code does not know are skipped.
#ifndef RUE_RUECTL_CC_H_
#define RUE_RUECTL_CC_H_

#include <array>
#include <cstddef>
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

inline constexpr size_t kDscpCount = 64;
inline constexpr unsigned kPrioCount = 8;

using DscpMap = std::array<uint8_t, kDscpCount>;    // priority, by DSCP
using PrioTable = std::array<uint8_t, kPrioCount>;  // a value, by priority

// The scalars are uint32_t whatever their width on the wire (cc_params.h
// has it), so that one table can reach them all.
//
// The DCQCN parameters (dce_tcp_g ... rpg_hai_rate but rpg_max_rate) are
// kept per priority: in a CC_GET reply they are those of priority `prio`;
// in a CC_SET request with `prio` they change for that priority only,
// without it for every priority.  The rest is per device.
struct CcConfig {
  std::optional<uint32_t> ecn;  // enum rue_ecn_mode
  std::optional<DscpMap> dscp_prio;
  std::optional<uint32_t> cnp_dscp;
  std::optional<uint32_t> cnp_prio;
  std::optional<uint32_t> np_enable;                   // bit n: priority n
  std::optional<uint32_t> rp_enable;                   // bit n: priority n
  std::optional<uint32_t> min_time_between_cnps;       // us
  std::optional<uint32_t> dce_tcp_g;                   // 1/1024
  std::optional<uint32_t> dce_tcp_rtt;                 // us
  std::optional<uint32_t> initial_alpha;               // 1/1024
  std::optional<uint32_t> rate_reduce_monitor_period;  // us
  std::optional<uint32_t> rpg_gd;
  std::optional<uint32_t> rpg_min_dec_fac;                // %
  std::optional<uint32_t> rpg_min_rate;                   // Mb/s
  std::optional<uint32_t> rpg_max_rate;                   // Mb/s
  std::optional<uint32_t> rate_to_set_on_first_cnp;       // Mb/s
  std::optional<uint32_t> clamp_tgt_rate;                 // 0 or 1
  std::optional<uint32_t> clamp_tgt_rate_after_time_inc;  // 0 or 1
  std::optional<uint32_t> rpg_time_reset;                 // us
  std::optional<uint32_t> rpg_byte_reset;                 // bytes
  std::optional<uint32_t> rpg_threshold;
  std::optional<uint32_t> rpg_ai_rate;   // Mb/s
  std::optional<uint32_t> rpg_hai_rate;  // Mb/s
  std::optional<uint32_t> link_speed;    // Mb/s, read only
  std::optional<PrioTable> ets_tsa;      // enum rue_tsa
  std::optional<PrioTable> ets_weight;   // %
  std::optional<uint32_t> pfc_enable;    // bit n: priority n
  std::optional<uint32_t> pfc_xoff;      // bytes
  std::optional<uint32_t> pfc_xon;       // bytes
  std::optional<uint32_t> pfc_quanta;    // 512 bit times
  std::optional<uint32_t> pfc_paused;    // bit n: priority n, read only
  std::optional<uint32_t> pfc_asserted;  // bit n: priority n, read only
  std::optional<uint32_t> prio;          // 0..7, of the DCQCN parameters
  std::optional<uint32_t> dcqcn_differ;  // bit n: priority n, read only:
                                         // DCQCN parameters not prio 0's

  bool operator==(const CcConfig&) const = default;
};

// One CC_GET reply: the device and its configuration.
struct DeviceCc {
  uint32_t index = 0;  // ib_device index
  std::string name;
  CcConfig cc;

  bool operator==(const DeviceCc&) const = default;
};

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed.
nl::Result<DeviceCc> ParseDeviceCc(nl::Bytes attrs);

// `nest`: the payload of one RUE_A_DEV_CC.
nl::Result<CcConfig> ParseCc(nl::Bytes nest);

// Appends a RUE_A_DEV_CC nest holding the parameters `cc` sets, and no
// others.
void PutCc(nl::MessageBuilder& message, const CcConfig& cc);

// The RUE_CMD_CC_SET request that changes device `name` as `changes` says
// (with changes.prio, its DCQCN parameters for that priority only).
nl::MessageBuilder CcSetRequest(uint16_t family_id, std::string_view name,
                                const CcConfig& changes);

// The RUE_CMD_CC_GET request (a do) for device `name`; with `prio`, a
// RUE_A_DEV_CC nest holding RUE_A_CC_PRIO asks for that priority's DCQCN
// parameters, without it the kernel reports priority 0's.
nl::MessageBuilder CcGetRequest(uint16_t family_id, std::string_view name,
                                std::optional<uint32_t> prio);

// What "cc show" prints of `device`: the keys of cc_params.h, in the same
// order.
Record CcRecord(const DeviceCc& device);

void AddCcObject(Cli& cli);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CC_H_
