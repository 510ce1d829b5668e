// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// UET headers: hand-computed byte strings for known field values (each
// comment shows where the bits go), writers against them, parsers back,
// range checks, and every truncation.
#include <gtest/gtest.h>

#include <cstddef>
#include <string_view>
#include <vector>

#include "rue/wire/uet_packet.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using testing::ToU8;

std::vector<std::byte> FromHex(std::string_view hex) {
  std::vector<std::byte> out;
  auto nibble = [](char c) {
    return c <= '9' ? c - '0' : c - 'a' + 10;
  };
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    if (hex[i] == ' ') {
      --i;
      continue;
    }
    out.push_back(static_cast<std::byte>(nibble(hex[i]) << 4 |
                                         nibble(hex[i + 1])));
  }
  return out;
}

template <typename H>
std::vector<std::byte> Encode(const H& h, std::size_t size) {
  std::vector<std::byte> buf(size);
  Writer w(buf);
  EXPECT_TRUE(h.Write(w));
  EXPECT_EQ(w.length(), size);
  return buf;
}

std::vector<std::byte> EncodeHeaders(const UetHeaders& h) {
  std::vector<std::byte> buf(256);
  Writer w(buf);
  EXPECT_TRUE(WriteUetHeaders(w, h));
  buf.resize(w.length());
  return buf;
}

TEST(UetTest, PrologueBitPositions) {
  // type is bits 15-11, next_hdr bits 10-7, flags bits 6-0.
  EXPECT_EQ((PdsPrologue{0x1F, 0, 0}.Encode()), 0xF800);
  EXPECT_EQ((PdsPrologue{0, 0xF, 0}.Encode()), 0x0780);
  EXPECT_EQ((PdsPrologue{0, 0, 0x7F}.Encode()), 0x007F);
  EXPECT_EQ((PdsPrologue{1, 0, 0}.Encode()), 0x0800);
  EXPECT_EQ((PdsPrologue{0, 1, 0}.Encode()), 0x0080);
  EXPECT_EQ(PdsPrologue::Decode(0x0780).next_hdr, 0xF);
  EXPECT_EQ(PdsPrologue::Decode(0xF800).type, 0x1F);
  std::vector<std::byte> buf(2);
  Writer w(buf);
  EXPECT_FALSE((PdsPrologue{0x20, 0, 0}.Write(w)));
  Writer w2(buf);
  EXPECT_FALSE((PdsPrologue{2, 0x10, 0}.Write(w2)));
  Writer w3(buf);
  EXPECT_FALSE((PdsPrologue{2, 3, 0x80}.Write(w3)));
}

// A RUD request as rue sends it: REQ_STD follows, AR and RETX set.
//   0x1198 = 00010 (RUD_REQ) 0011 (REQ_STD) 0011000 (RETX 0x10 | AR 0x08)
//   fffe   clear_psn_offset -2
//   01020304 psn, 1111 spdcid, 2222 dpdcid
TEST(UetTest, RudRequest) {
  PdsRequest h;
  h.prologue = {2, 3, pds_flags::kRetx | pds_flags::kAr};
  h.clear_psn_offset = -2;
  h.psn = 0x01020304;
  h.spdcid = 0x1111;
  h.dpdcid = 0x2222;
  const auto bytes = FromHex("1198 fffe 01020304 1111 2222");
  EXPECT_EQ(ToU8(Encode(h, 12)), ToU8(bytes));
  Reader r(bytes);
  auto p = PdsPrologue::Parse(r);
  ASSERT_TRUE(p);
  auto parsed = PdsRequest::Parse(r, *p, false);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(*parsed, h);
  EXPECT_EQ(parsed->clear_psn_offset, -2);
  EXPECT_FALSE(parsed->syn());
}

// ROD_CC_REQ with SYN: pdc_info 0x8 (use reserved PDC) and psn_offset
// 0x123 in place of the DPDCID, then ccc_id 0x44, credit_target 0x556677.
//   0x7004 = 01110 (ROD_CC_REQ) 0000 (NONE) 0000100 (SYN)
TEST(UetTest, RodCcRequestSyn) {
  PdsRequest h;
  h.prologue = {14, 0, pds_flags::kSyn};
  h.psn = 0xa0000001;
  h.spdcid = 0x0042;
  h.dpdcid = *PdcIdOrSyn::Make(0x8, 0x123);
  h.cc = PdsReqCcState{0x44, 0x556677};
  const auto bytes = FromHex("7004 0000 a0000001 0042 8123 44556677");
  EXPECT_EQ(ToU8(Encode(h, 16)), ToU8(bytes));
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  const auto& req = std::get<PdsRequest>(packet->headers.pds);
  EXPECT_TRUE(req.syn());
  EXPECT_EQ(PdcIdOrSyn::PdcInfo(req.dpdcid), 0x8);
  EXPECT_EQ(PdcIdOrSyn::PsnOffset(req.dpdcid), 0x123);
  EXPECT_EQ(req.cc, (PdsReqCcState{0x44, 0x556677}));
  EXPECT_FALSE(PdcIdOrSyn::Make(0x10, 0));
  EXPECT_FALSE(PdcIdOrSyn::Make(0, 0x1000));
  h.cc->credit_target = 0x1000000;
  std::vector<std::byte> buf(16);
  Writer w(buf);
  EXPECT_FALSE(h.Write(w));
}

