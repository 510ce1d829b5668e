// SPDX-License-Identifier: GPL-2.0
#include "rueperf/channel.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace rue::perf {
namespace {

std::string Errno(const std::string& what) {
  return what + ": " + strerror(errno);
}

void NoDelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

}  // namespace

Channel::~Channel() {
  if (fd_ >= 0) close(fd_);
}

Channel::Channel(Channel&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

std::optional<Channel> Channel::Accept(uint16_t port, std::string* error) {
  int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = Errno("socket");
    return std::nullopt;
  }
  int one = 1, zero = 0;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_addr = in6addr_any;
  addr.sin6_port = htons(port);
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) ||
      listen(fd, 1)) {
    *error = Errno("TCP port " + std::to_string(port));
    close(fd);
    return std::nullopt;
  }
  int conn = accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
  int saved = errno;
  close(fd);
  if (conn < 0) {
    errno = saved;
    *error = Errno("accept");
    return std::nullopt;
  }
  NoDelay(conn);
  return Channel(conn);
}

std::optional<Channel> Channel::Connect(const std::string& host, uint16_t port,
                                        std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  int ret = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints,
                        &res);
  if (ret) {
    *error = host + ": " + gai_strerror(ret);
    return std::nullopt;
  }
  *error = host + ": no address";
  int fd = -1;
  for (addrinfo* ai = res; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
    *error = Errno("connect to " + host + " port " + std::to_string(port));
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd < 0) return std::nullopt;
  error->clear();
  NoDelay(fd);
  return Channel(fd);
}

std::string Channel::Send(const Message& message) {
  std::vector<std::byte> frame = Encode(message);
  if (frame.empty()) return "cannot encode the message";
  size_t off = 0;
  while (off < frame.size()) {
    ssize_t n = send(fd_, frame.data() + off, frame.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Errno("exchange send");
    off += static_cast<size_t>(n);
  }
  return "";
}

std::string Channel::ReadFull(void* buf, size_t len) {
  auto* p = static_cast<uint8_t*>(buf);
  while (len) {
    ssize_t n = recv(fd_, p, len, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("exchange receive");
    if (n == 0) return "the peer closed the exchange connection";
    p += n;
    len -= static_cast<size_t>(n);
  }
  return "";
}

DecodeResult Channel::Receive() {
  std::vector<std::byte> frame(kHeaderSize);
  std::string err = ReadFull(frame.data(), kHeaderSize);
  if (!err.empty()) return {std::nullopt, err};
  HeaderResult h = DecodeHeader(frame);
  if (!h.body_length) return {std::nullopt, h.error};
  frame.resize(kHeaderSize + *h.body_length);
  err = ReadFull(frame.data() + kHeaderSize, *h.body_length);
  if (!err.empty()) return {std::nullopt, err};
  return Decode(frame);
}

bool Channel::Readable() const {
  pollfd p{fd_, POLLIN, 0};
  return poll(&p, 1, 0) > 0;
}

}  // namespace rue::perf
