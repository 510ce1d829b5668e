// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Random packets at a live RC QP, as responder and as requester (issue
// 15: fuzzers).  Random bytes die at the first check (rue_uet.sh sends
// some for UET); these are RoCEv2 packets with a valid ICRC whose fields
// are drawn around what the target expects, so that they reach what
// lies behind: opcode sequencing, keys, bounds and access rights,
// duplicates and the replay of READs and atomics, ACK, NAK and response
// handling, RNR and retransmission.  A quarter also have a few bytes
// past the UDP header changed (the ICRC computed afterwards), which
// gives opcodes no builder makes and headers that disagree with them.
// The target QP is replaced whenever the packets moved it to the error
// state, so that they keep meeting one that takes them.
//
// What must hold: no kernel complaint (vm-run fails a run whose console
// shows one), every QP and MR released (rue_hostile's last case), and
// the device still serving: a fresh QP answers a SEND.
//
// RUE_FUZZ_SEED replays a run (each test prints its seed);
// RUE_FUZZ_PACKETS changes how many packets each test sends (4000).
#include <algorithm>
#include <random>
#include <thread>

#include "tests/env.h"
#include "tests/hostile.h"

namespace rue::test {
namespace {

using wire::Opcode;

constexpr size_t kMem = 1 << 16;
constexpr uint32_t kRecvs = 32;

class HostileFuzz : public HostileTest {
 protected:
  void SetUp() override {
    HostileTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    seed_ = FuzzSeed();
    packets_ = EnvOr("RUE_FUZZ_PACKETS", 4000);
    rng_.seed(seed_);
  }

  uint32_t Below(uint32_t n) {
    return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_);
  }
  bool OneIn(uint32_t n) { return Below(n) == 0; }
  uint64_t Any64() { return rng_(); }

  // A new target in RTS with a region open to everything and kRecvs
  // receives posted.
  void FreshTarget(const QpOptions& o) {
    // in the order verbs allow: the MR and the QP before the PD
    mem_.mr.reset();
    t_.qp.reset();
    t_.scq.reset();
    t_.rcq.reset();
    t_.pd.reset();
    ASSERT_NO_FATAL_FAILURE(CreateTarget(o));
    ASSERT_NO_FATAL_FAILURE(ConnectTarget());
    ASSERT_NO_FATAL_FAILURE(MakeRegion(t_.pd.get(), kMem, kAllAccess, &mem_));
    for (uint32_t i = 0; i < kRecvs; i++) {
      ibv_sge sge = mem_.sge(2048 * i, 2048);
      ASSERT_EQ(PostRecv(t_.qp.get(), i, &sge, 1), 0);
    }
    fresh_++;
  }

  bool InError() {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    return ibv_query_qp(t_.qp.get(), &attr, IBV_QP_STATE, &init) == 0 &&
           attr.qp_state == IBV_QPS_ERR;
  }

  // Empties both CQs; how many completions there were.
  size_t Drain() {
    size_t n = 0;
    ibv_wc wc[16];
    for (ibv_cq* cq : {t_.SendCq(), t_.RecvCq()}) {
      int got;
      while ((got = ibv_poll_cq(cq, 16, wc)) > 0) n += got;
    }
    return n;
  }

  // A key: the region's mostly, else a neighbour, zero or anything.
  uint32_t Key() {
    switch (Below(8)) {
      case 0:
        return mem_.rkey() + 1;
      case 1:
        return 0;
      case 2:
        return static_cast<uint32_t>(Any64());
      default:
        return mem_.rkey();
    }
  }

  // An address around the region: inside mostly, across its ends, or
  // anywhere.
  uint64_t Va(uint32_t align) {
    switch (Below(8)) {
      case 0:
        return mem_.addr() - 8 * (1 + Below(512));
      case 1:
        return mem_.addr() + kMem - 8 * Below(64);
      case 2:
        return Any64();
      default:
        return mem_.addr() + Below(kMem / align) * align;
    }
  }

  uint32_t Length() {
    switch (Below(6)) {
      case 0:
        return 0;
      case 1:
        return mtu_;
      case 2:
        return kMem;
      case 3:
        return static_cast<uint32_t>(Any64());
      default:
        return 1 + Below(4 * mtu_);
    }
  }

  // The payload size for @op: what fits its position mostly, else any.
  size_t PayloadSize(uint8_t op) {
    const wire::OpcodeInfo& info = wire::LookupOpcode(op);
    if (!info.has_payload) return 0;
    switch (Below(6)) {
      case 0:
        return 0;
      case 1:
        return mtu_ + 4 * (1 + Below(4));  // more than an MTU
      case 2:
        return 1 + Below(mtu_);
      default:
        return info.position == wire::Position::kFirst ||
                       info.position == wire::Position::kMiddle
                   ? mtu_
                   : 1 + Below(mtu_);
    }
  }

