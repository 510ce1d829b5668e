// SPDX-License-Identifier: GPL-2.0
//
// The kernel's verdict on a request: NLMSG_ERROR (an ACK when its error
// is 0) and NLMSG_DONE (which ends a dump, and carries the error of a
// dump that failed part-way).  Both may carry extended-ack attributes;
// the NLMSGERR_ATTR_MSG text becomes the Error's message.
#ifndef RUE_NL_ACK_H_
#define RUE_NL_ACK_H_

#include "nl/attr.h"
#include "nl/result.h"

namespace rue::nl {

// `message` is one whole NLMSG_ERROR message, netlink header included.
// Ok for an ACK; the kernel's errno and message otherwise; EBADMSG when
// it is too short to hold a struct nlmsgerr.
Status ParseAck(Bytes message);

// `message` is one whole NLMSG_DONE message.  Ok unless it carries a
// negative error (a DONE without payload, from old kernels, is Ok).
Status ParseDone(Bytes message);

}  // namespace rue::nl

#endif  // RUE_NL_ACK_H_
