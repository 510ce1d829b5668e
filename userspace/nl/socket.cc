// SPDX-License-Identifier: GPL-2.0
#include "nl/socket.h"

#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include <cerrno>

namespace rue::nl {
namespace {

// Best effort: kernels without these options still work, with plainer
// errors and longer ACKs.
void EnableOption(mnl_socket* socket, int option) {
  int on = 1;
  (void)mnl_socket_setsockopt(socket, option, &on, sizeof(on));
}

}  // namespace

void Socket::Closer::operator()(mnl_socket* socket) const {
  mnl_socket_close(socket);
}

Result<Socket> Socket::Open(int bus) {
  mnl_socket* raw = mnl_socket_open(bus);
  if (!raw) return SystemError("netlink socket");
  Socket socket(raw);
  EnableOption(raw, NETLINK_EXT_ACK);
  EnableOption(raw, NETLINK_CAP_ACK);
  if (mnl_socket_bind(raw, 0, MNL_SOCKET_AUTOPID) < 0)
    return SystemError("netlink bind");
  return socket;
}

uint32_t Socket::port_id() const {
  return mnl_socket_get_portid(socket_.get());
}

Status Socket::Send(Bytes message) const {
  ssize_t sent =
      mnl_socket_sendto(socket_.get(), message.data(), message.size());
  if (sent < 0) return SystemError("netlink send");
  return Ok();
}

Result<Bytes> Socket::Receive(std::span<std::byte> buffer) const {
  ssize_t got;
  do {
    got = mnl_socket_recvfrom(socket_.get(), buffer.data(), buffer.size());
  } while (got < 0 && errno == EINTR);
  if (got < 0) return SystemError("netlink receive");
  return Bytes(buffer.data(), static_cast<size_t>(got));
}

}  // namespace rue::nl