  // Fills every extension header @h has with drawn values.
  void FillHeaders(wire::RoceHeaders* h) {
    if (h->reth) {
      h->reth->va = Va(1);
      h->reth->rkey = Key();
      h->reth->dma_length = Length();
    }
    if (h->atomic_eth) {
      h->atomic_eth->va = OneIn(4) ? Va(1) : Va(8);
      h->atomic_eth->rkey = Key();
      h->atomic_eth->swap_add = Any64();
      h->atomic_eth->compare = OneIn(2) ? 0 : Any64();
    }
    if (h->ieth) h->ieth->rkey = Key();
    if (h->imm_dt) h->imm_dt->imm = static_cast<uint32_t>(Any64());
    if (h->aeth) {
      static constexpr uint8_t kSyndromes[] = {
          0x1f, 0x00, 0x0a,        // ACKs: credits invalid, 0, 10
          0x20, 0x2e,              // RNR NAKs
          0x60, 0x61, 0x62, 0x63,  // NAK: sequence, invalid, access, op
          0x64, 0x40, 0x7f};       // NAK invalid RD request, reserved
      h->aeth->syndrome = OneIn(4) ? static_cast<uint8_t>(Any64())
                                   : kSyndromes[Below(sizeof(kSyndromes))];
      h->aeth->msn = static_cast<uint32_t>(Any64()) & wire::Aeth::kMsnMask;
    }
    if (h->atomic_ack_eth) h->atomic_ack_eth->original_data = Any64();
  }

  // Sends one packet of opcode @op at @psn; a quarter with 1-4 bytes
  // changed at random.  False when the builder refused it (counted).
  void SendOne(Opcode op, uint32_t psn) {
    wire::RoceHeaders h = Request(op, psn, OneIn(2));
    if (OneIn(20)) h.bth.dest_qp = static_cast<uint32_t>(Any64()) & 0xffffff;
    h.bth.se = OneIn(4);
    FillHeaders(&h);
    std::vector<uint8_t> payload(PayloadSize(wire::ToU8(op)));
    for (uint8_t& b : payload) b = static_cast<uint8_t>(Below(256));
    ::testing::AssertionResult sent = ::testing::AssertionSuccess();
    if (OneIn(4)) {
      uint32_t n = 1 + Below(4);
      sent = peer_->SendMutated(h, payload, [&](std::span<std::byte> b) {
        for (uint32_t i = 0; i < n; i++)
          b[Below(b.size())] = static_cast<std::byte>(Below(256));
      });
    } else {
      sent = peer_->Send(h, payload);
    }
    if (!sent) refused_++;
  }

  // A PSN near @base: mostly the next one, sometimes a step back or
  // ahead, rarely anything.
  uint32_t Near(uint32_t base, int32_t back, int32_t ahead) {
    if (OneIn(50)) return static_cast<uint32_t>(Any64()) & wire::Bth::kPsnMask;
    int32_t d = static_cast<int32_t>(Below(back + ahead + 1)) - back;
    return (base + d) & wire::Bth::kPsnMask;
  }

  // After the storm: a fresh QP answers a SEND with an ACK and delivers
  // it.
  void StillServes() {
    ASSERT_NO_FATAL_FAILURE(FreshTarget(QpOptions()));
    std::this_thread::sleep_for(milliseconds(100));
    const size_t before = Answers().size();  // the old QPs' answers
    wire::RoceHeaders h = Request(Opcode::kRcSendOnly, kPeerPsn, true);
    std::vector<uint8_t> data(100, 0x3c);
    ASSERT_NO_FATAL_FAILURE(Inject(h, data));
    EXPECT_TRUE(WaitFor([before](const std::vector<Answer>& got) {
      return std::any_of(got.begin() + before, got.end(),
                         [](const Answer& a) { return IsAck(a, kPeerPsn); });
    })) << "no ACK from a fresh QP";
    ibv_wc wc{};
    EXPECT_TRUE(PollOne(t_.RecvCq(), &wc));
    EXPECT_EQ(wc.status, IBV_WC_SUCCESS) << WcString(wc);
    EXPECT_EQ(wc.byte_len, 100u);
  }

  void Report(const char* what) {
    std::cout << "# " << what << ": " << packets_ << " packets (" << refused_
              << " refused by the builder), " << fresh_ << " target QPs, "
              << completions_ << " completions, " << Answers().size()
              << " answers to the last QP\n";
  }

