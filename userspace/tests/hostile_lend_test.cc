// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// RDMA READ responses that wait while their region is taken back
// (kernel/net/lend.c).  A response of more than 256 bytes lends the
// responder's pages to the packet, which reads them when it goes out.
// Until then it may wait in the device's queues - a PFC pause from the
// remote that asked holds it there, and so does a lower device that
// keeps what it was given, once rue's share of the host's memory for
// packets in the stack is used.  If the target's consumer deregisters
// the region meanwhile and puts other data in its pages, the waiting
// responses must not carry that data: they are dropped
// (tx_prioN_discards), and a READ asked again meets the invalid key.  A
// region kept is read as usual once the queue moves.
//
// The hold here is the second kind, because it does not depend on
// timing: device A's netdev gets a plug qdisc (sch_plug), which keeps
// everything until it is released.  A READ of 1 MiB and a packet to a
// second QP (the filler) fills what rue may have in the stack
// (RUE_TXQ_BYTES of truesize, which is more than the payload) and waits
// in the plug; the target QP, on another priority, then queues its
// responses in rue.  The plug's commands run in device A's network
// namespace, named by RUE_HOSTILE_NS_A (rue_hostile.sh).
#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "tests/hostile.h"
#include "tests/pattern.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr uint32_t kPackets = 4;
constexpr uint8_t kTrafficClass = 96;        // DSCP 24: priority 3
constexpr uint32_t kTxqBytes = 1024 * 1024;  // RUE_TXQ_BYTES
// 2000 slots of 9216 bytes (forged_peer.cc): the filler's 1024 and more.
constexpr int kCaptureRing = 20 * 1024 * 1024;

// A plug qdisc on a netdev of another network namespace: holds what the
// netdev is given from Add() to Release().  The peer's neighbour entry
// is pinned meanwhile: the plug holds ARP probes too, and an entry that
// went stale, then failed, would drop the packets waiting on it - and
// give rue its room back early.
class Plug {
 public:
  Plug(const std::string& ns, std::string ifname, std::string peer_ip,
       std::string peer_mac)
      : prefix_("ip netns exec " + ns + " "),
        ifname_(std::move(ifname)),
        peer_ip_(std::move(peer_ip)),
        peer_mac_(std::move(peer_mac)) {}
  ~Plug() {
    if (added_) Run("tc qdisc del dev " + ifname_ + " root");
    if (pinned_) Run("ip neigh del " + peer_ip_ + " dev " + ifname_);
  }

  bool Add() {
    pinned_ = Run("ip neigh replace " + peer_ip_ + " lladdr " + peer_mac_ +
                  " dev " + ifname_ + " nud permanent");
    added_ = pinned_ &&
             Run("tc qdisc add dev " + ifname_ + " root plug limit 67108864");
    return added_;
  }
  bool Release() {
    return Run("tc qdisc change dev " + ifname_ +
               " root plug release_indefinite");
  }

 private:
  bool Run(const std::string& args) const {
    return std::system((prefix_ + args + " >/dev/null 2>&1").c_str()) == 0;
  }

  std::string prefix_;
  std::string ifname_;
  std::string peer_ip_;
  std::string peer_mac_;
  bool pinned_ = false;
  bool added_ = false;
};

