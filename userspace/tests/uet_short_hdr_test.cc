// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The small and medium SES request headers (UE 1.0.1 3.4.2) at a live
// rue target (kernel/uet/pds.c widens them, ses_tgt.c's
// rue_ses_rcv_short() serves them), sent by an initiator that exists
// only on the wire (ForgedUetPeer): rue's own initiator sends the medium
// header for one-packet SENDs, WRITEs and READs only, so the rest - the
// small header, a medium WRITE with header data, what a short header
// cannot describe - would not be tested otherwise.  Each names a whole
// message in one packet: request_length where the standard header has
// message_id, header data or a buffer offset in one word.  A medium
// SEND completes a receive with its data, header data and initiator; a
// medium WRITE is placed; a medium READ is answered with RSP_DATA_SMALL
// naming the request by its PSN.  What a short header cannot describe (a
// message longer than its packet) and what rue cannot serve (the small
// header's RMA, which needs an optimized key) is answered with a return
// code, and nothing is placed.
//
// The forged initiator uses a PDCID of its own per case (0xf500 up): a
// target PDC outlives its case, and a SYN with the PSNs of a PDC the
// target knows is a duplicate.  kJob is granted on device A by
// rue_hostile.sh.
#include <cstring>

#include "tests/env.h"
#include "tests/forged_peer.h"
#include "tests/forged_uet_peer.h"
#include "tests/uet_side.h"

namespace rue::test {
namespace {

constexpr uint32_t kJob = 0x4242;
constexpr uint8_t kRcBadMkey = 0x1c;
constexpr uint8_t kRcTooLong = 0x22;

// @n bytes, each different from its neighbours, from @seed.
std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) v[i] = static_cast<uint8_t>(seed + 7 * i);
  return v;
}

class UetShortHeader : public ::testing::Test {
 protected:
  void SetUp() override {
    Device& a = DevA();
    Device& b = DevB();
    a_ = {&a, *a.gid4};
    ruedv_device_attr da{};
    ASSERT_EQ(ruedv_query_device(a_.ctx(), &da, sizeof(da)), 0);
    if (!(da.caps & RUEDV_DEVICE_CAP_UET_SEND)) GTEST_SKIP() << "no UET";
    std::optional<std::string> ifname = GidNetdev(b.name, *b.gid4);
    if (!ifname) GTEST_SKIP() << "no netdev for device B's IPv4 GID";
    if (auto why = ForgedUetPeer::Open(b.ip4, a.ip4, *ifname, &peer_))
      GTEST_SKIP() << *why;
    ASSERT_NO_FATAL_FAILURE(MakeUetSide(a_, kJob, RUEDV_UET_RUD, 1 << 16, &t_));
    static uint16_t next_pdc = 0xf500;
    pdc_ = next_pdc++;
  }

  // A request of @kind for the target: @opcode, SOM and EOM and @flags,
  // @len in bytes 2-3.
  wire::SesRequest Short(wire::SesRequestKind kind, wire::SesOpcode opcode,
                         uint8_t flags, uint16_t len) const {
    wire::SesRequest s;
    s.kind = kind;
    s.opcode = static_cast<uint8_t>(opcode);
    s.flags = flags;
    s.message_id = len;
    s.job_id = kJob;
    s.pid_on_fep = RUEDV_UET_ADDR_PID(t_.addr);
    s.resource_index = RUEDV_UET_ADDR_RI(t_.addr);
    return s;
  }

