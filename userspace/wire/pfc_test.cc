// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/pfc.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rue/wire/reader.h"
#include "rue/wire/result.h"
#include "rue/wire/writer.h"
#include "test_util.h"

namespace rue::wire {
namespace {

using ::rue::wire::testing::ToBytes;
using ::rue::wire::testing::ToU8;

// Golden frames from scapy 2.5.0 (scapy.contrib.mac_control), raw(...) of
// the expression above each; tshark 4.0 dissects them the same way.

// Ether(dst='01:80:c2:00:00:01', src='02:00:00:00:00:01')/
//     MACControlClassBasedFlowControl(c3_enabled=1, c3_pause_time=0xffff)
const std::vector<uint8_t> kXoffPriority3 = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,  // dst: MAC Control multicast
    0x02, 0x00, 0x00, 0x00, 0x00, 0x01,  // src
    0x88, 0x08,                          // EtherType MAC Control
    0x01, 0x01,                          // opcode PFC
    0x00, 0x08,                          // enable vector: priority 3
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[0..2]
    0xff, 0xff,                          // time[3]
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[4..7]
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 26 bytes of pad
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x00, 0x00,                                      //
};

// Ether(dst='01:80:c2:00:00:01', src='a0:36:9f:12:34:56')/
//     MACControlClassBasedFlowControl(c0_enabled=1, c0_pause_time=0x1234,
//         c5_enabled=1, c5_pause_time=1, c7_enabled=1, c7_pause_time=0)
const std::vector<uint8_t> kThreePriorities = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,  // dst
    0xa0, 0x36, 0x9f, 0x12, 0x34, 0x56,  // src
    0x88, 0x08, 0x01, 0x01,              // EtherType, opcode
    0x00, 0xa1,                          // priorities 0, 5, 7
    0x12, 0x34,                          // time[0]
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // time[1..4]
    0x00, 0x01,                                      // time[5]
    0x00, 0x00,                                      // time[6]
    0x00, 0x00,                                      // time[7]: XON
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // pad
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  //
    0x00, 0x00,                                      //
};

// An 802.3x PAUSE: same EtherType, opcode 0x0001, one pause_time.
// Ether(dst='01:80:c2:00:00:01', src='02:00:00:00:00:01')/
//     MACControlPause(pause_time=0xffff)
const std::vector<uint8_t> kPause = {
    0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
    0x00, 0x01, 0x88, 0x08, 0x00, 0x01, 0xff, 0xff, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

constexpr MacAddress kSrc = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};

PfcFrame XoffPriority3() {
  PfcFrame f;
  f.src = kSrc;
  f.Pause(3, 0xffff);
  return f;
}

// The golden with one byte changed.
std::vector<std::byte> Patched(std::size_t offset, uint8_t value) {
  std::vector<std::byte> bytes = ToBytes(kXoffPriority3);
  bytes[offset] = static_cast<std::byte>(value);
  return bytes;
}

TEST(PfcFrameTest, DefaultsAreAPfcFrameThatPausesNothing) {
  const PfcFrame f;
  EXPECT_EQ(f.dst, kMacControlAddress);
  EXPECT_EQ(f.ethertype, 0x8808);
  EXPECT_EQ(f.opcode, 0x0101);
  EXPECT_EQ(f.priority_enable_vector, 0);
  for (std::size_t p = 0; p < kPfcPriorities; ++p) {
    EXPECT_FALSE(f.Enabled(p));
    EXPECT_EQ(f.time[p], 0);
  }
  EXPECT_TRUE(ParsePfcFrame(EncodePfcFrame(f)).ok());
}

TEST(PfcFrameTest, EncodesTheGoldens) {
  EXPECT_EQ(ToU8(EncodePfcFrame(XoffPriority3())), kXoffPriority3);

  PfcFrame f;
  f.src = {0xa0, 0x36, 0x9f, 0x12, 0x34, 0x56};
  f.Pause(0, 0x1234);
  f.Pause(5, 1);
  f.Pause(7, 0);
  EXPECT_EQ(f.priority_enable_vector, 0xa1);
  EXPECT_EQ(ToU8(EncodePfcFrame(f)), kThreePriorities);
}

