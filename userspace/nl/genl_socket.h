// SPDX-License-Identifier: GPL-2.0
//
// GenlSocket: request/response and dump over a generic netlink socket.
// One exchange at a time: each call sends one request and reads until
// the kernel's ACK (do) or NLMSG_DONE (dump).
#ifndef RUE_NL_GENL_SOCKET_H_
#define RUE_NL_GENL_SOCKET_H_

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "nl/genl.h"
#include "nl/message.h"
#include "nl/result.h"
#include "nl/socket.h"

namespace rue::nl {

using GenlHandler = std::function<Status(const GenlMessage& message)>;

class GenlSocket {
 public:
  static Result<GenlSocket> Open();

  // The family registered as `name`.  ENOENT when there is none (the
  // module that registers it is not loaded).
  Result<Family> ResolveFamily(std::string_view name);

  // Sends `request` with NLM_F_ACK; on_reply sees each reply message.
  // The kernel's error, with its extended-ack message, comes back as the
  // Error; so does the first error on_reply returns.
  Status Do(MessageBuilder& request, const GenlHandler& on_reply);

  // Sends `request` as a dump (NLM_F_DUMP); on_message sees each message.
  Status Dump(MessageBuilder& request, const GenlHandler& on_message);

 private:
  explicit GenlSocket(Socket socket);

  Status Exchange(MessageBuilder& request, const GenlHandler& handler);

  Socket socket_;
  uint32_t next_seq_;
  std::vector<std::byte> buffer_;
};

}  // namespace rue::nl

#endif  // RUE_NL_GENL_SOCKET_H_