  // Sends @ses with @payload on the forged PDC (a SYN the first time),
  // PSN after PSN, and waits for the target's ACK of it.
  ::testing::AssertionResult Request(const wire::SesRequest& ses,
                                     std::span<const uint8_t> payload,
                                     UetAnswer* ack) {
    const uint32_t psn = psn_++;
    wire::UetHeaders h = RudRequest(pdc_, psn, target_pdc_ < 0, 0, ses);
    auto& r = std::get<wire::PdsRequest>(h.pds);
    if (target_pdc_ >= 0) r.dpdcid = static_cast<uint16_t>(target_pdc_);
    r.prologue.next_hdr =
        static_cast<uint8_t>(ses.kind == wire::SesRequestKind::kSmall
                                 ? wire::NextHeader::kReqSmall
                                 : wire::NextHeader::kReqMedium);
    h.ses_request->kind = ses.kind;
    ::testing::AssertionResult sent = peer_->Send(h, payload);
    if (!sent) return sent;
    const size_t seen = seen_;
    bool found = false;
    ::testing::AssertionResult got = peer_->WaitAnswers(
        [&](const std::vector<UetAnswer>& all) {
          for (size_t i = seen; i < all.size(); i++) {
            const auto* a = std::get_if<wire::PdsAck>(&all[i].headers.pds);
            if (!a || a->dpdcid != pdc_) continue;
            if (a->cack_psn + static_cast<int16_t>(a->ack_psn_offset) != psn)
              continue;
            *ack = all[i];
            target_pdc_ = a->spdcid;
            seen_ = i + 1;
            found = true;
            return true;
          }
          return false;
        },
        milliseconds(3000));
    if (!got) return got << " (no ACK of PSN " << psn << ")";
    return found ? ::testing::AssertionSuccess()
                 : ::testing::AssertionFailure() << "no ACK";
  }

  // The return code of @ack's SES response, 0 if it carries none.
  static uint8_t Rc(const UetAnswer& ack) {
    return ack.headers.ses_response ? ack.headers.ses_response->return_code : 0;
  }

  uint16_t pdc_ = 0;
  Endpoint a_;
  UetSide t_;
  std::unique_ptr<ForgedUetPeer> peer_;
  uint32_t psn_ = 9000;
  int target_pdc_ = -1;
  size_t seen_ = 0;
};

// A medium SEND with header data completes a receive with its bytes, its
// header data and its initiator; a small SEND (no initiator field) too.
TEST_F(UetShortHeader, SendsCompleteReceives) {
  ibv_sge sge = t_.mem.sge(0, 4096);
  ASSERT_EQ(PostRecv(t_.qp.get(), 1, &sge, 1), 0);
  sge = t_.mem.sge(4096, 4096);
  ASSERT_EQ(PostRecv(t_.qp.get(), 2, &sge, 1), 0);
  std::vector<uint8_t> data = Pattern(700, 0x3c);
  wire::SesRequest m = Short(
      wire::SesRequestKind::kMedium, wire::SesOpcode::kSend,
      wire::ses_flags::kSom | wire::ses_flags::kEom | wire::ses_flags::kHd,
      700);
  m.header_data = 0x0123456789abcdefULL;
  m.initiator = 0x0abc;
  UetAnswer ack;
  ASSERT_TRUE(Request(m, data, &ack));
  EXPECT_EQ(Rc(ack), 0) << UetAnswerString(ack);
  std::vector<UetWc> wc;
  ASSERT_TRUE(PollEx(t_.rcq.get(), 1, &wc, milliseconds(3000)));
  EXPECT_EQ(wc[0].wr_id, 1u);
  EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc[0].status);
  EXPECT_EQ(wc[0].opcode, IBV_WC_RECV);
  EXPECT_EQ(wc[0].byte_len, 700u);
  EXPECT_TRUE(wc[0].flags & IBV_WC_WITH_IMM);
  EXPECT_EQ(wc[0].imm64, 0x0123456789abcdefULL);
  EXPECT_EQ(wc[0].initiator, 0x0abcu);
  EXPECT_EQ(memcmp(t_.mem.data(0), data.data(), data.size()), 0);

  std::vector<uint8_t> small = Pattern(64, 0xa5);
  ASSERT_TRUE(
      Request(Short(wire::SesRequestKind::kSmall, wire::SesOpcode::kSend,
                    wire::ses_flags::kSom | wire::ses_flags::kEom, 64),
              small, &ack));
  EXPECT_EQ(Rc(ack), 0) << UetAnswerString(ack);
  wc.clear();
  ASSERT_TRUE(PollEx(t_.rcq.get(), 1, &wc, milliseconds(3000)));
  EXPECT_EQ(wc[0].wr_id, 2u);
  EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc[0].status);
  EXPECT_EQ(wc[0].byte_len, 64u);
  EXPECT_FALSE(wc[0].flags & IBV_WC_WITH_IMM);
  EXPECT_EQ(wc[0].initiator, 0u);
  EXPECT_EQ(memcmp(t_.mem.data(4096), small.data(), small.size()), 0);
}