// ACK: 0x3800 = 00111 (ACK) 0000 (NONE) 0000000; REQ = close (2) is 0x04.
//   0x3834: M 0x20 | RETX 0x10 | REQ close 0x04
TEST(UetTest, Ack) {
  PdsAck h;
  h.prologue = {7, 0, pds_flags::kM | pds_flags::kRetx | 0x04};
  h.ack_psn_offset = 0x0003;
  h.cack_psn = 0x00010000;
  h.spdcid = 0x0a0b;
  h.dpdcid = 0x0c0d;
  const auto bytes = FromHex("3834 0003 00010000 0a0b 0c0d");
  EXPECT_EQ(ToU8(Encode(h, 12)), ToU8(bytes));
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  const auto& ack = std::get<PdsAck>(packet->headers.pds);
  EXPECT_EQ(ack, h);
  EXPECT_EQ(ack.request(), AckRequest::kClose);
  EXPECT_TRUE(packet->payload.empty());
}

// ACK_CC with NSCC state, as rue sends it after a SACK hole:
//   4000 = 01000 (ACK_CC) 0000 0000000
//   cc_type 0 | cc_flags 0 -> 00; mpr 0x08; sack_psn_offset -8 -> fff8
//   sack bitmap 0x00000000000000f0
//   service_time 0x0100 | restore_cwnd 1, rcv_cwnd_pend 0x05 -> 0x85 |
//   rcvd_bytes 0x001000 | ooo_count 0x0004
TEST(UetTest, AckCcNscc) {
  PdsAck h;
  h.prologue = {8, 0, 0};
  h.cack_psn = 0x100;
  h.spdcid = 1;
  h.dpdcid = 2;
  h.cc = PdsAckCc{0, 0, 0x08, -8, 0xf0,
                  PdsAckCc::MakeNscc(0x0100, true, 0x05, 0x1000, 4)};
  const auto bytes = FromHex(
      "4000 0000 00000100 0001 0002 00 08 fff8 00000000000000f0 "
      "0100 85 001000 0004");
  EXPECT_EQ(ToU8(Encode(h, 32)), ToU8(bytes));
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  const PdsAckCc& cc = *std::get<PdsAck>(packet->headers.pds).cc;
  EXPECT_EQ(cc.sack_psn_offset, -8);
  EXPECT_EQ(cc.service_time(), 0x0100);
  EXPECT_TRUE(cc.restore_cwnd());
  EXPECT_EQ(cc.rcv_cwnd_pend(), 5);
  EXPECT_EQ(cc.rcvd_bytes(), 0x1000u);
  EXPECT_EQ(cc.ooo_count(), 4);
}

// Credit state: cc_type 1 in the high nibble -> 0x10; credit:24 first.
TEST(UetTest, AckCcCredit) {
  PdsAck h;
  h.prologue = {8, 0, 0};
  h.cc = PdsAckCc{1, 0, 0, 0, 0, PdsAckCc::MakeCredit(0xabcdef, 0x0102)};
  const auto bytes = FromHex(
      "4000 0000 00000000 0000 0000 10 00 0000 0000000000000000 "
      "abcdef 000000 0102");
  EXPECT_EQ(ToU8(Encode(h, 32)), ToU8(bytes));
  EXPECT_EQ(h.cc->credit(), 0xabcdefu);
  EXPECT_EQ(h.cc->credit_rsvd(), 0u);
  EXPECT_EQ(h.cc->ooo_count(), 0x0102);
  h.cc->cc_type = 0x10;
  std::vector<std::byte> buf(32);
  Writer w(buf);
  EXPECT_FALSE(h.Write(w));
}

