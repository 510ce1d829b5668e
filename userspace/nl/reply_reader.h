// SPDX-License-Identifier: GPL-2.0
//
// ReplyReader: consumes what the kernel sends back for one request, one
// received buffer at a time, through libmnl's callback loop.  Data
// messages go to the handler; NLMSG_ERROR (the ACK of a do request) and
// NLMSG_DONE (the end of a dump) end the exchange with the kernel's
// verdict.  After a handler error it keeps reading to the end of the
// exchange, so that nothing of it is left on the socket.
#ifndef RUE_NL_REPLY_READER_H_
#define RUE_NL_REPLY_READER_H_

#include <linux/netlink.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "nl/attr.h"
#include "nl/result.h"

namespace rue::nl {

// Sees one whole data message, netlink header included.
using MessageHandler = std::function<Status(Bytes message)>;

class ReplyReader {
 public:
  ReplyReader(uint32_t seq, uint32_t port_id, MessageHandler handler);

  // Processes one received buffer; returns true once the exchange ended.
  bool Feed(Bytes buffer);

  bool done() const { return done_; }
  // The first error: the handler's, the kernel's, or a bad reply's.
  Status status() const;

 private:
  static int OnData(const nlmsghdr* nlh, void* self);
  static int OnError(const nlmsghdr* nlh, void* self);
  static int OnDone(const nlmsghdr* nlh, void* self);
  int Finish(Status verdict);
  void Fail(Error error);

  uint32_t seq_;
  uint32_t port_id_;
  MessageHandler handler_;
  bool done_ = false;
  std::optional<Error> error_;
};

}  // namespace rue::nl

#endif  // RUE_NL_REPLY_READER_H_
