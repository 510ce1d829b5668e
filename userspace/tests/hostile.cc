// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tests/hostile.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <thread>

namespace rue::test {
// Peer QPNs above any rue hands out, one per QP: answers to one test's
// target never count as another's.
uint32_t NextPeerQpn() {
  static uint32_t next = 0xf00000;
  return next++;
}

// The test runs in the forger's namespace (ns B), where RDMA's shared
// netns mode shows device A as a compat device without port counters.
// The sysfs of init's mount namespace was mounted in init_net and has the
// device itself.
void ChainSends(const Region& r, uint64_t wr_id, uint32_t n, SendChain* out) {
  out->sges.resize(n);
  out->wrs.resize(n);
  for (uint32_t i = 0; i < n; i++) {
    out->sges[i] = r.sge(64 * i, 64);
    out->wrs[i] = SendWr(wr_id + i, IBV_WR_SEND, &out->sges[i], 1);
    if (i) out->wrs[i - 1].next = &out->wrs[i];
  }
}

int64_t HwCounter(const Device& dev, const std::string& name) {
  const std::string rel =
      "sys/class/infiniband/" + dev.name + "/ports/1/hw_counters/" + name;
  for (const char* root : {"/", "/proc/1/root/"}) {
    std::ifstream f(root + rel);
    int64_t v;
    if (f >> v) return v;
  }
  return -1;
}

::testing::AssertionResult CounterReaches(const Device& dev,
                                          const std::string& name, int64_t want,
                                          milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  int64_t now;
  while ((now = HwCounter(dev, name)) < want) {
    if (now < 0 || Clock::now() > deadline)
      return ::testing::AssertionFailure()
             << dev.name << " " << name << " is " << now << ", want " << want;
    std::this_thread::sleep_for(milliseconds(2));
  }
  if (now != want)
    return ::testing::AssertionFailure()
           << dev.name << " " << name << " is " << now << ", want " << want;
  return ::testing::AssertionSuccess();
}

std::vector<uint8_t> Bytes(size_t n, uint8_t value) {
  return std::vector<uint8_t>(n, value);
}

bool IsNak(const Answer& a, uint32_t psn, wire::NakCode code) {
  return a.opcode() == wire::ToU8(wire::Opcode::kRcAcknowledge) &&
         a.psn() == psn &&
         a.headers.aeth->syndrome ==
             wire::Aeth::MakeSyndrome(wire::AethType::kNak,
                                      static_cast<uint8_t>(code));
}

bool IsAck(const Answer& a, uint32_t psn) {
  return a.opcode() == wire::ToU8(wire::Opcode::kRcAcknowledge) &&
         a.psn() == psn && a.headers.aeth->type() == wire::AethType::kAck;
}

void HostileTest::SetUp() {
  dev_ = &DevA();
  Device& peer = DevB();
  target_ep_ = {dev_, *dev_->gid4};
  peer_gid_ = peer.Gid(*peer.gid4);
  peer_qpn_ = NextPeerQpn();
  std::optional<std::string> ifname = GidNetdev(peer.name, *peer.gid4);
  if (!ifname)
    GTEST_SKIP() << "no netdev for GID " << *peer.gid4 << " of " << peer.name;
  if (auto why = ForgedPeer::Open(peer.ip4, dev_->ip4, *ifname, &peer_))
    GTEST_SKIP() << *why;
  peer_ifname_ = *ifname;
}

void HostileTest::CreateTarget(const QpOptions& opts) {
  ASSERT_NO_FATAL_FAILURE(CreateSide(target_ep_, opts, &t_));
  mtu_ = 128u << t_.opts.mtu;
}

void HostileTest::ConnectTarget() {
  int ret = ModifyToInit(t_);
  ASSERT_EQ(ret, 0) << "INIT: " << strerror(ret);
  ret = ModifyToRtr(t_, peer_qpn_, kPeerPsn, peer_gid_);
  ASSERT_EQ(ret, 0) << "RTR: " << strerror(ret);
  ret = ModifyToRts(t_);
  ASSERT_EQ(ret, 0) << "RTS: " << strerror(ret);
}

wire::RoceHeaders HostileTest::ReadResponse(uint32_t psn, uint32_t i,
                                            uint32_t n, uint32_t msn) const {
  using wire::Opcode;
  const Opcode op = n == 1       ? Opcode::kRcRdmaReadResponseOnly
                    : i == 0     ? Opcode::kRcRdmaReadResponseFirst
                    : i == n - 1 ? Opcode::kRcRdmaReadResponseLast
                                 : Opcode::kRcRdmaReadResponseMiddle;
  wire::RoceHeaders h = Request(op, psn + i);
  if (h.aeth) {
    h.aeth->syndrome = wire::Aeth::MakeSyndrome(
        wire::AethType::kAck, wire::Aeth::kInvalidCreditCount);
    h.aeth->msn = msn;
  }
  return h;
}

wire::RoceHeaders HostileTest::Request(wire::Opcode op, uint32_t psn,
                                       bool ack_req) const {
  const wire::OpcodeInfo& info = wire::LookupOpcode(wire::ToU8(op));
  wire::RoceHeaders h;
  h.bth.opcode = wire::ToU8(op);
  h.bth.dest_qp = t_.qpn();
  h.bth.psn = psn & wire::Bth::kPsnMask;
  h.bth.ack_req = ack_req;
  for (wire::ExtHeader e : info.headers()) {
    switch (e) {
      case wire::ExtHeader::kReth:
        h.reth = wire::Reth();
        break;
      case wire::ExtHeader::kAeth:
        h.aeth = wire::Aeth();
        break;
      case wire::ExtHeader::kDeth:
        h.deth = wire::Deth();
        break;
      case wire::ExtHeader::kImmDt:
        h.imm_dt = wire::ImmDt();
        break;
      case wire::ExtHeader::kIeth:
        h.ieth = wire::Ieth();
        break;
      case wire::ExtHeader::kAtomicEth:
        h.atomic_eth = wire::AtomicEth();
        break;
      case wire::ExtHeader::kAtomicAckEth:
        h.atomic_ack_eth = wire::AtomicAckEth();
        break;
      case wire::ExtHeader::kCnpReserved:
        h.cnp_reserved = wire::CnpReserved();
        break;
    }
  }
  return h;
}

void HostileTest::Inject(const wire::RoceHeaders& h,
                         std::span<const uint8_t> payload) {
  ASSERT_TRUE(peer_->Send(h, payload));
}

::testing::AssertionResult HostileTest::WaitAnswer(
    const std::function<bool(const Answer&)>& match, milliseconds timeout) {
  return WaitFor(
      [&](const std::vector<Answer>& got) {
        return std::any_of(got.begin(), got.end(), match);
      },
      timeout);
}

}  // namespace rue::test