// A medium WRITE is placed at its buffer offset; a medium READ of the
// same bytes comes back in RSP_DATA_SMALL with the READ's PSN.
TEST_F(UetShortHeader, WriteThenReadBack) {
  const uint64_t key = Key64(t_.mem.mr.get());
  std::vector<uint8_t> data = Pattern(1000, 0x77);
  wire::SesRequest w =
      Short(wire::SesRequestKind::kMedium, wire::SesOpcode::kWrite,
            wire::ses_flags::kSom | wire::ses_flags::kEom, 1000);
  w.buffer_offset = t_.mem.addr(8192);
  w.memory_key = key;
  w.initiator = 0x0abc;
  UetAnswer ack;
  ASSERT_TRUE(Request(w, data, &ack));
  EXPECT_EQ(Rc(ack), 0) << UetAnswerString(ack);
  EXPECT_EQ(memcmp(t_.mem.data(8192), data.data(), data.size()), 0);

  wire::SesRequest r =
      Short(wire::SesRequestKind::kMedium, wire::SesOpcode::kRead,
            wire::ses_flags::kSom | wire::ses_flags::kEom, 1000);
  r.buffer_offset = t_.mem.addr(8192);
  r.memory_key = key;
  r.initiator = 0x0abc;
  const uint32_t read_psn = psn_;
  ASSERT_TRUE(Request(r, {}, &ack));
  ASSERT_TRUE(ack.headers.ses_response) << UetAnswerString(ack);
  const wire::SesResponse& rsp = *ack.headers.ses_response;
  EXPECT_EQ(rsp.kind, wire::SesResponseKind::kRspDataSmall);
  EXPECT_EQ(rsp.return_code, 0x01);  // OK
  EXPECT_EQ(rsp.payload_len(), 1000u);
  EXPECT_EQ(rsp.job_id, kJob);
  EXPECT_EQ(rsp.original_request_psn, read_psn);
  EXPECT_EQ(ack.payload, data);
}