  std::mt19937_64 rng_;
  uint64_t seed_ = 0;
  uint64_t packets_ = 0;
  uint64_t refused_ = 0;
  uint64_t fresh_ = 0;
  uint64_t completions_ = 0;
  Region mem_;
};

// Requests, and a few packets a responder does not expect, at a
// responder: its expected PSN is tracked as if every packet were taken.
TEST_F(HostileFuzz, RandomRequestsAtAResponder) {
  static constexpr Opcode kOps[] = {
      Opcode::kRcSendFirst,
      Opcode::kRcSendMiddle,
      Opcode::kRcSendLast,
      Opcode::kRcSendLastWithImmediate,
      Opcode::kRcSendOnly,
      Opcode::kRcSendOnlyWithImmediate,
      Opcode::kRcSendLastWithInvalidate,
      Opcode::kRcSendOnlyWithInvalidate,
      Opcode::kRcRdmaWriteFirst,
      Opcode::kRcRdmaWriteMiddle,
      Opcode::kRcRdmaWriteLast,
      Opcode::kRcRdmaWriteLastWithImmediate,
      Opcode::kRcRdmaWriteOnly,
      Opcode::kRcRdmaWriteOnlyWithImmediate,
      Opcode::kRcRdmaReadRequest,
      Opcode::kRcCompareSwap,
      Opcode::kRcFetchAdd,
      Opcode::kRcAtomicWrite,
      Opcode::kRcAcknowledge,
      Opcode::kRcRdmaReadResponseOnly,
  };
  ASSERT_NO_FATAL_FAILURE(FreshTarget(QpOptions()));
  uint32_t psn = kPeerPsn;
  for (uint64_t i = 0; i < packets_; i++) {
    Opcode op = kOps[Below(std::size(kOps))];
    uint32_t at = Near(psn, 3, 3);
    ASSERT_NO_FATAL_FAILURE(SendOne(op, at));
    if (at == psn) psn = (psn + 1) & wire::Bth::kPsnMask;
    if (i % 32 == 31) {
      std::this_thread::sleep_for(milliseconds(1));
      completions_ += Drain();
      if (InError()) {
        ASSERT_NO_FATAL_FAILURE(FreshTarget(QpOptions()));
        psn = kPeerPsn;
      }
    }
  }
  Report("responder");
  ASSERT_NO_FATAL_FAILURE(StillServes());
}

// Answers at a requester with work of every kind outstanding: READ
// responses, ACKs and NAKs of every kind, atomic answers, around the
// PSNs it sent.  Its timeout is short, so retransmissions and
// RETRY_EXC_ERR mix in.
TEST_F(HostileFuzz, RandomAnswersAtARequester) {
  static constexpr Opcode kOps[] = {
      Opcode::kRcRdmaReadResponseFirst, Opcode::kRcRdmaReadResponseMiddle,
      Opcode::kRcRdmaReadResponseLast,  Opcode::kRcRdmaReadResponseOnly,
      Opcode::kRcAcknowledge,           Opcode::kRcAcknowledge,
      Opcode::kRcAtomicAcknowledge,     Opcode::kRcSendOnly,
  };
  QpOptions o;
  o.max_send_wr = 64;
  o.timeout = 8;  // about 1 ms
  o.retry_cnt = 3;
  o.rnr_retry = 2;
  ASSERT_NO_FATAL_FAILURE(FreshTarget(o));
  // Outstanding work: the peer's memory is imaginary, its keys too.
  auto post = [&]() {
    static constexpr ibv_wr_opcode kWork[] = {
        IBV_WR_SEND, IBV_WR_RDMA_WRITE, IBV_WR_RDMA_READ,
        IBV_WR_ATOMIC_CMP_AND_SWP, IBV_WR_ATOMIC_FETCH_AND_ADD};
    std::vector<ibv_sge> sges(8);
    std::vector<ibv_send_wr> wrs(8);
    for (uint32_t i = 0; i < 8; i++) {
      ibv_wr_opcode op = kWork[Below(std::size(kWork))];
      bool atomic =
          op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
      sges[i] =
          mem_.sge(8192 * i, atomic ? 8 : 1 + Below(std::min(3 * mtu_, 8192u)));
      wrs[i] = RdmaWr(i, op, &sges[i], 1, 0x10000 + 8 * Below(1024), 0x1234);
      if (atomic) {
        wrs[i].wr.atomic.remote_addr = wrs[i].wr.rdma.remote_addr;
        wrs[i].wr.atomic.rkey = 0x1234;
      }
      if (i) wrs[i - 1].next = &wrs[i];
    }
    return PostSend(t_.qp.get(), wrs.data());
  };
  ASSERT_EQ(post(), 0);
  uint32_t base = t_.opts.sq_psn;
  for (uint64_t i = 0; i < packets_; i++) {
    ASSERT_NO_FATAL_FAILURE(
        SendOne(kOps[Below(std::size(kOps))], Near(base, 2, 24)));
    if (i % 32 == 31) {
      std::this_thread::sleep_for(milliseconds(1));
      size_t n = Drain();
      completions_ += n;
      if (InError()) {
        std::this_thread::sleep_for(milliseconds(2));
        completions_ += Drain();
        ASSERT_NO_FATAL_FAILURE(FreshTarget(o));
        base = t_.opts.sq_psn;
        ASSERT_EQ(post(), 0);
      } else if (n) {
        // some work finished: keep the PSNs in reach, post more
        std::vector<Answer> got = Answers();
        if (!got.empty()) base = got.back().psn();
        if (post()) {
          // the send queue is full: the answers so far are enough
        }
      }
    }
  }
  Report("requester");
  ASSERT_NO_FATAL_FAILURE(StillServes());
}

}  // namespace
}  // namespace rue::test
