// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A peer that exists only on the wire, as the threat model's remote
// sender: RoCEv2 packets built by the wire library and sent from the
// peer's address through a raw IPv4 socket (any bytes, any PSN, any key),
// and what the target sends back, captured with libpcap on the peer's
// netdev and parsed by the wire library.  The program must run in the
// peer's network namespace: the raw socket routes, and the capture
// listens, there.
#ifndef RUE_TESTS_FORGED_PEER_H_
#define RUE_TESTS_FORGED_PEER_H_

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/ip.h"
#include "rue/wire/roce_packet.h"

namespace rue::test {

// One packet the target sent to the peer.
struct Answer {
  wire::RoceHeaders headers;
  std::vector<uint8_t> payload;

  uint8_t opcode() const { return headers.bth.opcode; }
  uint32_t psn() const { return headers.bth.psn; }
};

std::string AnswerString(const Answer& a);

class ForgedPeer {
 public:
  ~ForgedPeer();
  ForgedPeer(const ForgedPeer&) = delete;
  ForgedPeer& operator=(const ForgedPeer&) = delete;

  // Sends as @peer_ip to @target_ip and captures on @ifname what
  // @target_ip sends to UDP port 4791; an explanation when it cannot.
  // The capture keeps what arrives between two reads in a ring of
  // @ring_bytes (0: libpcap's default, a few hundred packets).
  static std::optional<std::string> Open(const std::string& peer_ip,
                                         const std::string& target_ip,
                                         const std::string& ifname,
                                         std::unique_ptr<ForgedPeer>* out,
                                         int ring_bytes = 0);

  // Sends one packet: @headers as given (pad count and ICRC computed),
  // then @payload.
  ::testing::AssertionResult Send(const wire::RoceHeaders& headers,
                                  std::span<const uint8_t> payload = {});
  // The same, after @mutate changed the bytes from the BTH to the end of
  // the payload; the ICRC is computed afterwards, so the packet passes
  // the ICRC check whatever the bytes say.
  ::testing::AssertionResult SendMutated(
      const wire::RoceHeaders& headers, std::span<const uint8_t> payload,
      const std::function<void(std::span<std::byte>)>& mutate);

  // What the target sent to the QP numbered @dest_qp so far.
  std::vector<Answer> AnswersTo(uint32_t dest_qp);
  // Waits until @enough holds for AnswersTo(@dest_qp), at most @timeout.
  ::testing::AssertionResult WaitAnswers(
      uint32_t dest_qp,
      const std::function<bool(const std::vector<Answer>&)>& enough,
      std::chrono::milliseconds timeout);
  // Waits until @n answers to @dest_qp came.
  ::testing::AssertionResult WaitCount(uint32_t dest_qp, size_t n,
                                       std::chrono::milliseconds timeout);

 private:
  ForgedPeer() = default;
  // Reads what the capture holds, waiting up to @wait for the first.
  void Drain(std::chrono::milliseconds wait);
  static void OnPacket(u_char* self, const pcap_pkthdr* h, const u_char* data);

  wire::Ipv4Address peer_{};
  wire::Ipv4Address target_{};
  int fd_ = -1;
  pcap_t* pcap_ = nullptr;
  std::vector<Answer> answers_;
  size_t unparsed_ = 0;  // captured packets the wire library refused
};

// The netdev a device's GID @index belongs to (its sysfs gid_attrs).
std::optional<std::string> GidNetdev(const std::string& dev, int index);

}  // namespace rue::test

#endif  // RUE_TESTS_FORGED_PEER_H_