class HostileLend : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped()) return;
    const char* ns = getenv("RUE_HOSTILE_NS_A");
    if (!ns) GTEST_SKIP() << "RUE_HOSTILE_NS_A is not set (rue_hostile.sh)";
    // Room for the filler's answers, which arrive before the target's.
    peer_.reset();
    Device& peer = DevB();
    auto why = ForgedPeer::Open(peer.ip4, dev_->ip4, peer_ifname_, &peer_,
                                kCaptureRing);
    ASSERT_FALSE(why) << *why;
    std::optional<std::string> ifname = GidNetdev(dev_->name, *dev_->gid4);
    ASSERT_TRUE(ifname) << "no netdev for " << dev_->name;
    QpOptions o;
    o.traffic_class = kTrafficClass;
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_EQ(mtu_, 1024u) << "the filler's size assumes 1 KiB packets";
    ASSERT_NO_FATAL_FAILURE(CreateSide(target_ep_, QpOptions(), &filler_));
    ASSERT_EQ(ModifyToInit(filler_), 0);
    ASSERT_EQ(ModifyToRtr(filler_, NextPeerQpn(), kPeerPsn, peer_gid_), 0);
    ASSERT_EQ(ModifyToRts(filler_), 0);
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(filler_.pd.get(), kTxqBytes, kAllAccess, &filled_));
    std::ifstream mac_file("/sys/class/net/" + peer_ifname_ + "/address");
    std::string mac;
    ASSERT_TRUE(mac_file >> mac) << "no MAC address of " << peer_ifname_;
    plug_ = std::make_unique<Plug>(ns, *ifname, peer.ip4, mac);
    ASSERT_TRUE(plug_->Add()) << "tc qdisc add dev " << *ifname << " plug";
  }

  void TearDown() override { plug_.reset(); }

  wire::RoceHeaders Read(uint32_t psn, uint64_t va, uint32_t rkey,
                         uint32_t len) const {
    auto h = Request(Opcode::kRcRdmaReadRequest, psn);
    h.reth = wire::Reth{va, rkey, len};
    return h;
  }

  // The READ at @psn was answered with these responses so far.
  std::vector<Answer> Responses(uint32_t psn) {
    std::vector<Answer> out;
    for (const Answer& a : Answers()) {
      const uint8_t op = a.opcode();
      if (op >= wire::ToU8(Opcode::kRcRdmaReadResponseFirst) &&
          op <= wire::ToU8(Opcode::kRcRdmaReadResponseOnly) &&
          a.psn() - psn < kPackets)
        out.push_back(a);
    }
    return out;
  }

  // Fills what rue may have in the stack, behind the plug: the filler's
  // answers to a READ of kTxqBytes.  Returns tx_packets then in @built.
  void FillStack(int64_t* built) {
    *built = Counter("tx_packets");
    auto fill = Read(kPeerPsn, filled_.addr(), filled_.rkey(), kTxqBytes);
    fill.bth.dest_qp = filler_.qpn();
    ASSERT_NO_FATAL_FAILURE(Inject(fill));
    *built += kTxqBytes / mtu_;
    ASSERT_TRUE(CounterReaches(*dev_, "tx_packets", *built));
  }

  // Makes @r, kPackets MTUs of random bytes from @seed; fills the stack
  // behind the plug, then sends a READ of all of @r at kPeerPsn and waits
  // until its responses were built: queued in rue, since none went to
  // the stack.
  void HeldRead(uint64_t seed, Region* out) {
    ASSERT_NO_FATAL_FAILURE(
        MakeRegion(t_.pd.get(), kPackets * mtu_, kAllAccess, out));
    const Region& r = *out;
    FillRandom(out->buf.span(), seed);
    discards_ = Counter("tx_prio3_discards");
    int64_t built;
    ASSERT_NO_FATAL_FAILURE(FillStack(&built));
    sent_ = Counter("tx_prio3_packets");
    ASSERT_NO_FATAL_FAILURE(
        Inject(Read(kPeerPsn, r.addr(), r.rkey(), kPackets * mtu_)));
    ASSERT_TRUE(CounterReaches(*dev_, "tx_packets", built + kPackets));
    ASSERT_EQ(Counter("tx_prio3_packets"), sent_) << "not held in rue";
  }

  // A READ naming a key the target never gave, while the stack is full:
  // the target's NAK waits in rue and its QP goes to the error state
  // (a remote access error, rc_resp.c).  Then, if @destroy, the
  // QP is destroyed.  The NAK goes when the queue moves.
  void RefusedWhileHeld(bool destroy) {
    int64_t built;
    ASSERT_NO_FATAL_FAILURE(FillStack(&built));
    const int64_t naks = Counter("error_nak_sent");
    const int64_t sent = Counter("tx_prio6_packets");  // ACKs' priority
    const int64_t discards = Counter("tx_prio6_discards");
    ASSERT_NO_FATAL_FAILURE(Inject(Read(kPeerPsn, 0x10000, 0xbad00, mtu_)));
    ASSERT_TRUE(CounterReaches(*dev_, "error_nak_sent", naks + 1));
    ASSERT_EQ(Counter("tx_prio6_packets"), sent) << "not held in rue";
    if (destroy) t_.qp.reset();
    ASSERT_TRUE(plug_->Release());
    EXPECT_TRUE(WaitAnswer([](const Answer& a) {
      return IsNak(a, kPeerPsn, wire::NakCode::kRemoteAccessError);
    }));
    EXPECT_EQ(Counter("tx_prio6_discards"), discards);
  }

  Side filler_;
  Region filled_;
  std::unique_ptr<Plug> plug_;
  int64_t sent_ = 0;      // tx_prio3_packets before the READ
  int64_t discards_ = 0;  // tx_prio3_discards likewise
};

