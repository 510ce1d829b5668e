// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The UDP payloads of the xdp2 sample captures (ruedump/testdata/
// uet_{pds,ses}.pcap, made by xdp2's make_uet_pds.py and make_uet_ses.py
// from their UE 1.0.1 definitions), parsed with the field values those
// scripts passed, and re-encoded byte for byte.  Where the scripts and
// this library disagree the test says so (see Documentation/uet.md).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rue/wire/uet_packet.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using testing::ToU8;

// uet_pds.pcap
const char* const kPdsFrames[] = {
    // 1
    "119012349876543234569abc022b123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788aabbddddeeff001199887766",
    // 2
    "119412349876543234568876022b123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788aabbddddeeff001199887766",
    // 3
    "699012349876543234569abc77887766022b123477abcdef067809abfedcba98"
    "76543210fedcba981122334455667788aabbddddeeff001199887766",
    // 4
    "69941234987654323456887677887766022b123477abcdef067809abfedcba98"
    "76543210fedcba981122334455667788aabbddddeeff001199887766",
    // 5
    "199012349876543234569abc022b123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788aabbddddeeff001199887766",
    // 6
    "199412349876543234568876022b123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788aabbddddeeff001199887766",
    // 7
    "719012349876543234569abc77887766022b123477abcdef067809abfedcba98"
    "76543210fedcba981122334455667788aabbddddeeff001199887766",
    // 8
    "71941234987654323456887677887766022b123477abcdef067809abfedcba98"
    "76543210fedcba981122334455667788aabbddddeeff001199887766",
    // 9
    "3a3286422468ace03456789ac10912349965432109abcdef",
    // 10
    "423221212468ace03456789a0f876789123456789abcdef099aaff8877668765"
    "c10912349965432109abcdef",
    // 11
    "423298762468ace03456789a1f879988123456789abcdef01234560000008765"
    "c10912349965432109abcdef",
    // 12
    "4a3298762468ace03456789ae0879988123456789abcdef01122334455667788"
    "c10912349965432109abcdef",
    // 13
    "52381687998877663456789a56789abcc10912349965432109abcdef",
    // 14
    "62101587998877663456789a56789abc3fdcba9876543210c109123499654321"
    "09abcdef",
    // 15
    "5c309876cdef0123cdeffedcc10912349965432109abcdef",
    // 16
    "5c941234cdef0123cdef8876c10912349965432109abcdef",
    // 17
    "31800000022b123477abcdef067809abfedcba9876543210fedcba9811223344"
    "55667788aabbddddeeff001199887766",
    // 18
    "21a0000099887766022b123477abcdef067809abfedcba9876543210fedcba98"
    "1122334455667788aabbddddeeff001199887766",
    // 19
    "2a20000099887766c10912349965432109abcdef",
};
// uet_ses.pcap
const char* const kSesFrames[] = {
    // 1
    "119012349876543234569abc022b123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788aabbddddeeff001199887766",
    // 2
    "119012349876543234569abc012a123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788000003457766554499887766",
    // 3
    "119012349876543234569abc082a123477abcdef067809ab8765432112345678"
    "fedcba981122334455667788fedcba987654321099887766",
    // 4
    "119012349876543234569abc0c2a123477abcdef067809ab8899aabbccddeeff"
    "fedcba988765432112345678fedcba987654321099887766",
    // 5
    "119012349876543234569abc032a123477abcdef067809abfedcba9876543210"
    "fedcba9811223344556677880000034577665544998877660a0cc700",
    // 6
    "119012349876543234569abc032a123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788000003457766554499887766110cc70098765432"
    "9876543223456789234567890123456789abcdeffedcba0987654321",
    // 7
    "111012349876543234569abc012b123477abcdef067809ab9876543298765432"
    "87654321ccbbddeeff009988",
    // 8
    "111012349876543234569abc032b123477abcdef067809ab9876543298765432"
    "87654321ccbbddeeff0099880a0cc700",
    // 9
    "111012349876543234569abc032b123477abcdef067809ab9876543298765432"
    "87654321ccbbddeeff009988110cc70098765432987654322345678923456789"
    "0123456789abcdeffedcba0987654321",
    // 10
    "109012349876543234569abc022b123477abcdef067809ab9876543298765432",
    // 11
    "109012349876543234569abc032b123477abcdef067809ab9876543298765432"
    "080ac500",
    // 12
    "109012349876543234569abc032b123477abcdef067809ab9876543298765432"
    "110cc700987654329876543223456789234567890123456789abcdeffedcba09"
    "87654321",
    // 13
    "2a20000099887766c20912349965432109abcdef",
    // 14
    "2aa0000099887766c209123400654321123403218765432109abcdef",
    // 15
    "2b20000099887766c20934560003687000001234",
    // 16
    "119012349876543234569abc0a2b123477abcdef067809abfedcba9876543210"
    "fedcba981122334455667788aabbddddeeff001199887766",
    // 17
    "111012349876543234569abc002b123477abcdef067809ab9876543298765432"
    "87654321ccbbddeeff009988",
};

