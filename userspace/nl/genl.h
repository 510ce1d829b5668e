// SPDX-License-Identifier: GPL-2.0
//
// Generic netlink message format: the genlmsghdr after the netlink header,
// requests, and the controller's (nlctrl) description of a family.
#ifndef RUE_NL_GENL_H_
#define RUE_NL_GENL_H_

#include <cstdint>
#include <string>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"

namespace rue::nl {

// One generic netlink message, seen through its headers.
struct GenlMessage {
  uint16_t family = 0;  // nlmsg_type
  uint16_t flags = 0;   // nlmsg_flags
  uint8_t cmd = 0;
  uint8_t version = 0;
  Bytes attrs;  // everything after the genlmsghdr
};

// `message` is one whole message; EBADMSG if it cannot hold the headers.
Result<GenlMessage> ParseGenl(Bytes message);

// A request to `family_id` for `cmd`, with NLM_F_REQUEST set; the caller
// adds attributes.
MessageBuilder GenlRequest(uint16_t family_id, uint8_t cmd, uint8_t version);

// A registered family as the controller describes it.
struct Family {
  uint16_t id = 0;
  std::string name;
  uint32_t version = 0;
  uint32_t max_attr = 0;
};

// The attributes of a CTRL_CMD_NEWFAMILY message (the controller's answer
// to CTRL_CMD_GETFAMILY); the id and the name are required.
Result<Family> ParseFamily(Bytes attrs);

}  // namespace rue::nl

#endif  // RUE_NL_GENL_H_