// NACK: 0x5008 = 01010 (NACK) 0000 0001000 (NT: a RUDI NACK)
TEST(UetTest, Nack) {
  PdsNack h;
  h.prologue = {10, 0, pds_flags::kNt};
  h.nack_code = static_cast<uint8_t>(NackCode::kNoPktBuffer);
  h.vendor_code = 0;
  h.nack_psn = 0xdeadbeef;
  h.spdcid = 3;
  h.dpdcid = 4;
  h.payload = 0x11223344;
  const auto bytes = FromHex("5008 07 00 deadbeef 0003 0004 11223344");
  EXPECT_EQ(ToU8(Encode(h, 16)), ToU8(bytes));
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  EXPECT_EQ(std::get<PdsNack>(packet->headers.pds), h);
  EXPECT_EQ(NackCodeName(h.nack_code), "NO_PKT_BUFFER");
}

// CTRL CLOSE with AR: 0x5a08 = 01011 (CTRL) 0100 (CLOSE) 0001000 (AR)
TEST(UetTest, CtrlClose) {
  PdsCtrl h;
  h.prologue = {11, static_cast<uint8_t>(CtlType::kClose), pds_flags::kAr};
  h.psn = 0x20;
  h.spdcid = 5;
  h.dpdcid = 6;
  const auto bytes = FromHex("5a08 0000 00000020 0005 0006 00000000");
  EXPECT_EQ(ToU8(Encode(h, 16)), ToU8(bytes));
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  EXPECT_EQ(std::get<PdsCtrl>(packet->headers.pds).ctl_type(),
            CtlType::kClose);
  EXPECT_FALSE(packet->headers.ses_request);
}

// RUD_REQ + standard SES SEND, SOM and EOM, 5 bytes of payload:
//   1180 = RUD_REQ, REQ_STD, no flags
//   05 = rsvd 00 | opcode 000101 (SEND); 03 = ver 00 | EOM | SOM
//   0102 message_id; 03 ri_generation; 040506 job_id
//   0789 pid_on_fep; 0abc resource_index
TEST(UetTest, StandardRequest) {
  UetHeaders h;
  PdsRequest pds;
  pds.prologue = {2, 3, 0};
  pds.psn = 7;
  h.pds = pds;
  SesRequest ses;
  ses.opcode = static_cast<uint8_t>(SesOpcode::kSend);
  ses.flags = ses_flags::kSom | ses_flags::kEom;
  ses.message_id = 0x0102;
  ses.ri_generation = 3;
  ses.job_id = 0x040506;
  ses.pid_on_fep = 0x0789;
  ses.resource_index = 0x0abc;
  ses.buffer_offset = 0x1000;
  ses.initiator = 0x0a0b0c0d;
  ses.memory_key = 0x1122334455667788;
  ses.header_data = 0xcafe;
  ses.request_length = 5;
  h.ses_request = ses;
  const auto headers = FromHex(
      "1180 0000 00000007 0000 0000 "
      "05 03 0102 03 040506 0789 0abc 0000000000001000 0a0b0c0d "
      "1122334455667788 000000000000cafe 00000005");
  EXPECT_EQ(ToU8(EncodeHeaders(h)), ToU8(headers));
  auto bytes = headers;
  for (int i = 0; i < 5; ++i) bytes.push_back(std::byte{0xee});
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  EXPECT_EQ(packet->headers, h);
  EXPECT_EQ(packet->header_size, 56u);
  EXPECT_EQ(packet->payload.size(), 5u);
  EXPECT_EQ(packet->headers.ses_request->pid(), 0x789);
  EXPECT_EQ(packet->headers.ses_request->ri(), 0xabc);

  // SOM clear: payload_length 0x3fff (all 14 bits) and message_offset.
  h.ses_request->flags = ses_flags::kEom;
  h.ses_request->header_data = SesRequest::MakeNotSom(0x3fff, 0x00002000);
  const auto not_som = EncodeHeaders(h);
  EXPECT_EQ(ToU8(std::span(not_som).subspan(12 + 32, 8)),
            ToU8(FromHex("00003fff00002000")));
  EXPECT_EQ(h.ses_request->payload_length(), 0x3fff);
  EXPECT_EQ(h.ses_request->message_offset(), 0x2000u);
  EXPECT_EQ(h.ses_request->header_data_rsvd(), 0u);

  h.ses_request->job_id = 0x1000000;
  std::vector<std::byte> buf(64);
  Writer w(buf);
  EXPECT_FALSE(WriteUetHeaders(w, h));
}