std::vector<std::byte> FromHex(std::string_view hex) {
  std::vector<std::byte> out;
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<std::byte>(nibble(hex[i]) << 4 |
                                         nibble(hex[i + 1])));
  return out;
}

struct Expect {
  PdsType type;
  uint8_t next_hdr;  // or ctl_type
  std::size_t header_size;
  std::size_t payload_size;
};

// What each frame is, from the generator scripts.
const Expect kPdsExpect[] = {
    {PdsType::kRudReq, 3, 56, 0},    {PdsType::kRudReq, 3, 56, 0},
    {PdsType::kRudCcReq, 3, 60, 0},  {PdsType::kRudCcReq, 3, 60, 0},
    {PdsType::kRodReq, 3, 56, 0},    {PdsType::kRodReq, 3, 56, 0},
    {PdsType::kRodCcReq, 3, 60, 0},  {PdsType::kRodCcReq, 3, 60, 0},
    {PdsType::kAck, 4, 24, 0},       {PdsType::kAckCc, 4, 44, 0},
    {PdsType::kAckCc, 4, 44, 0},     {PdsType::kAckCcx, 4, 44, 0},
    {PdsType::kNack, 4, 28, 0},      {PdsType::kNackCcx, 4, 36, 0},
    // CTRL: the script writes a 12-byte CTRL header (no payload field)
    // and leaves the previous RSP bytes after it; read as 16 bytes, the
    // first 4 of them are the payload field and 8 remain.
    {PdsType::kCtrl, 8, 16, 8},      {PdsType::kCtrl, 9, 16, 8},
    {PdsType::kUudReq, 3, 48, 0},    {PdsType::kRudiReq, 3, 52, 0},
    {PdsType::kRudiResp, 4, 20, 0},
};

const Expect kSesExpect[] = {
    {PdsType::kRudReq, 3, 56, 0},  {PdsType::kRudReq, 3, 56, 0},
    {PdsType::kRudReq, 3, 56, 0},  {PdsType::kRudReq, 3, 56, 0},
    {PdsType::kRudReq, 3, 60, 0},  {PdsType::kRudReq, 3, 92, 0},
    {PdsType::kRudReq, 2, 44, 0},  {PdsType::kRudReq, 2, 48, 0},
    {PdsType::kRudReq, 2, 80, 0},  {PdsType::kRudReq, 1, 32, 0},
    {PdsType::kRudReq, 1, 36, 0},  {PdsType::kRudReq, 1, 68, 0},
    {PdsType::kRudiResp, 4, 20, 0}, {PdsType::kRudiResp, 5, 28, 0},
    {PdsType::kRudiResp, 6, 20, 0},
    // RENDEZVOUS_TSEND without the rendezvous extension header.
    {PdsType::kRudReq, 3, 56, 0},  {PdsType::kRudReq, 2, 44, 0},
};

void CheckAll(const char* const* frames, const Expect* expect,
              std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE("frame " + std::to_string(i + 1));
    const std::vector<std::byte> bytes = FromHex(frames[i]);
    const Result<UetPacket> p = ParseUet(bytes);
    ASSERT_TRUE(p.ok()) << p.message();
    EXPECT_EQ(p->headers.prologue().type,
              static_cast<uint8_t>(expect[i].type));
    EXPECT_EQ(p->headers.prologue().next_hdr, expect[i].next_hdr);
    EXPECT_EQ(p->header_size, expect[i].header_size);
    EXPECT_EQ(p->payload.size(), expect[i].payload_size);
    std::vector<std::byte> out(bytes.size());
    Writer w(out);
    ASSERT_TRUE(WriteUetHeaders(w, p->headers));
    w.WriteBytes(p->payload);
    EXPECT_EQ(ToU8(out), ToU8(bytes));
  }
}

