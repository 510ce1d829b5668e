// SPDX-License-Identifier: GPL-2.0
#include "nl/genl_socket.h"

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <cerrno>
#include <ctime>
#include <optional>
#include <string>

#include "nl/reply_reader.h"

namespace rue::nl {
namespace {

// The kernel sizes dump datagrams to the reader's buffer, up to 32 KiB.
constexpr size_t kReceiveBufferSize = 32768;

constexpr uint8_t kCtrlVersion = 2;

}  // namespace

Result<GenlSocket> GenlSocket::Open() {
  Result<Socket> socket = Socket::Open(NETLINK_GENERIC);
  if (!socket.ok()) return socket.error();
  return GenlSocket(std::move(socket).value());
}

GenlSocket::GenlSocket(Socket socket)
    : socket_(std::move(socket)),
      next_seq_(static_cast<uint32_t>(std::time(nullptr))),
      buffer_(kReceiveBufferSize) {}

Result<Family> GenlSocket::ResolveFamily(std::string_view name) {
  MessageBuilder request =
      GenlRequest(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, kCtrlVersion);
  request.PutString(CTRL_ATTR_FAMILY_NAME, name);
  std::optional<Family> found;
  Status status = Do(request, [&found](const GenlMessage& reply) -> Status {
    Result<Family> family = ParseFamily(reply.attrs);
    if (!family.ok()) return family.error();
    found = std::move(family).value();
    return Ok();
  });
  if (!status.ok() && status.error().code == ENOENT)
    return Error{ENOENT, "generic netlink family \"" + std::string(name) +
                             "\" not found"};
  if (!status.ok()) return status.error();
  if (!found) return Error{EPROTO, "no reply to CTRL_CMD_GETFAMILY"};
  return *std::move(found);
}

Status GenlSocket::Do(MessageBuilder& request, const GenlHandler& on_reply) {
  request.header()->nlmsg_flags |= NLM_F_ACK;
  return Exchange(request, on_reply);
}

Status GenlSocket::Dump(MessageBuilder& request,
                        const GenlHandler& on_message) {
  request.header()->nlmsg_flags |= NLM_F_DUMP;
  return Exchange(request, on_message);
}

Status GenlSocket::Exchange(MessageBuilder& request,
                            const GenlHandler& handler) {
  if (!request.ok()) return Error{EMSGSIZE, "netlink request too large"};
  nlmsghdr* nlh = request.header();
  nlh->nlmsg_seq = next_seq_++;
  uint16_t family = nlh->nlmsg_type;
  ReplyReader reader(
      nlh->nlmsg_seq, socket_.port_id(), [&](Bytes message) -> Status {
        Result<GenlMessage> genl = ParseGenl(message);
        if (!genl.ok()) return genl.error();
        if (genl->family != family)
          return Error{EPROTO, "reply from another netlink family"};
        return handler(*genl);
      });
  Status sent = socket_.Send(request.bytes());
  if (!sent.ok()) return sent;
  while (!reader.done()) {
    Result<Bytes> received = socket_.Receive(buffer_);
    if (!received.ok()) return received.error();
    reader.Feed(*received);
  }
  return reader.status();
}

}  // namespace rue::nl