// Medium: HD decides whether bytes 12-19 are header_data or buffer_offset.
TEST(UetTest, MediumRequest) {
  const auto bytes = FromHex(
      "1100 0000 00000000 0000 0000 "
      "01 07 0040 00 000001 0002 0003 0123456789abcdef 00000009 "
      "00000000000000aa");
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  const SesRequest& r = *packet->headers.ses_request;
  EXPECT_EQ(r.kind, SesRequestKind::kMedium);
  EXPECT_TRUE(r.Has(ses_flags::kHd));
  EXPECT_EQ(r.header_data, 0x0123456789abcdefu);
  EXPECT_EQ(r.buffer_offset, 0u);
  EXPECT_EQ(r.short_request_length(), 0x40);
  EXPECT_EQ(r.memory_key, 0xaau);
  EXPECT_EQ(ToU8(EncodeHeaders(packet->headers)), ToU8(bytes));
}

// RUDI_RESP (0x2a00: 00101 0100 0000000) + RSP: list 0, RESPONSE (01),
// ver 0 | OK (01), message 0x0010, ri_gen 0, job 0x000001, modified 64.
TEST(UetTest, Response) {
  const auto bytes =
      FromHex("2a00 0000 00000009 01 01 0010 00 000001 00000040");
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  const SesResponse& r = *packet->headers.ses_response;
  EXPECT_EQ(r.opcode, static_cast<uint8_t>(SesRspOpcode::kResponse));
  EXPECT_EQ(SesReturnCodeName(r.return_code), "OK");
  EXPECT_EQ(r.message_id, 0x10);
  EXPECT_EQ(r.job_id, 1u);
  EXPECT_EQ(r.modified_length, 64u);
  EXPECT_EQ(std::get<PdsRudi>(packet->headers.pds).pkt_id, 9u);
  EXPECT_EQ(ToU8(EncodeHeaders(packet->headers)), ToU8(bytes));
}

// ACK + RSP_DATA with 4096 bytes (0x1000: needs the 13th bit).
TEST(UetTest, ResponseWithData) {
  UetHeaders h;
  PdsAck ack;
  ack.prologue = {7, 5, 0};
  h.pds = ack;
  SesResponse r;
  r.kind = SesResponseKind::kRspData;
  r.list = 1;
  r.opcode = static_cast<uint8_t>(SesRspOpcode::kResponseWithData);
  r.return_code = 1;
  r.message_id = 0x0203;
  r.job_id = 0x0a0b0c;
  r.read_request_message_id = 0x0405;
  r.payload_length = 0x1000;
  r.modified_length = 0x2000;
  r.message_offset = 0x3000;
  h.ses_response = r;
  //   42 = list 01 | opcode 000010; 01 = ver 00 | rc 000001
  const auto bytes = FromHex(
      "3a80 0000 00000000 0000 0000 "
      "42 01 0203 00 0a0b0c 0405 1000 00002000 00003000");
  EXPECT_EQ(ToU8(EncodeHeaders(h)), ToU8(bytes));
  const Result<UetPacket> packet = ParseUet(bytes);
  ASSERT_TRUE(packet.ok()) << packet.message();
  EXPECT_EQ(packet->headers, h);
  EXPECT_EQ(packet->headers.ses_response->payload_len(), 4096);
}

TEST(UetTest, HeadersMustAgree) {
  UetHeaders h;
  PdsRequest pds;
  pds.prologue = {2, 3, 0};
  h.pds = pds;
  std::vector<std::byte> buf(128);
  {
    Writer w(buf);  // REQ_STD named, no SES header given
    EXPECT_FALSE(WriteUetHeaders(w, h));
  }
  h.ses_request = SesRequest{};
  h.ses_request->kind = SesRequestKind::kSmall;
  {
    Writer w(buf);  // the wrong kind
    EXPECT_FALSE(WriteUetHeaders(w, h));
  }
  h.ses_request->kind = SesRequestKind::kStd;
  h.ses_request->opcode = static_cast<uint8_t>(SesOpcode::kAtomic);
  {
    Writer w(buf);  // ATOMIC without its extension header
    EXPECT_FALSE(WriteUetHeaders(w, h));
  }
  h.atomic = SesAtomicExt{};
  {
    Writer w(buf);
    EXPECT_TRUE(WriteUetHeaders(w, h));
    EXPECT_EQ(w.length(), 12u + 44u + 4u);
  }
  h.atomic->atomic_code = 0x0d;  // CSWAP without operands
  {
    Writer w(buf);
    EXPECT_FALSE(WriteUetHeaders(w, h));
  }
}