TEST_F(HostileLend, ResponsesOfARegionTakenBackAreDropped) {
  Region r;
  ASSERT_NO_FATAL_FAILURE(HeldRead(71, &r));

  // The consumer takes its region back and reuses the memory.
  const uint32_t rkey = r.rkey();
  r.mr.reset();
  FillRandom(r.buf.span(), 99);
  ASSERT_TRUE(plug_->Release());
  EXPECT_TRUE(CounterReaches(*dev_, "tx_prio3_discards", discards_ + kPackets));
  EXPECT_EQ(Counter("tx_prio3_packets"), sent_) << "responses sent";
  EXPECT_TRUE(Responses(kPeerPsn).empty());

  // Asked again, the READ meets the key no region has now.
  ASSERT_NO_FATAL_FAILURE(
      Inject(Read(kPeerPsn, r.addr(), rkey, kPackets * mtu_)));
  EXPECT_TRUE(WaitAnswer([](const Answer& a) {
    return IsNak(a, kPeerPsn, wire::NakCode::kRemoteAccessError);
  }));
  EXPECT_TRUE(Responses(kPeerPsn).empty());
}

TEST_F(HostileLend, ResponsesOfAKeptRegionGoOutWhenTheQueueMoves) {
  Region r;
  ASSERT_NO_FATAL_FAILURE(HeldRead(81, &r));
  ASSERT_TRUE(plug_->Release());
  ASSERT_TRUE(WaitFor([this](const std::vector<Answer>&) {
    return Responses(kPeerPsn).size() == kPackets;
  }));
  std::vector<uint8_t> got;
  for (const Answer& a : Responses(kPeerPsn))
    got.insert(got.end(), a.payload.begin(), a.payload.end());
  EXPECT_TRUE(SameBytes(got, r.buf.span()));
  EXPECT_EQ(Counter("tx_prio3_discards"), discards_);
}

// A packet that lends no memory is the QP's answer, not its data: a NAK
// queued when its QP fails goes out, and is the requester's only news of
// the error.  Before, the drain dropped every packet of a QP in the
// error state and destroy_qp every packet of the QP: the requester
// retried until its retries ran out.  Seen on the sanitizer kernel,
// where the stack drains slowly (ResponsesOfARegionTakenBackAreDropped's
// NAK, 2 runs in 4).
TEST_F(HostileLend, ANakQueuedWhenItsQpFailsStillGoesOut) {
  RefusedWhileHeld(false);
}

TEST_F(HostileLend, ANakQueuedWhenItsQpIsDestroyedStillGoesOut) {
  RefusedWhileHeld(true);
}

}  // namespace
}  // namespace rue::test
