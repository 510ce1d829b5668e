// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// A UET initiator that exists only on the wire, as the threat model's
// remote sender: PDS and SES headers built by the wire library, sent
// from the peer's address to the target's UDP port 4793 through a UDP
// socket (any header values, any PDCID, PSN, job or length), and what
// the target sends back, captured with libpcap on the peer's netdev and
// parsed by the wire library.  Like ForgedPeer it runs in the peer's
// network namespace.
#ifndef RUE_TESTS_FORGED_UET_PEER_H_
#define RUE_TESTS_FORGED_UET_PEER_H_

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/uet_packet.h"

namespace rue::test {

// One packet the target sent to the peer.
struct UetAnswer {
  wire::UetHeaders headers;
  std::vector<uint8_t> payload;

  uint8_t type() const { return headers.prologue().type; }
  bool is(wire::PdsType t) const {
    return type() == static_cast<uint8_t>(t);
  }
  // The PDC it is for (the peer's PDCID), for ACKs and NACKs; else -1.
  int dpdcid() const;
};

std::string UetAnswerString(const UetAnswer& a);

class ForgedUetPeer {
 public:
  ~ForgedUetPeer();
  ForgedUetPeer(const ForgedUetPeer&) = delete;
  ForgedUetPeer& operator=(const ForgedUetPeer&) = delete;

  // Sends from @peer_ip to @target_ip, UDP port 4793, and captures on
  // @ifname what @target_ip sends to that port; an explanation when it
  // cannot.
  static std::optional<std::string> Open(const std::string& peer_ip,
                                         const std::string& target_ip,
                                         const std::string& ifname,
                                         std::unique_ptr<ForgedUetPeer>* out);

  // Sends one packet: @headers, then @payload.
  ::testing::AssertionResult Send(const wire::UetHeaders& headers,
                                  std::span<const uint8_t> payload = {});
  // The same, after @mutate changed the datagram's bytes.
  ::testing::AssertionResult SendMutated(
      const wire::UetHeaders& headers, std::span<const uint8_t> payload,
      const std::function<void(std::span<std::byte>)>& mutate);

  // Everything the target sent so far.
  std::vector<UetAnswer> Answers();
  // Waits until @enough holds for Answers(), at most @timeout.
  ::testing::AssertionResult WaitAnswers(
      const std::function<bool(const std::vector<UetAnswer>&)>& enough,
      std::chrono::milliseconds timeout);

 private:
  ForgedUetPeer() = default;
  void Drain(std::chrono::milliseconds wait);
  static void OnPacket(u_char* self, const pcap_pkthdr* h, const u_char* data);

  int fd_ = -1;
  std::string target_ip_;
  pcap_t* pcap_ = nullptr;
  std::vector<UetAnswer> answers_;
  size_t unparsed_ = 0;  // captured packets the wire library refused
};

// A RUD request: PDS header (SYN with @psn_off as pdc_info|psn_offset,
// else @dpdcid) and a standard SES header for @ses; AR set.
wire::UetHeaders RudRequest(uint16_t spdcid, uint32_t psn, bool syn,
                            uint16_t dpdcid_or_psn_off,
                            const wire::SesRequest& ses);
// A UUD request: the 4-byte PDS header and a standard SES header.
wire::UetHeaders UudRequest(const wire::SesRequest& ses);

}  // namespace rue::test

#endif  // RUE_TESTS_FORGED_UET_PEER_H_
