// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Reading a capture file (pcap or pcapng) with libpcap.
#ifndef RUE_RUEDUMP_CAPTURE_H_
#define RUE_RUEDUMP_CAPTURE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "ruedump/packet.h"

struct pcap;

namespace rue::dump {

class Capture {
 public:
  enum class Status : uint8_t { kPacket, kEnd, kError };

  // Opens `path`; "-" reads standard input.  On failure returns null and
  // sets *error to libpcap's message.
  static std::unique_ptr<Capture> Open(const std::string& path,
                                       std::string* error);

  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  ~Capture();

  // The file's link type, as a DLT_ value.
  int datalink() const;

  // Reads the next packet.  Its bytes stay valid until the next call.  On
  // kError (e.g. a file cut short in a record), *error says why.
  Status Next(Packet* packet, std::string* error);

 private:
  explicit Capture(pcap* handle) : handle_(handle) {}

  pcap* handle_;
  uint64_t count_ = 0;
};

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_CAPTURE_H_
