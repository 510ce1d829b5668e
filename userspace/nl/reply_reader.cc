// SPDX-License-Identifier: GPL-2.0
#include "nl/reply_reader.h"

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include <cerrno>

#include "nl/ack.h"

namespace rue::nl {
namespace {

Bytes MessageOf(const nlmsghdr* nlh) {
  return Bytes(reinterpret_cast<const std::byte*>(nlh), nlh->nlmsg_len);
}

int OnNoop(const nlmsghdr*, void*) { return MNL_CB_OK; }

// What libmnl itself refused, from the errno it left.
Error LoopError(int code) {
  switch (code) {
    case EPROTO:
      return Error{code, "netlink reply with an unexpected sequence number"};
    case ESRCH:
      return Error{code, "netlink reply for another port"};
    case EINTR:
      return Error{code, "dump interrupted by a concurrent change; retry"};
    default:
      return Error{code, ""};
  }
}

}  // namespace

ReplyReader::ReplyReader(uint32_t seq, uint32_t port_id, MessageHandler handler)
    : seq_(seq), port_id_(port_id), handler_(std::move(handler)) {}

bool ReplyReader::Feed(Bytes buffer) {
  if (done_) return true;
  mnl_cb_t control[NLMSG_MIN_TYPE] = {
      nullptr, OnNoop, &ReplyReader::OnError, &ReplyReader::OnDone, OnNoop,
  };
  int ret = mnl_cb_run2(buffer.data(), buffer.size(), seq_, port_id_,
                        &ReplyReader::OnData, this, control, NLMSG_MIN_TYPE);
  if (ret == MNL_CB_ERROR && !done_) {
    Fail(LoopError(errno));
    done_ = true;
  }
  if (ret == MNL_CB_STOP) done_ = true;
  return done_;
}

Status ReplyReader::status() const {
  if (error_) return *error_;
  return Ok();
}

int ReplyReader::OnData(const nlmsghdr* nlh, void* self) {
  auto* reader = static_cast<ReplyReader*>(self);
  if (reader->error_) return MNL_CB_OK;  // drain after a handler error
  Status status = reader->handler_(MessageOf(nlh));
  if (!status.ok()) reader->Fail(status.error());
  return MNL_CB_OK;
}

int ReplyReader::OnError(const nlmsghdr* nlh, void* self) {
  return static_cast<ReplyReader*>(self)->Finish(ParseAck(MessageOf(nlh)));
}

int ReplyReader::OnDone(const nlmsghdr* nlh, void* self) {
  return static_cast<ReplyReader*>(self)->Finish(ParseDone(MessageOf(nlh)));
}

int ReplyReader::Finish(Status verdict) {
  if (!verdict.ok()) Fail(verdict.error());
  done_ = true;
  return MNL_CB_STOP;
}

void ReplyReader::Fail(Error error) {
  if (!error_) error_ = std::move(error);
}

}  // namespace rue::nl
