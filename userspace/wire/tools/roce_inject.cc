// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// roce_inject: send hand-made, possibly malformed, RoCEv2 packets over
// IPv4 through a raw socket, for the guest selftests.  The packet is
// built once (roce_inject_packet.h) and sent --count times.
//
// socket(AF_INET, SOCK_RAW, IPPROTO_RAW) implies IP_HDRINCL: the kernel
// sends our IPv4 header as it is, except that it rewrites the total length
// (to the same value) and the header checksum (which the ICRC masks), and
// that it would fill in a zero ID, were DF not set (raw(7)).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "rue/wire/result.h"
#include "tools/inject_common.h"
#include "tools/roce_inject_options.h"
#include "tools/roce_inject_packet.h"

namespace rue::inject {
namespace {

constexpr char kName[] = "roce_inject";
constexpr int kExitOk = 0;
constexpr int kExitSendError = 1;
constexpr int kExitUsage = 2;

std::string AddressText(const wire::Ipv4Address& addr) {
  return std::to_string(addr[0]) + "." + std::to_string(addr[1]) + "." +
         std::to_string(addr[2]) + "." + std::to_string(addr[3]);
}

// strerror(), the errno name, and what it usually means here.
std::string Reason(int err) {
  const std::string text = ErrnoText(err);
  switch (err) {
    case EPERM:
    case EACCES:
      return text + ": needs CAP_NET_RAW (run as root)";
    case EMSGSIZE:
      return text + ": larger than the route's MTU, and DF is set";
    case ENETUNREACH:
    case EHOSTUNREACH:
      return text + ": no route to the destination";
  }
  return text;
}

// Sends the packet options.count times; false with *error on the first
// failure.
bool SendAll(const Options& options, std::span<const std::byte> packet,
             std::string* error) {
  const int fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
  if (fd < 0) {
    *error = "socket(AF_INET, SOCK_RAW, IPPROTO_RAW): " + Reason(errno);
    return false;
  }
  sockaddr_in to{};
  to.sin_family = AF_INET;
  std::memcpy(&to.sin_addr.s_addr, options.dst.data(), options.dst.size());
  for (uint32_t i = 0; i < options.count; ++i) {
    if (i != 0 && options.interval_us != 0) {
      std::this_thread::sleep_for(
          std::chrono::microseconds(options.interval_us));
    }
    const ssize_t sent =
        sendto(fd, packet.data(), packet.size(), 0,
               reinterpret_cast<const sockaddr*>(&to), sizeof(to));
    if (sent != static_cast<ssize_t>(packet.size())) {
      *error = "sendto " + AddressText(options.dst) + ": " +
               (sent < 0 ? Reason(errno) : "short write") + " (after " +
               std::to_string(i) + " of " + std::to_string(options.count) +
               " packets)";
      close(fd);
      return false;
    }
  }
  close(fd);
  return true;
}

int Run(int argc, char* argv[], std::ostream& out, std::ostream& err) {
  std::string error;
  const std::optional<Options> options = ParseOptions(argc, argv, &error);
  if (!options) {
    err << kName << ": " << error << "; try '" << kName << " --help'\n";
    return kExitUsage;
  }
  if (options->help) {
    out << Usage();
    return kExitOk;
  }
  wire::Result<std::vector<std::byte>> packet = BuildPacket(*options);
  if (!packet.ok()) {
    err << kName << ": " << packet.message() << "\n";
    return kExitUsage;
  }
  if (options->dry_run) {
    out << HexString(*packet) << "\n";
    return kExitOk;
  }
  if (!SendAll(*options, *packet, &error)) {
    err << kName << ": " << error << "\n";
    return kExitSendError;
  }
  out << "sent " << options->count << " packets of " << packet->size()
      << " bytes to " << AddressText(options->dst) << "\n";
  return kExitOk;
}

}  // namespace
}  // namespace rue::inject

int main(int argc, char* argv[]) {
  return rue::inject::Run(argc, argv, std::cout, std::cerr);
}
