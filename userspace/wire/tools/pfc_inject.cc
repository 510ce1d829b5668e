// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// pfc_inject: send IEEE 802.1Qbb PFC frames, possibly malformed, on an
// interface, for the guest selftests of rue's priority flow control.  The
// frame is built once (pfc_inject_frame.h) and sent --count times,
// --interval-us apart; with --fuzz, --count random frames (pfc_fuzz.h).
//
// socket(AF_PACKET, SOCK_RAW, 0) sends the frame exactly as given, link
// header included (packet(7)); protocol 0 means the socket receives
// nothing.  The kernel pads nothing and adds no FCS on veth, so a
// --truncate'd frame arrives short, which a real NIC would pad.
#include <net/if.h>
#include <net/if_arp.h>
#include <netpacket/packet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/ethernet.h"
#include "tools/inject_common.h"
#include "tools/pfc_fuzz.h"
#include "tools/pfc_inject_frame.h"
#include "tools/pfc_inject_options.h"

namespace rue::pfc_inject {
namespace {

using inject::ErrnoText;

constexpr char kName[] = "pfc_inject";
constexpr int kExitOk = 0;
constexpr int kExitRuntimeError = 1;
constexpr int kExitUsage = 2;
constexpr long kNsPerSecond = 1000000000;

struct Interface {
  int index = 0;
  wire::MacAddress mac{};
};

// strerror(), the errno name, and what it usually means here.
std::string Reason(int err) {
  const std::string text = ErrnoText(err);
  switch (err) {
    case EPERM:
    case EACCES:
      return text + ": needs CAP_NET_RAW (run as root)";
    case ENETDOWN:
    case ENXIO:
      return text + ": is the interface up?";
    case EMSGSIZE:
      return text + ": longer than the interface's MTU allows";
  }
  return text;
}

// The interface's index and MAC address, asked through fd.
bool LookUpWith(int fd, const std::string& name, Interface* out,
                std::string* error) {
  ifreq ifr{};
  std::memcpy(ifr.ifr_name, name.c_str(), name.size() + 1);  // < IFNAMSIZ
  if (ioctl(fd, SIOCGIFINDEX, &ifr) != 0) {
    *error = errno == ENODEV ? "no such interface '" + name + "'"
                             : "SIOCGIFINDEX " + name + ": " + ErrnoText(errno);
    return false;
  }
  out->index = ifr.ifr_ifindex;
  if (ioctl(fd, SIOCGIFHWADDR, &ifr) != 0) {
    *error = "SIOCGIFHWADDR " + name + ": " + ErrnoText(errno);
    return false;
  }
  // Loopback takes Ethernet headers too (with an all-zero address).
  const unsigned short type = ifr.ifr_hwaddr.sa_family;
  if (type != ARPHRD_ETHER && type != ARPHRD_LOOPBACK) {
    *error = name + " is not an Ethernet interface (ARPHRD type " +
             std::to_string(type) + ")";
    return false;
  }
  std::memcpy(out->mac.data(), ifr.ifr_hwaddr.sa_data, out->mac.size());
  return true;
}

// Both ioctls work on any socket and need no privilege, so a --dry-run
// does not either.
bool LookUp(const std::string& name, Interface* out, std::string* error) {
  const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = "socket(AF_INET, SOCK_DGRAM): " + ErrnoText(errno);
    return false;
  }
  const bool ok = LookUpWith(fd, name, out, error);
  close(fd);
  return ok;
}

void AddMicroseconds(timespec* t, uint32_t us) {
  const long ns = t->tv_nsec + static_cast<long>(us % 1000000) * 1000;
  t->tv_sec += static_cast<time_t>(us / 1000000) + ns / kNsPerSecond;
  t->tv_nsec = ns % kNsPerSecond;
}

// Absolute deadlines: frame i leaves at start + i * interval however long
// the sends take, so a refresh loop keeps its period instead of drifting.
void SleepUntil(const timespec& deadline) {
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline,
                         nullptr) == EINTR) {
  }
}

