// SPDX-License-Identifier: GPL-2.0
#include "nl/test_messages.h"

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cstring>

namespace rue::nl::testing {
namespace {

constexpr uint32_t kEchoedPayload = 20;

uint16_t ExtAckFlags(std::string_view extack) {
  return extack.empty() ? 0 : NLM_F_ACK_TLVS;
}

}  // namespace

MessageBuilder MakeAck(int error, uint32_t seq, std::string_view extack,
                       bool echo) {
  uint16_t flags = ExtAckFlags(extack) | (echo ? 0 : NLM_F_CAPPED);
  MessageBuilder ack(NLMSG_ERROR, flags);
  ack.header()->nlmsg_seq = seq;
  auto* err = static_cast<nlmsgerr*>(
      ack.PutExtraHeader(sizeof(nlmsgerr) + (echo ? kEchoedPayload : 0)));
  err->error = error;
  err->msg.nlmsg_len = MNL_NLMSG_HDRLEN + (echo ? kEchoedPayload : 0);
  err->msg.nlmsg_seq = seq;
  if (!extack.empty()) ack.PutString(NLMSGERR_ATTR_MSG, extack);
  return ack;
}

MessageBuilder MakeDone(int error, uint32_t seq, std::string_view extack) {
  MessageBuilder done(NLMSG_DONE, NLM_F_MULTI | ExtAckFlags(extack));
  done.header()->nlmsg_seq = seq;
  *done.PutExtraHeader<int>() = error;
  if (!extack.empty()) done.PutString(NLMSGERR_ATTR_MSG, extack);
  return done;
}

MessageBuilder MakeGenl(uint16_t family, uint8_t cmd, uint32_t seq,
                        uint16_t flags) {
  MessageBuilder message(family, flags);
  message.header()->nlmsg_seq = seq;
  auto* genl = message.PutExtraHeader<genlmsghdr>();
  genl->cmd = cmd;
  genl->version = 1;
  return message;
}

std::vector<std::byte> Concat(std::initializer_list<Bytes> messages) {
  std::vector<std::byte> buffer;
  for (Bytes message : messages) {
    buffer.insert(buffer.end(), message.begin(), message.end());
    buffer.resize(MNL_ALIGN(buffer.size()));
  }
  return buffer;
}

std::vector<std::byte> Copy(Bytes message) {
  return std::vector<std::byte>(message.begin(), message.end());
}

}  // namespace rue::nl::testing