// A medium WRITE with header data has no room for a buffer offset: it
// lands at offset 0 of the MR its key names, here one registered with
// IOVA 0 (ibv_reg_mr_iova), and completes a receive with the header data.
TEST_F(UetShortHeader, WriteWithHeaderDataLandsAtOffsetZero) {
  Mr zero(ibv_reg_mr_iova(t_.pd.get(), t_.mem.data(16384), 4096, 0,
                          IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
  ASSERT_TRUE(zero) << "ibv_reg_mr_iova: " << strerror(errno);
  ibv_sge sge = t_.mem.sge(0, 64);
  ASSERT_EQ(PostRecv(t_.qp.get(), 5, &sge, 1), 0);
  std::vector<uint8_t> data = Pattern(300, 0x21);
  wire::SesRequest w = Short(
      wire::SesRequestKind::kMedium, wire::SesOpcode::kWrite,
      wire::ses_flags::kSom | wire::ses_flags::kEom | wire::ses_flags::kHd,
      300);
  w.header_data = 0xfeedfacecafef00dULL;
  w.memory_key = Key64(zero.get());
  w.initiator = 0x0abc;
  UetAnswer ack;
  ASSERT_TRUE(Request(w, data, &ack));
  EXPECT_EQ(Rc(ack), 0) << UetAnswerString(ack);
  EXPECT_EQ(memcmp(t_.mem.data(16384), data.data(), data.size()), 0);
  std::vector<UetWc> wc;
  ASSERT_TRUE(PollEx(t_.rcq.get(), 1, &wc, milliseconds(3000)));
  EXPECT_EQ(wc[0].wr_id, 5u);
  EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc[0].status);
  EXPECT_EQ(wc[0].opcode, IBV_WC_RECV_RDMA_WITH_IMM);
  EXPECT_EQ(wc[0].imm64, 0xfeedfacecafef00dULL);
  EXPECT_EQ(wc[0].initiator, 0x0abcu);
}

// The same WRITE to an MR addressed by its virtual address lands at the
// MR's start, not at address 0 (which no such MR covers): a missing
// buffer offset is the target buffer's start (UE 1.0.1 3.4.2), and
// rue's MRs start at their iova.
TEST_F(UetShortHeader, WriteWithHeaderDataLandsAtTheStartOfAnMr) {
  Mr sub(ibv_reg_mr(t_.pd.get(), t_.mem.data(20480), 4096,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
  ASSERT_TRUE(sub) << "ibv_reg_mr: " << strerror(errno);
  ibv_sge sge = t_.mem.sge(0, 64);
  ASSERT_EQ(PostRecv(t_.qp.get(), 6, &sge, 1), 0);
  std::vector<uint8_t> data = Pattern(500, 0x35);
  wire::SesRequest w = Short(
      wire::SesRequestKind::kMedium, wire::SesOpcode::kWrite,
      wire::ses_flags::kSom | wire::ses_flags::kEom | wire::ses_flags::kHd,
      500);
  w.header_data = 0x0102030405060708ULL;
  w.memory_key = Key64(sub.get());
  w.initiator = 0x0abc;
  UetAnswer ack;
  ASSERT_TRUE(Request(w, data, &ack));
  EXPECT_EQ(Rc(ack), 0) << UetAnswerString(ack);
  EXPECT_EQ(memcmp(t_.mem.data(20480), data.data(), data.size()), 0);
  std::vector<UetWc> wc;
  ASSERT_TRUE(PollEx(t_.rcq.get(), 1, &wc, milliseconds(3000)));
  EXPECT_EQ(wc[0].wr_id, 6u);
  EXPECT_EQ(wc[0].status, IBV_WC_SUCCESS) << ibv_wc_status_str(wc[0].status);
  EXPECT_EQ(wc[0].imm64, 0x0102030405060708ULL);
}

// What a short header cannot name is refused with a return code, and
// nothing is placed or completed: a SEND without EOM, a SEND whose
// request_length is not its payload, RMA with the small header (no key).
TEST_F(UetShortHeader, WhatItCannotDescribeIsRefused) {
  ibv_sge sge = t_.mem.sge(0, 4096);
  ASSERT_EQ(PostRecv(t_.qp.get(), 1, &sge, 1), 0);
  std::vector<uint8_t> data = Pattern(100, 0x11);
  UetAnswer ack;
  ASSERT_TRUE(Request(Short(wire::SesRequestKind::kMedium,
                            wire::SesOpcode::kSend, wire::ses_flags::kSom, 100),
                      data, &ack));
  EXPECT_EQ(Rc(ack), kRcTooLong) << UetAnswerString(ack);
  ASSERT_TRUE(
      Request(Short(wire::SesRequestKind::kMedium, wire::SesOpcode::kSend,
                    wire::ses_flags::kSom | wire::ses_flags::kEom, 2000),
              data, &ack));
  EXPECT_EQ(Rc(ack), kRcTooLong) << UetAnswerString(ack);

  memset(t_.mem.data(8192), 0, 256);
  wire::SesRequest w =
      Short(wire::SesRequestKind::kSmall, wire::SesOpcode::kWrite,
            wire::ses_flags::kSom | wire::ses_flags::kEom, 100);
  w.buffer_offset = t_.mem.addr(8192);
  ASSERT_TRUE(Request(w, data, &ack));
  EXPECT_EQ(Rc(ack), kRcBadMkey) << UetAnswerString(ack);
  EXPECT_EQ(t_.mem.data(8192)[0], 0) << "a small WRITE was placed";
  wire::SesRequest r =
      Short(wire::SesRequestKind::kSmall, wire::SesOpcode::kRead,
            wire::ses_flags::kSom | wire::ses_flags::kEom, 100);
  r.buffer_offset = t_.mem.addr(0);
  ASSERT_TRUE(Request(r, {}, &ack));
  EXPECT_EQ(Rc(ack), kRcBadMkey) << UetAnswerString(ack);
  EXPECT_TRUE(ack.payload.empty());

  std::vector<UetWc> wc;
  EXPECT_FALSE(PollEx(t_.rcq.get(), 1, &wc, milliseconds(300)))
      << "completed with " << ibv_wc_status_str(wc[0].status);
}

}  // namespace
}  // namespace rue::test