// Sends options.count frames, frame_at(i) the i-th; false with *error on
// the first failure.  In a loop (more than one frame) a frame the stack
// drops for want of room (ENOBUFS: a full backlog behind a veth, a full
// qdisc) is counted in *dropped and the loop goes on, as a link
// partner's next refresh would; a lone frame, or a loop that loses every
// frame, fails.  on_sent(frame) sees each frame that left.
bool SendAll(
    const Options& options, const Interface& iface,
    const std::function<std::span<const std::byte>(uint32_t)>& frame_at,
    const std::function<void(std::span<const std::byte>)>& on_sent,
    uint32_t* dropped, std::string* error) {
  *dropped = 0;
  const int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = "socket(AF_PACKET, SOCK_RAW): " + Reason(errno);
    return false;
  }
  sockaddr_ll to{};
  to.sll_family = AF_PACKET;
  to.sll_ifindex = iface.index;
  timespec next{};
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (uint32_t i = 0; i < options.count; ++i) {
    if (i != 0 && options.interval_us != 0) {
      AddMicroseconds(&next, options.interval_us);
      SleepUntil(next);
    }
    const std::span<const std::byte> frame = frame_at(i);
    const ssize_t sent =
        sendto(fd, frame.data(), frame.size(), 0,
               reinterpret_cast<const sockaddr*>(&to), sizeof(to));
    if (sent < 0 && errno == ENOBUFS && options.count > 1) {
      ++*dropped;
      continue;
    }
    if (sent != static_cast<ssize_t>(frame.size())) {
      *error = "sendto " + options.interface + ": " +
               (sent < 0 ? Reason(errno) : "short write") + " (after " +
               std::to_string(i) + " of " + std::to_string(options.count) +
               " frames)";
      close(fd);
      return false;
    }
    on_sent(frame);
  }
  close(fd);
  if (*dropped == options.count) {
    *error = "sendto " + options.interface + ": " + Reason(ENOBUFS) +
             " for all " + std::to_string(options.count) + " frames";
    return false;
  }
  return true;
}

std::string Summary(const Options& options, const wire::MacAddress& src,
                    std::size_t size, uint32_t dropped) {
  std::string text = "sent " + std::to_string(options.count - dropped) +
                     (options.count - dropped == 1 ? " frame" : " frames") +
                     " of " + std::to_string(size) + " bytes on " +
                     options.interface;
  if (dropped != 0)
    text += " (" + std::to_string(dropped) + " of " +
            std::to_string(options.count) + " dropped by the stack: ENOBUFS)";
  if (!options.raw_hex) text += " from " + MacText(src);
  return text + ": " + Describe(options);
}

// --fuzz: options.count random frames, then what the receiver should
// count for those that left ("expect ...", pfc_fuzz.h); with --dry-run
// each frame in hex instead of sending it.
int Fuzz(const Options& options, const Interface& iface,
         const wire::MacAddress& src, std::ostream& out, std::ostream& err) {
  std::mt19937_64 rng(*options.fuzz_seed);
  const Receiver rx{*options.receiver_mac,
                    static_cast<uint8_t>(options.receiver_pfc)};
  Expected expected;
  std::vector<std::byte> frame;
  auto next = [&](uint32_t) {
    frame = FuzzFrame(rng, src, rx.mac);
    return std::span<const std::byte>(frame);
  };
  auto count = [&](std::span<const std::byte> f) { Count(f, rx, &expected); };
  uint32_t dropped = 0;
  if (options.dry_run) {
    for (uint32_t i = 0; i < options.count; ++i) {
      count(next(i));
      out << inject::HexString(frame) << "\n";
    }
  } else {
    std::string error;
    if (!SendAll(options, iface, next, count, &dropped, &error)) {
      err << kName << ": " << error << "\n";
      return kExitRuntimeError;
    }
    out << "sent " << options.count - dropped << " random frames (seed "
        << *options.fuzz_seed << ", " << dropped << " dropped by the stack) on "
        << options.interface << "\n";
  }
  out << "expect " << ExpectedText(expected) << "\n";
  return kExitOk;
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
  Interface iface;
  if (!options->interface.empty() &&
      !LookUp(options->interface, &iface, &error)) {
    err << kName << ": " << error << "\n";
    return kExitRuntimeError;
  }
  const wire::MacAddress src = options->src_mac.value_or(iface.mac);
  if (options->fuzz_seed) return Fuzz(*options, iface, src, out, err);
  const std::vector<std::byte> frame = BuildFrame(*options, src);
  if (options->dry_run) {
    out << inject::HexString(frame) << "\n";
    return kExitOk;
  }
  uint32_t dropped = 0;
  if (!SendAll(
          *options, iface, [&](uint32_t) { return std::span(frame); },
          [](std::span<const std::byte>) {}, &dropped, &error)) {
    err << kName << ": " << error << "\n";
    return kExitRuntimeError;
  }
  out << Summary(*options, src, frame.size(), dropped) << "\n";
  return kExitOk;
}

}  // namespace
}  // namespace rue::pfc_inject

int main(int argc, char* argv[]) {
  return rue::pfc_inject::Run(argc, argv, std::cout, std::cerr);
}