TEST(PfcFrameTest, ParsesTheGoldens) {
  Result<PfcFrame> f = ParsePfcFrame(ToBytes(kXoffPriority3));
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(*f, XoffPriority3());
  EXPECT_TRUE(f->Enabled(3));
  EXPECT_FALSE(f->Enabled(2));
  EXPECT_FALSE(f->Enabled(8));
  EXPECT_EQ(f->time[3], 0xffff);

  f = ParsePfcFrame(ToBytes(kThreePriorities));
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(f->src, (MacAddress{0xa0, 0x36, 0x9f, 0x12, 0x34, 0x56}));
  EXPECT_EQ(f->priority_enable_vector, 0x00a1);
  EXPECT_EQ(f->time, (std::array<uint16_t, 8>{0x1234, 0, 0, 0, 0, 1, 0, 0}));
  EXPECT_TRUE(f->Enabled(7));  // enabled with time 0: XON
}

TEST(PfcFrameTest, ParseAndWriteRoundTripEveryField) {
  PfcFrame f;
  f.dst = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};  // unicast: allowed
  f.src = {0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
  f.priority_enable_vector = 0x00ff;
  for (std::size_t p = 0; p < kPfcPriorities; ++p) {
    f.time[p] = static_cast<uint16_t>(0x1111 * (p + 1));
  }
  const std::array<std::byte, PfcFrame::kSize> bytes = EncodePfcFrame(f);
  Reader r(bytes);
  std::optional<PfcFrame> decoded = PfcFrame::Parse(r);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(*decoded, f);
  EXPECT_TRUE(r.AtEnd());
  Result<PfcFrame> parsed = ParsePfcFrame(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, f);
}

// The decoder keeps what the parser refuses, so that tools can show it.
TEST(PfcFrameTest, DecoderDoesNotJudge) {
  std::vector<std::byte> bytes = ToBytes(kPause);
  bytes[16] = std::byte{0xff};  // as if reserved bits were set
  Reader r(bytes);
  std::optional<PfcFrame> f = PfcFrame::Parse(r);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->opcode, kMacControlOpcodePause);
  EXPECT_EQ(f->priority_enable_vector, 0xffff);
}

TEST(PfcFrameTest, WriteKeepsMalformedFields) {
  PfcFrame f = XoffPriority3();
  f.ethertype = 0x0800;
  f.opcode = 0x0001;
  f.priority_enable_vector |= PfcFrame::kReservedMask;
  const std::vector<uint8_t> bytes = ToU8(EncodePfcFrame(f));
  EXPECT_EQ(bytes[12], 0x08);
  EXPECT_EQ(bytes[13], 0x00);
  EXPECT_EQ(bytes[14], 0x00);
  EXPECT_EQ(bytes[15], 0x01);
  EXPECT_EQ(bytes[16], 0xff);
  EXPECT_EQ(bytes[17], 0x08);
}

TEST(PfcFrameTest, WriteFailsWithoutRoom) {
  const PfcFrame f = XoffPriority3();
  for (std::size_t n = 0; n < PfcFrame::kSize; ++n) {
    std::vector<std::byte> small(n);
    Writer w(small);
    EXPECT_FALSE(f.Write(w)) << n;
    EXPECT_FALSE(w.ok()) << n;
  }
}

TEST(PfcParseTest, EveryShortFrameIsTruncated) {
  const std::vector<std::byte> full = ToBytes(kXoffPriority3);
  for (std::size_t n = 0; n < PfcFrame::kSize; ++n) {
    Result<PfcFrame> f = ParsePfcFrame(std::span(full).first(n));
    EXPECT_EQ(f.code(), ErrorCode::kTruncated) << n;
    Reader r{std::span(full).first(n)};
    EXPECT_FALSE(PfcFrame::Parse(r)) << n;
    EXPECT_FALSE(r.ok()) << n;
  }
  EXPECT_EQ(ParsePfcFrame(std::span(full).first(13)).message(),
            "Ethernet header: need 14 bytes, have 13");
  // All the fields are there, but not the 60-byte minimum frame.
  EXPECT_EQ(ParsePfcFrame(std::span(full).first(34)).message(),
            "PFC frame: need 60 bytes (the minimum frame, no FCS), have 34");
}

