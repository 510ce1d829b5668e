// SPDX-License-Identifier: GPL-2.0
//
// Test helpers: netlink messages as the kernel would send them, built in
// memory, and buffers holding several of them back to back.
#ifndef RUE_NL_TEST_MESSAGES_H_
#define RUE_NL_TEST_MESSAGES_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "nl/attr.h"
#include "nl/message.h"

namespace rue::nl::testing {

// An NLMSG_ERROR for request `seq`: an ACK when error is 0.  A non-empty
// extack becomes NLMSGERR_ATTR_MSG.  The ACK is capped unless echo is set,
// in which case a 20-byte request payload is echoed before the TLVs.
MessageBuilder MakeAck(int error, uint32_t seq, std::string_view extack = "",
                       bool echo = false);

// An NLMSG_DONE ending dump `seq`, carrying `error` and an optional extack.
MessageBuilder MakeDone(int error, uint32_t seq, std::string_view extack = "");

// A generic netlink message from `family` as the kernel sends it: cmd and
// version in the genlmsghdr, sequence number `seq`, flags `flags`.
MessageBuilder MakeGenl(uint16_t family, uint8_t cmd, uint32_t seq,
                        uint16_t flags = 0);

// The messages one after another in one buffer, as one datagram holds them.
std::vector<std::byte> Concat(std::initializer_list<Bytes> messages);

// `message` with its bytes copied into a fresh (aligned) buffer.
std::vector<std::byte> Copy(Bytes message);

}  // namespace rue::nl::testing

#endif  // RUE_NL_TEST_MESSAGES_H_