TEST(UetSamplesTest, PdsFramesParseAndReencode) {
  static_assert(std::size(kPdsFrames) == std::size(kPdsExpect));
  CheckAll(kPdsFrames, kPdsExpect, std::size(kPdsFrames));
}

TEST(UetSamplesTest, SesFramesParseAndReencode) {
  static_assert(std::size(kSesFrames) == std::size(kSesExpect));
  CheckAll(kSesFrames, kSesExpect, std::size(kSesFrames));
}

UetHeaders Parse(const char* hex) {
  const Result<UetPacket> p = ParseUet(FromHex(hex));
  EXPECT_TRUE(p.ok()) << p.message();
  return p.ok() ? p->headers : UetHeaders{};
}

// make_uet_pds.py: MakeRudRequest(retrans=1, ackreq=0,
// clear_psn_offset=0x1234, psn=0x98765432, spdcid=0x3456, dpdcid=0x9abc)
// and MakeRequestSomHdrStd(READ, dc=1, rel=1, eom=1, message_id=0x1234,
// ri_generation=0x77, job_id=0xabcdef, pid_on_fep=0x678,
// resource_index=0x9ab, ...).
TEST(UetSamplesTest, PdsRudRequest) {
  const UetHeaders h = Parse(kPdsFrames[0]);
  const auto& req = std::get<PdsRequest>(h.pds);
  EXPECT_EQ(req.prologue.flags, pds_flags::kRetx);
  EXPECT_EQ(req.clear_psn_offset, 0x1234);
  EXPECT_EQ(req.psn, 0x98765432u);
  EXPECT_EQ(req.spdcid, 0x3456);
  EXPECT_EQ(req.dpdcid, 0x9abc);
  EXPECT_FALSE(req.cc);
  const SesRequest& ses = *h.ses_request;
  EXPECT_EQ(ses.opcode, static_cast<uint8_t>(SesOpcode::kRead));
  EXPECT_EQ(ses.flags, ses_flags::kDc | ses_flags::kRel | ses_flags::kEom |
                           ses_flags::kSom);
  EXPECT_EQ(ses.message_id, 0x1234);
  EXPECT_EQ(ses.ri_generation, 0x77);
  EXPECT_EQ(ses.job_id, 0xabcdefu);
  EXPECT_EQ(ses.pid(), 0x678);
  EXPECT_EQ(ses.ri(), 0x9ab);
  EXPECT_EQ(ses.buffer_offset, 0xfedcba9876543210u);
  EXPECT_EQ(ses.initiator, 0xfedcba98u);
  EXPECT_EQ(ses.memory_key, 0x1122334455667788u);
  EXPECT_EQ(ses.header_data, 0xaabbddddeeff0011u);
  EXPECT_EQ(ses.request_length, 0x99887766u);
}

// MakeRudRequestSynCc(..., use_rsv_pdc=1, psn_offset=0x876, ccc_id=0x77,
// credit_target=0x887766).
TEST(UetSamplesTest, PdsRudCcRequestSyn) {
  const auto req = std::get<PdsRequest>(Parse(kPdsFrames[3]).pds);
  EXPECT_TRUE(req.syn());
  EXPECT_EQ(PdcIdOrSyn::PdcInfo(req.dpdcid), PdcIdOrSyn::kUseReservedPdc);
  EXPECT_EQ(PdcIdOrSyn::PsnOffset(req.dpdcid), 0x876);
  EXPECT_EQ(req.cc, (PdsReqCcState{0x77, 0x887766}));
}

