// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fixture of the hostile-input tests (rue_hostile_test): an RC QP on
// device A, the target, connected to a peer that exists only on the wire
// (ForgedPeer) at device B's IPv4 address.  The tests send what a remote
// attacker can - any opcode, PSN, key or address - and check the target's
// answers on the wire, its completions, its memory and its counters.
#ifndef RUE_TESTS_HOSTILE_H_
#define RUE_TESTS_HOSTILE_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rue/wire/roce_opcode.h"
#include "tests/conn.h"
#include "tests/forged_peer.h"

namespace rue::test {

// A counter of a device's port 1 (sysfs hw_counters), or -1; from any
// network namespace.
int64_t HwCounter(const Device& dev, const std::string& name);

// Waits until counter @name of @dev reached @want.
::testing::AssertionResult CounterReaches(
    const Device& dev, const std::string& name, int64_t want,
    milliseconds timeout = milliseconds(3000));

// @n bytes of @value.
std::vector<uint8_t> Bytes(size_t n, uint8_t value);

// An answer is a NAK with @code for @psn.
bool IsNak(const Answer& a, uint32_t psn, wire::NakCode code);
bool IsAck(const Answer& a, uint32_t psn);

// A QPN for a forged peer that no other QP's peer has.
uint32_t NextPeerQpn();

// @n signaled SENDs of 64 bytes each from @r (the i-th at 64 * i),
// wr_ids @wr_id on, chained for one ibv_post_send() of wrs.data(): the
// kernel sends them in one run.
struct SendChain {
  std::vector<ibv_sge> sges;
  std::vector<ibv_send_wr> wrs;
};
void ChainSends(const Region& r, uint64_t wr_id, uint32_t n, SendChain* out);

// The PSN the target expects first from its peer.
inline constexpr uint32_t kPeerPsn = 0x100;

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override;

  // Creates the target (in RESET).
  void CreateTarget(const QpOptions& opts);
  // ... and connects it to the forged peer: RTS, expecting kPeerPsn.
  void ConnectTarget();

  // A request to the target at @psn: the BTH, the extension headers @op
  // calls for (zero; the test fills them in).
  wire::RoceHeaders Request(wire::Opcode op, uint32_t psn,
                            bool ack_req = false) const;
  // Response @i of the @n answering a READ whose request carried @psn:
  // FIRST, MIDDLE, LAST (or ONLY), an ACK with MSN @msn where it has one.
  wire::RoceHeaders ReadResponse(uint32_t psn, uint32_t i, uint32_t n,
                                 uint32_t msn) const;
  // Sends @h from the peer; a fatal failure if it cannot.
  void Inject(const wire::RoceHeaders& h,
              std::span<const uint8_t> payload = {});
  // What the target sent the peer so far.
  std::vector<Answer> Answers() { return peer_->AnswersTo(peer_qpn_); }
  ::testing::AssertionResult WaitFor(
      const std::function<bool(const std::vector<Answer>&)>& enough,
      milliseconds timeout = milliseconds(3000)) {
    return peer_->WaitAnswers(peer_qpn_, enough, timeout);
  }
  // Waits for an answer that @match accepts.
  ::testing::AssertionResult WaitAnswer(
      const std::function<bool(const Answer&)>& match,
      milliseconds timeout = milliseconds(3000));

  int64_t Counter(const std::string& name) const {
    return HwCounter(*dev_, name);
  }

  Device* dev_ = nullptr;  // the target's
  Endpoint target_ep_;
  Side t_;  // the target
  std::unique_ptr<ForgedPeer> peer_;
  std::string peer_ifname_;  // the peer's netdev, where it captures
  ibv_gid peer_gid_{};
  uint32_t peer_qpn_ = 0;  // a QPN no one has: answers go nowhere
  uint32_t mtu_ = 0;       // the target's path MTU, bytes
};

}  // namespace rue::test

#endif  // RUE_TESTS_HOSTILE_H_
