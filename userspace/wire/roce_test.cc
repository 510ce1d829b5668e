// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/roce.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include "rue/wire/reader.h"
#include "rue/wire/writer.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::Bytes;

template <typename H>
std::vector<std::byte> Encode(const H& h) {
  std::vector<std::byte> out(H::kSize);
  Writer w(out);
  EXPECT_TRUE(h.Write(w));
  EXPECT_EQ(w.length(), H::kSize);
  return out;
}

template <typename H>
std::optional<H> Decode(std::span<const std::byte> bytes) {
  Reader r(bytes);
  std::optional<H> h = H::Parse(r);
  if (h) {
    EXPECT_EQ(r.offset(), H::kSize);
  }
  return h;
}

// Parse must fail cleanly, and leave the reader poisoned, for every length
// shorter than the header; and Write must fail for every buffer too small.
template <typename H>
void ExpectTruncationFails(const H& h) {
  const std::vector<std::byte> full = Encode(h);
  for (std::size_t n = 0; n < H::kSize; ++n) {
    Reader r(std::span<const std::byte>(full).first(n));
    EXPECT_FALSE(H::Parse(r).has_value()) << n;
    EXPECT_FALSE(r.ok()) << n;
    std::vector<std::byte> small(n);
    Writer w(small);
    EXPECT_FALSE(h.Write(w)) << n;
    EXPECT_FALSE(w.ok()) << n;
  }
}

TEST(BthTest, EncodesEveryField) {
  Bth bth;
  bth.opcode = 0x0b;
  bth.se = true;
  bth.m = false;
  bth.pad_count = 2;
  bth.tver = 0;
  bth.pkey = 0x8001;
  bth.fecn = false;
  bth.becn = true;
  bth.dest_qp = 0xabcdef;
  bth.ack_req = true;
  bth.psn = 0x123456;
  EXPECT_EQ(Encode(bth), Bytes({0x0b, 0xa0, 0x80, 0x01, 0x40, 0xab, 0xcd,
                                0xef, 0x80, 0x12, 0x34, 0x56}));
}

TEST(BthTest, DecodesEveryBit) {
  const std::vector<std::byte> bytes =
      Bytes({0x81, 0x7f, 0xff, 0xfe, 0xbf, 0x00, 0x00, 0xd2, 0x7f, 0xff,
             0xff, 0xff});
  std::optional<Bth> bth = Decode<Bth>(bytes);
  ASSERT_TRUE(bth);
  EXPECT_EQ(bth->opcode, 0x81);
  EXPECT_FALSE(bth->se);
  EXPECT_TRUE(bth->m);
  EXPECT_EQ(bth->pad_count, 3);
  EXPECT_EQ(bth->tver, 0xf);
  EXPECT_EQ(bth->pkey, 0xfffe);
  EXPECT_TRUE(bth->fecn);
  EXPECT_FALSE(bth->becn);
  EXPECT_EQ(bth->resv6, 0x3f);
  EXPECT_EQ(bth->dest_qp, 0xd2u);
  EXPECT_FALSE(bth->ack_req);
  EXPECT_EQ(bth->resv7, 0x7f);
  EXPECT_EQ(bth->psn, 0xffffffu);
  // Reserved bits survive a round trip.
  EXPECT_EQ(Encode(*bth), bytes);
}

TEST(BthTest, WriteRejectsOutOfRangeFields) {
  auto fails = [](Bth bth) {
    std::array<std::byte, Bth::kSize> buf{};
    Writer w(buf);
    bool ok = bth.Write(w);
    return !ok && !w.ok() && w.length() == 0;
  };
  Bth bth;
  bth.pad_count = 4;
  EXPECT_TRUE(fails(bth));
  bth = Bth();
  bth.tver = 16;
  EXPECT_TRUE(fails(bth));
  bth = Bth();
  bth.dest_qp = 0x1000000;
  EXPECT_TRUE(fails(bth));
  bth = Bth();
  bth.psn = 0x1000000;
  EXPECT_TRUE(fails(bth));
  bth = Bth();
  bth.resv6 = 0x40;
  EXPECT_TRUE(fails(bth));
  bth = Bth();
  bth.resv7 = 0x80;
  EXPECT_TRUE(fails(bth));
}

TEST(BthTest, Truncated) {
  Bth bth;
  bth.dest_qp = 1;
  ExpectTruncationFails(bth);
}

