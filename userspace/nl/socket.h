// SPDX-License-Identifier: GPL-2.0
//
// Socket: an open, bound netlink socket (libmnl's struct mnl_socket),
// closed when the object goes away.  Extended ACKs are turned on, and
// ACKs are capped (the kernel does not echo the request back).
#ifndef RUE_NL_SOCKET_H_
#define RUE_NL_SOCKET_H_

#include <cstdint>
#include <memory>
#include <span>

#include "nl/attr.h"
#include "nl/result.h"

struct mnl_socket;

namespace rue::nl {

class Socket {
 public:
  // A socket on netlink bus `bus` (NETLINK_GENERIC, ...).
  static Result<Socket> Open(int bus);

  uint32_t port_id() const;
  Status Send(Bytes message) const;
  // Receives one datagram into `buffer`; returns the part it filled.
  // ENOSPC if the datagram did not fit.
  Result<Bytes> Receive(std::span<std::byte> buffer) const;

 private:
  struct Closer {
    void operator()(mnl_socket* socket) const;
  };

  explicit Socket(mnl_socket* socket) : socket_(socket) {}

  std::unique_ptr<mnl_socket, Closer> socket_;
};

}  // namespace rue::nl

#endif  // RUE_NL_SOCKET_H_