TEST(UetTest, Rejects) {
  struct Case {
    std::string_view hex;
    ErrorCode code;
    std::string_view message;
  };
  const Case cases[] = {
      {"11", ErrorCode::kTruncated, "PDS prologue: need 2 bytes, have 1"},
      {"0000", ErrorCode::kUnknownOpcode, "PDS type 0 is reserved"},
      {"7800 0000", ErrorCode::kUnknownOpcode, "PDS type 15 is reserved"},
      {"0800 0000 0000 0000 0000 0000", ErrorCode::kUnknownOpcode,
       "PDS type 1 (TSS): encrypted packets are not decoded"},
      {"1380 0000 00000000 0000 0000", ErrorCode::kUnknownOpcode,
       "PDS next header 7 is reserved"},
      {"5d00 0000 00000000 0000 0000 00000000", ErrorCode::kUnknownOpcode,
       "CTRL type 10 is reserved"},
      {"1180 0000 00000000 0000", ErrorCode::kTruncated,
       "RUD_REQ header: need 12 bytes, have 10"},
      {"4000 0000 00000000 0000 0000", ErrorCode::kTruncated,
       "ACK_CC header: need 32 bytes, have 12"},
      {"1180 0000 00000000 0000 0000 05", ErrorCode::kTruncated,
       "SES REQ_STD header: need 44 bytes, have 1"},
      {"3a00 0000 00000000 0000 0000 0101", ErrorCode::kTruncated,
       "SES RSP header: need 12 bytes, have 2"},
      {"1080 0000 00000000 0000 0000 03000000 00000000 00000000 "
       "0000000000000000 0d00",
       ErrorCode::kTruncated, "SES atomic extension header: need 4 bytes, "
                              "have 2"},
      {"1080 0000 00000000 0000 0000 03000000 00000000 00000000 "
       "0000000000000000 0d000000",
       ErrorCode::kTruncated,
       "SES compare-and-swap extension header: need 36 bytes, have 4"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.hex);
    const Result<UetPacket> r = ParseUet(FromHex(c.hex));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.code(), c.code);
    EXPECT_EQ(r.message(), c.message);
  }
}

// Every prefix of a packet with all layers is rejected as truncated, up to
// the end of the headers; from there on the rest is payload.
TEST(UetTest, EveryTruncation) {
  const auto bytes = FromHex(
      "6990 1234 98765432 3456 9abc 77887766 "
      "032a 1234 77abcdef 0678 09ab fedcba9876543210 fedcba98 "
      "1122334455667788 0000034577665544 99887766 "
      "110cc700 98765432987654322345678923456789 "
      "0123456789abcdeffedcba0987654321");
  ASSERT_TRUE(ParseUet(bytes).ok());
  const std::size_t headers = 16 + 44 + 36;
  ASSERT_EQ(bytes.size(), headers);
  for (std::size_t n = 0; n < headers; ++n) {
    const Result<UetPacket> r = ParseUet(std::span(bytes).first(n));
    EXPECT_EQ(r.code(), ErrorCode::kTruncated) << n;
  }
}

TEST(UetTest, Names) {
  EXPECT_EQ(PdsTypeName(2), "RUD_REQ");
  EXPECT_EQ(PdsTypeName(15), "");
  EXPECT_EQ(NextHeaderName(6), "RSP_DATA_SMALL");
  EXPECT_EQ(CtlTypeName(9), "NEGOTIATION");
  EXPECT_EQ(CtlTypeName(10), "");
  EXPECT_EQ(NackCodeName(0x0B), "PSN_OOR_WINDOW");
  EXPECT_EQ(NackCodeName(0x0D), "ROD_OOO");
  EXPECT_EQ(NackCodeName(0xFF), "EXP_NACK_FATAL");
  EXPECT_EQ(NackCodeName(0x1B), "");
  EXPECT_EQ(SesOpcodeName(0x0C), "DEFERRABLE_RTR");
  EXPECT_EQ(SesOpcodeName(0x10), "");
  EXPECT_EQ(SesRspOpcodeName(3), "NO_RESPONSE");
  EXPECT_EQ(SesReturnCodeName(9), "AT_PERM");
  EXPECT_EQ(SesReturnCodeName(0x25), "");
}

TEST(UetTest, Entropy) {
  const auto bytes = FromHex("beef 0000");
  Reader r(bytes);
  const auto e = UetEntropy::Parse(r);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->entropy, 0xbeef);
  EXPECT_EQ(ToU8(Encode(*e, 4)), ToU8(bytes));
  Reader short_reader{std::span(bytes).first(3)};
  EXPECT_FALSE(UetEntropy::Parse(short_reader));
}

}  // namespace
}  // namespace rue::wire