// MakeAck(ecn_marked=1, retrans=1, probe=0, request=1,
// cack_psn=0x2468ace0, ack_psn_offset=0x8642, spdcid=0x3456,
// dpdcid=0x789a) + MakeHdrResponse(list=3, RESPONSE, AT_PERM,
// message_id=0x1234, ri_generation=0x99, job_id=0x654321,
// modified_length=0x9abcdef).
TEST(UetSamplesTest, PdsAckWithResponse) {
  const UetHeaders h = Parse(kPdsFrames[8]);
  const auto& ack = std::get<PdsAck>(h.pds);
  EXPECT_EQ(ack.prologue.flags, pds_flags::kM | pds_flags::kRetx | 0x02);
  EXPECT_EQ(ack.request(), AckRequest::kClear);
  EXPECT_EQ(ack.ack_psn_offset, 0x8642);
  EXPECT_EQ(ack.cack_psn, 0x2468ace0u);
  EXPECT_EQ(ack.spdcid, 0x3456);
  EXPECT_EQ(ack.dpdcid, 0x789a);
  const SesResponse& rsp = *h.ses_response;
  EXPECT_EQ(rsp.list, 3);
  EXPECT_EQ(rsp.opcode, static_cast<uint8_t>(SesRspOpcode::kResponse));
  EXPECT_EQ(SesReturnCodeName(rsp.return_code), "AT_PERM");
  EXPECT_EQ(rsp.message_id, 0x1234);
  EXPECT_EQ(rsp.ri_generation, 0x99);
  EXPECT_EQ(rsp.job_id, 0x654321u);
  EXPECT_EQ(rsp.modified_length, 0x9abcdefu);
}

// MakeAckCcNscc(cc_flags=0xf, mpr=0x87, sack_psn_offset=0x6789,
// sack_bitmap=0x123456789abcdef0, service_time=0x99aa, restore_cwnd=1,
// rcv_cwnd_pend=0x7f, rcvd_bytes=0x887766, ooo_count=0x8765), then
// MakeAckCcCredit(..., credit=0x123456, ooo_count=0x8765) and
// MakeAckCcx(ccx_type=0xe, ack_cc_state=0x1122334455667788).
TEST(UetSamplesTest, PdsAckCc) {
  const PdsAckCc nscc = *std::get<PdsAck>(Parse(kPdsFrames[9]).pds).cc;
  EXPECT_EQ(nscc.cc_type, static_cast<uint8_t>(CcType::kNscc));
  EXPECT_EQ(nscc.cc_flags, 0xf);
  EXPECT_EQ(nscc.mpr, 0x87);
  EXPECT_EQ(nscc.sack_psn_offset, 0x6789);
  EXPECT_EQ(nscc.sack_bitmap, 0x123456789abcdef0u);
  EXPECT_EQ(nscc.service_time(), 0x99aa);
  EXPECT_TRUE(nscc.restore_cwnd());
  EXPECT_EQ(nscc.rcv_cwnd_pend(), 0x7f);
  EXPECT_EQ(nscc.rcvd_bytes(), 0x887766u);
  EXPECT_EQ(nscc.ooo_count(), 0x8765);

  const PdsAckCc credit = *std::get<PdsAck>(Parse(kPdsFrames[10]).pds).cc;
  EXPECT_EQ(credit.cc_type, static_cast<uint8_t>(CcType::kCredit));
  EXPECT_EQ(credit.sack_psn_offset, static_cast<int16_t>(0x9988));
  EXPECT_EQ(credit.credit(), 0x123456u);
  EXPECT_EQ(credit.credit_rsvd(), 0u);
  EXPECT_EQ(credit.ooo_count(), 0x8765);

  const PdsAckCc ccx = *std::get<PdsAck>(Parse(kPdsFrames[11]).pds).cc;
  EXPECT_EQ(ccx.cc_type, 0xe);
  EXPECT_EQ(ccx.cc_state, 0x1122334455667788u);
}

// MakeNack(ecn_marked=1, retrans=1, RUDI, PDC_MODE_MISMATCH,
// vendor_code=0x87, nak_psn_pkt_id=0x99887766, payload=0x56789abc), and
// MakeNackCcx(ecn_marked=0, RUD_ROD, INVALID_SYN, nccx_type=3,
// nccx_ccx_state1=0xf, nccx_ccx_state2=0xedcba9876543210).
TEST(UetSamplesTest, PdsNack) {
  const auto nack = std::get<PdsNack>(Parse(kPdsFrames[12]).pds);
  EXPECT_EQ(nack.prologue.flags,
            pds_flags::kM | pds_flags::kRetx | pds_flags::kNt);
  EXPECT_EQ(NackCodeName(nack.nack_code), "PDC_MODE_MISMATCH");
  EXPECT_EQ(nack.vendor_code, 0x87);
  EXPECT_EQ(nack.nack_psn, 0x99887766u);
  EXPECT_EQ(nack.payload, 0x56789abcu);
  const auto ccx = std::get<PdsNack>(Parse(kPdsFrames[13]).pds);
  EXPECT_EQ(ccx.prologue.flags, pds_flags::kRetx);
  EXPECT_EQ(NackCodeName(ccx.nack_code), "INVALID_SYN");
  // nccx_type 3, state1 0xf, then state2's low 56 bits: ctypes drops the
  // script's top nibble (0xe) of a 60-bit value in a 56-bit field.
  EXPECT_EQ(ccx.ccx, 0x3fdcba9876543210u);
}