// An FCS, or any longer frame: the bytes after the 60 are ignored.
TEST(PfcParseTest, TrailingBytesAreIgnored) {
  std::vector<std::byte> bytes = ToBytes(kXoffPriority3);
  bytes.insert(bytes.end(), {std::byte{0xde}, std::byte{0xad},
                             std::byte{0xbe}, std::byte{0xef}});
  Result<PfcFrame> f = ParsePfcFrame(bytes);
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(*f, XoffPriority3());
}

TEST(PfcParseTest, PadAndDestinationAreNotChecked) {
  std::vector<std::byte> bytes = Patched(59, 0x5a);
  bytes[0] = std::byte{0x02};  // a unicast destination
  EXPECT_TRUE(ParsePfcFrame(bytes).ok());
}

TEST(PfcParseTest, WrongEtherType) {
  Result<PfcFrame> f = ParsePfcFrame(Patched(13, 0x00));
  EXPECT_EQ(f.code(), ErrorCode::kWrongEtherType);
  EXPECT_EQ(f.message(), "EtherType 0x8800 is not MAC Control (0x8808)");
  // A VLAN tag in front of the MAC Control EtherType.
  std::vector<std::byte> tagged = ToBytes(kXoffPriority3);
  tagged.insert(tagged.begin() + 12, {std::byte{0x81}, std::byte{0x00},
                                      std::byte{0x60}, std::byte{0x01}});
  EXPECT_EQ(ParsePfcFrame(tagged).code(), ErrorCode::kWrongEtherType);
  // Judged before the length: a short IPv4 frame is not "truncated".
  std::vector<std::byte> ip = Patched(12, 0x08);
  ip[13] = std::byte{0x00};  // 0x0800
  EXPECT_EQ(ParsePfcFrame(std::span(ip).first(20)).code(),
            ErrorCode::kWrongEtherType);
}

TEST(PfcParseTest, WrongOpcode) {
  Result<PfcFrame> f = ParsePfcFrame(ToBytes(kPause));
  EXPECT_EQ(f.code(), ErrorCode::kWrongMacControlOpcode);
  EXPECT_EQ(f.message(),
            "MAC Control opcode 0x0001 (802.3x PAUSE) is not PFC (0x0101)");
  f = ParsePfcFrame(Patched(15, 0x02));
  EXPECT_EQ(f.code(), ErrorCode::kWrongMacControlOpcode);
  EXPECT_EQ(f.message(), "MAC Control opcode 0x0102 is not PFC (0x0101)");
}

TEST(PfcParseTest, ReservedBitsInTheEnableVector) {
  for (int bit = 0; bit < 8; ++bit) {
    Result<PfcFrame> f = ParsePfcFrame(Patched(16, 1 << bit));
    EXPECT_EQ(f.code(), ErrorCode::kReservedBitsSet) << bit;
  }
  EXPECT_EQ(ParsePfcFrame(Patched(16, 0x80)).message(),
            "priority_enable_vector 0x8008 has reserved bits set (0xff00)");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kReservedBitsSet), "reserved_bits_set");
}

TEST(PauseQuantaTest, ToNanoseconds) {
  // 512 bit times: 512 ns at 1 Gb/s, 51.2 at 10, 20.48 at 25, 5.12 at 100.
  EXPECT_EQ(PauseQuantaToNanoseconds(1, 1000), 512u);
  EXPECT_EQ(PauseQuantaToNanoseconds(5, 10000), 256u);
  EXPECT_EQ(PauseQuantaToNanoseconds(25, 25000), 512u);
  EXPECT_EQ(PauseQuantaToNanoseconds(100, 100000), 512u);
  EXPECT_EQ(PauseQuantaToNanoseconds(0, 100000), 0u);
  // Rounded up: a pause never ends early.
  EXPECT_EQ(PauseQuantaToNanoseconds(1, 100000), 6u);
  EXPECT_EQ(PauseQuantaToNanoseconds(65535, 25000), 1342157u);  // 1342156.8
  EXPECT_EQ(PauseQuantaToNanoseconds(65535, 10), 3355392000u);  // 10 Mb/s
  EXPECT_EQ(PauseQuantaToNanoseconds(0xffffffff, 1),
            0xffffffffull * 512 * 1000);  // no overflow
  EXPECT_FALSE(PauseQuantaToNanoseconds(1, 0));
}

}  // namespace
}  // namespace rue::wire
