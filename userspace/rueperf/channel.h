// SPDX-License-Identifier: GPL-2.0
//
// The exchange's TCP connection: the server accepts one client, the
// client connects to HOST:PORT; whole frames (exchange.h) go each way.
#ifndef RUE_RUEPERF_CHANNEL_H_
#define RUE_RUEPERF_CHANNEL_H_

#include <cstdint>
#include <optional>
#include <string>

#include "rueperf/exchange.h"

namespace rue::perf {

class Channel {
 public:
  Channel() = default;
  ~Channel();
  Channel(Channel&& other) noexcept;
  Channel& operator=(Channel&&) = delete;
  Channel(const Channel&) = delete;

  // The first client on @port (IPv6 and IPv4).
  static std::optional<Channel> Accept(uint16_t port, std::string* error);
  static std::optional<Channel> Connect(const std::string& host, uint16_t port,
                                        std::string* error);

  // "" or why not.
  std::string Send(const Message& message);
  // Blocks until a whole message arrives.
  DecodeResult Receive();
  // Whether a message (or end of stream) is waiting, without blocking.
  bool Readable() const;

 private:
  explicit Channel(int fd) : fd_(fd) {}
  std::string ReadFull(void* buf, size_t len);

  int fd_ = -1;
};

}  // namespace rue::perf

#endif  // RUE_RUEPERF_CHANNEL_H_