// MakeControlPkt(CREDIT_REQ, rsvd_isrod=1, retrans=1, probe_opaque=0x9876,
// psn=0xcdef0123, spdcid=0xcdef, dpdcid=0xfedc) and MakeControlPktSyn(
// NEGOTIATION, retrans=1, probe_opaque=0x1234, use_rsv_pdc=1,
// psn_offset=0x876).
TEST(UetSamplesTest, PdsCtrl) {
  const auto ctrl = std::get<PdsCtrl>(Parse(kPdsFrames[14]).pds);
  EXPECT_EQ(ctrl.ctl_type(), CtlType::kCreditReq);
  EXPECT_EQ(ctrl.prologue.flags, pds_flags::kIsRod | pds_flags::kRetx);
  EXPECT_EQ(ctrl.probe_opaque, 0x9876);
  EXPECT_EQ(ctrl.psn, 0xcdef0123u);
  EXPECT_EQ(ctrl.spdcid, 0xcdef);
  EXPECT_EQ(ctrl.dpdcid, 0xfedc);
  const auto syn = std::get<PdsCtrl>(Parse(kPdsFrames[15]).pds);
  EXPECT_EQ(syn.ctl_type(), CtlType::kNegotiation);
  EXPECT_TRUE(syn.syn());
  EXPECT_EQ(PdcIdOrSyn::PsnOffset(syn.dpdcid), 0x876);
}

// MakeRudiRequest(ecn_marked=1, pkt_id=0x99887766); MakeUudReq(REQ_STD).
TEST(UetSamplesTest, PdsRudiAndUud) {
  const auto uud = std::get<PdsUud>(Parse(kPdsFrames[16]).pds);
  EXPECT_EQ(uud.prologue.flags, 0);
  const auto rudi = std::get<PdsRudi>(Parse(kPdsFrames[17]).pds);
  EXPECT_EQ(rudi.prologue.flags, pds_flags::kM);
  EXPECT_EQ(rudi.pkt_id, 0x99887766u);
}

// make_uet_ses.py frame 2: MakeRequestNoSomHdrStd(WRITE, ...,
// payload_length=0x345, message_offset=0x77665544).
TEST(UetSamplesTest, SesNotStartOfMessage) {
  const SesRequest r = *Parse(kSesFrames[1]).ses_request;
  EXPECT_FALSE(r.Has(ses_flags::kSom));
  EXPECT_EQ(r.payload_length(), 0x345);
  EXPECT_EQ(r.message_offset(), 0x77665544u);
  EXPECT_EQ(r.header_data_rsvd(), 0u);
}

// Frame 3: MakeDeferSendHdrStd(initiator_restart_token=0x87654321,
// target_restart_token=0x12345678, header_data=0xfedcba9876543210,
// start_of_msg=0): the tokens fill buffer_offset.  The script sets SOM=0
// yet writes header_data; read by the SOM=0 rule, that field shows
// reserved bits 0x3fb72 (0xfedc and the top 2 bits of 0xba98),
// payload_length 0x3a98 and message_offset 0x76543210.
TEST(UetSamplesTest, SesDeferrableSend) {
  const SesRequest r = *Parse(kSesFrames[2]).ses_request;
  EXPECT_EQ(r.opcode, static_cast<uint8_t>(SesOpcode::kDeferrableSend));
  EXPECT_EQ(r.buffer_offset, 0x8765432112345678u);
  EXPECT_EQ(r.header_data, 0xfedcba9876543210u);
  EXPECT_EQ(r.header_data_rsvd(), 0x3fb72u);
  EXPECT_EQ(r.payload_length(), 0x3a98);
  EXPECT_EQ(r.message_offset(), 0x76543210u);
  // Frame 4: DEFERRABLE_RTR carries the tokens in the memory key field.
  const SesRequest rtr = *Parse(kSesFrames[3]).ses_request;
  EXPECT_EQ(rtr.opcode, static_cast<uint8_t>(SesOpcode::kDeferrableRtr));
  EXPECT_EQ(rtr.buffer_offset, 0x8899aabbccddeeffu);
  EXPECT_EQ(rtr.memory_key, 0x8765432112345678u);
}

