// SPDX-License-Identifier: GPL-2.0
#include "nl/ack.h"

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace rue::nl {
namespace {

constexpr AttrPolicy kExtAckPolicy[] = {
    {NLMSGERR_ATTR_MSG, AttrKind::kString, "msg"},
};

nlmsghdr HeaderOf(Bytes message) {
  nlmsghdr nlh{};
  std::memcpy(&nlh, message.data(), sizeof(nlh));
  return nlh;
}

// The NLMSGERR_ATTR_MSG text that follows `tlv_offset` bytes of payload,
// or "" when there is none.  Extended ack is best effort: a malformed one
// leaves the errno to speak alone.
std::string ExtAckMessage(Bytes message, size_t tlv_offset) {
  if (!(HeaderOf(message).nlmsg_flags & NLM_F_ACK_TLVS)) return "";
  size_t start = MNL_NLMSG_HDRLEN + MNL_ALIGN(tlv_offset);
  if (start >= message.size()) return "";
  Result<AttrTable> tlvs =
      AttrTable::Parse(message.subspan(start), kExtAckPolicy);
  if (!tlvs.ok()) return "";
  return std::string(tlvs->Str(NLMSGERR_ATTR_MSG));
}

// Kernel subsystems report errors negated; a few positive: accept both.
Status FromErrno(int error, std::string message) {
  if (error == 0) return Ok();
  return Error{error < 0 ? -error : error, std::move(message)};
}

}  // namespace

Status ParseAck(Bytes message) {
  if (message.size() < MNL_NLMSG_HDRLEN + sizeof(nlmsgerr))
    return Error{EBADMSG, "truncated netlink error message"};
  nlmsgerr err;
  std::memcpy(&err, message.data() + MNL_NLMSG_HDRLEN, sizeof(err));
  if (err.error == 0) return Ok();
  size_t tlv_offset = sizeof(err);
  bool capped = HeaderOf(message).nlmsg_flags & NLM_F_CAPPED;
  if (!capped && err.msg.nlmsg_len > MNL_NLMSG_HDRLEN)
    tlv_offset += err.msg.nlmsg_len - MNL_NLMSG_HDRLEN;
  return FromErrno(err.error, ExtAckMessage(message, tlv_offset));
}

Status ParseDone(Bytes message) {
  if (message.size() < MNL_NLMSG_HDRLEN + sizeof(int)) return Ok();
  int error;
  std::memcpy(&error, message.data() + MNL_NLMSG_HDRLEN, sizeof(error));
  if (error == 0) return Ok();
  return FromErrno(error, ExtAckMessage(message, sizeof(error)));
}

}  // namespace rue::nl