TEST(RethTest, RoundTrip) {
  Reth reth{.va = 0x0102030405060708ull, .rkey = 0x090a0b0c,
            .dma_length = 0x0d0e0f10};
  const std::vector<std::byte> bytes = Encode(reth);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_EQ(bytes[i], static_cast<std::byte>(i + 1));
  }
  EXPECT_EQ(Decode<Reth>(bytes), reth);
  ExpectTruncationFails(reth);
}

TEST(AethTest, RoundTripAndSyndrome) {
  Aeth aeth{.syndrome = 0x61, .msn = 0x00abcd};
  EXPECT_EQ(Encode(aeth), Bytes({0x61, 0x00, 0xab, 0xcd}));
  EXPECT_EQ(Decode<Aeth>(Encode(aeth)), aeth);
  EXPECT_EQ(aeth.type(), AethType::kNak);
  EXPECT_EQ(aeth.value(), static_cast<uint8_t>(NakCode::kInvalidRequest));
  ExpectTruncationFails(aeth);

  const Aeth ack{.syndrome = 0x1f, .msn = 0};
  EXPECT_EQ(ack.type(), AethType::kAck);
  EXPECT_EQ(ack.value(), Aeth::kInvalidCreditCount);
  const Aeth rnr{.syndrome = 0x2e, .msn = 0};
  EXPECT_EQ(rnr.type(), AethType::kRnrNak);
  EXPECT_EQ(rnr.value(), 0x0e);
  EXPECT_EQ(Aeth::MakeSyndrome(AethType::kRnrNak, 0x0e), 0x2e);
  EXPECT_EQ(Aeth::MakeSyndrome(AethType::kAck, 0x1f), 0x1f);
}

TEST(AethTest, WriteRejectsWideMsn) {
  std::array<std::byte, Aeth::kSize> buf{};
  Writer w(buf);
  EXPECT_FALSE((Aeth{.syndrome = 0, .msn = 0x1000000}.Write(w)));
}

TEST(DethTest, RoundTrip) {
  Deth deth{.qkey = 0x80010000, .rsvd = 0, .src_qp = 0x000033};
  EXPECT_EQ(Encode(deth),
            Bytes({0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x33}));
  EXPECT_EQ(Decode<Deth>(Encode(deth)), deth);
  ExpectTruncationFails(deth);
  std::array<std::byte, Deth::kSize> buf{};
  Writer w(buf);
  EXPECT_FALSE((Deth{.qkey = 0, .rsvd = 0, .src_qp = 0x1000000}.Write(w)));
}

TEST(ImmDtTest, RoundTrip) {
  ImmDt imm{.imm = 0xdeadbeef};
  EXPECT_EQ(Encode(imm), Bytes({0xde, 0xad, 0xbe, 0xef}));
  EXPECT_EQ(Decode<ImmDt>(Encode(imm)), imm);
  ExpectTruncationFails(imm);
}

TEST(IethTest, RoundTrip) {
  Ieth ieth{.rkey = 0x00beef01};
  EXPECT_EQ(Encode(ieth), Bytes({0x00, 0xbe, 0xef, 0x01}));
  EXPECT_EQ(Decode<Ieth>(Encode(ieth)), ieth);
  ExpectTruncationFails(ieth);
}

TEST(AtomicEthTest, RoundTrip) {
  AtomicEth a{.va = 0x0102030405060708ull, .rkey = 0x090a0b0c,
              .swap_add = 0x0d0e0f1011121314ull,
              .compare = 0x15161718191a1b1cull};
  const std::vector<std::byte> bytes = Encode(a);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    EXPECT_EQ(bytes[i], static_cast<std::byte>(i + 1));
  }
  EXPECT_EQ(Decode<AtomicEth>(bytes), a);
  ExpectTruncationFails(a);
}

TEST(AtomicAckEthTest, RoundTrip) {
  AtomicAckEth a{.original_data = 0x0123456789abcdefull};
  EXPECT_EQ(Encode(a),
            Bytes({0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}));
  EXPECT_EQ(Decode<AtomicAckEth>(Encode(a)), a);
  ExpectTruncationFails(a);
}

TEST(CnpReservedTest, RoundTrip) {
  CnpReserved c;
  c.rsvd[15] = 0x5a;
  const std::vector<std::byte> bytes = Encode(c);
  EXPECT_EQ(bytes[15], std::byte{0x5a});
  EXPECT_EQ(Decode<CnpReserved>(bytes), c);
  ExpectTruncationFails(c);
}

}  // namespace
}  // namespace rue::wire