// Frames 5, 6: ATOMIC + MakeAtomicOpExtHdr(BXOR, FLOAT_COMPLEX,
// ctrl_cacheable=1, cpu_coherent=1, vendor_defined=7), then the
// compare-and-swap form (CSWAP_GE, compare 0x98765432987654322345678923456789,
// swap 0x0123456789abcdeffedcba0987654321).
TEST(UetSamplesTest, SesAtomic) {
  const SesAtomicExt a = *Parse(kSesFrames[4]).atomic;
  EXPECT_EQ(a.atomic_code, 0x0a);
  EXPECT_EQ(a.datatype, 0x0c);
  EXPECT_EQ(a.semantic_control, SesAtomicExt::kCacheable |
                                    SesAtomicExt::kCpuCoherent | 0x07);
  EXPECT_FALSE(a.compare);
  const SesAtomicExt cas = *Parse(kSesFrames[5]).atomic;
  EXPECT_EQ(cas.atomic_code, 0x11);
  ASSERT_TRUE(cas.compare);
  EXPECT_EQ((*cas.compare)[0], 0x98);
  EXPECT_EQ((*cas.compare)[15], 0x89);
  EXPECT_EQ((*cas.swap)[0], 0x01);
  EXPECT_EQ((*cas.swap)[15], 0x21);
}

// Frame 7: MakeRequestHdrMedium(WRITE, hdr_data_present=0, som=1, eom=1,
// header_data=0x9876543298765432, initiator=0x87654321,
// memory_key=0xccbbddeeff009988): HD clear, so bytes 12-19 are the
// buffer offset.  Frame 10: MakeRequestHdrSmall(READ,
// buffer_offset=0x9876543298765432).
TEST(UetSamplesTest, SesMediumAndSmall) {
  const SesRequest m = *Parse(kSesFrames[6]).ses_request;
  EXPECT_EQ(m.kind, SesRequestKind::kMedium);
  EXPECT_EQ(m.buffer_offset, 0x9876543298765432u);
  EXPECT_EQ(m.initiator, 0x87654321u);
  EXPECT_EQ(m.memory_key, 0xccbbddeeff009988u);
  EXPECT_EQ(m.short_request_length(), 0x1234);
  const SesRequest s = *Parse(kSesFrames[9]).ses_request;
  EXPECT_EQ(s.kind, SesRequestKind::kSmall);
  EXPECT_EQ(s.opcode, static_cast<uint8_t>(SesOpcode::kRead));
  EXPECT_EQ(s.buffer_offset, 0x9876543298765432u);
}

// Frames 13-15: responses.  Frame 13 carries RESPONSE_W_DATA in a
// no-data RSP header (the script's choice; kept as sent).  Frame 14:
// MakeWithDataHdrResponse(job_id=0x654321, read_request_message_id=0x1234,
// payload_length=0x321, modified_length=0x87654321,
// message_offset=0x9abcdef).  Frame 15: MakeWithDataHdrSmallResponse(
// job_id=223344, payload_length=0x3456, original_request_psn=0x1234).
TEST(UetSamplesTest, SesResponses) {
  const SesResponse rsp = *Parse(kSesFrames[12]).ses_response;
  EXPECT_EQ(rsp.kind, SesResponseKind::kRsp);
  EXPECT_EQ(rsp.opcode,
            static_cast<uint8_t>(SesRspOpcode::kResponseWithData));
  const SesResponse data = *Parse(kSesFrames[13]).ses_response;
  EXPECT_EQ(data.kind, SesResponseKind::kRspData);
  EXPECT_EQ(data.job_id, 0x654321u);
  EXPECT_EQ(data.read_request_message_id, 0x1234);
  EXPECT_EQ(data.payload_len(), 0x321);
  EXPECT_EQ(data.modified_length, 0x87654321u);
  EXPECT_EQ(data.message_offset, 0x9abcdefu);
  const SesResponse small = *Parse(kSesFrames[14]).ses_response;
  EXPECT_EQ(small.kind, SesResponseKind::kRspDataSmall);
  EXPECT_EQ(small.job_id, 223344u);
  EXPECT_EQ(small.payload_len(), 0x3456);
  EXPECT_EQ(small.original_request_psn, 0x1234u);
}

}  // namespace
}  // namespace rue::wire
