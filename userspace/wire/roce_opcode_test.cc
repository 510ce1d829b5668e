// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "rue/wire/roce_opcode.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace rue::wire {
namespace {

using E = ExtHeader;
using P = Position;

struct Expected {
  uint8_t opcode;
  std::string_view name;
  std::vector<ExtHeader> headers;
  bool payload;
  Position position;
  std::size_t header_size;
};

// Written out from IBTA vol 1 9.2.1 / annex A17 rather than derived from the
// table under test.
const std::vector<Expected>& ExpectedTable() {
  static const auto* t = new std::vector<Expected>{
      {0x00, "RC_SEND_FIRST", {}, true, P::kFirst, 12},
      {0x01, "RC_SEND_MIDDLE", {}, true, P::kMiddle, 12},
      {0x02, "RC_SEND_LAST", {}, true, P::kLast, 12},
      {0x03, "RC_SEND_LAST_WITH_IMMEDIATE", {E::kImmDt}, true, P::kLast, 16},
      {0x04, "RC_SEND_ONLY", {}, true, P::kOnly, 12},
      {0x05, "RC_SEND_ONLY_WITH_IMMEDIATE", {E::kImmDt}, true, P::kOnly, 16},
      {0x06, "RC_RDMA_WRITE_FIRST", {E::kReth}, true, P::kFirst, 28},
      {0x07, "RC_RDMA_WRITE_MIDDLE", {}, true, P::kMiddle, 12},
      {0x08, "RC_RDMA_WRITE_LAST", {}, true, P::kLast, 12},
      {0x09, "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE", {E::kImmDt}, true,
       P::kLast, 16},
      {0x0a, "RC_RDMA_WRITE_ONLY", {E::kReth}, true, P::kOnly, 28},
      {0x0b, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", {E::kReth, E::kImmDt}, true,
       P::kOnly, 32},
      {0x0c, "RC_RDMA_READ_REQUEST", {E::kReth}, false, P::kOnly, 28},
      {0x0d, "RC_RDMA_READ_RESPONSE_FIRST", {E::kAeth}, true, P::kFirst, 16},
      {0x0e, "RC_RDMA_READ_RESPONSE_MIDDLE", {}, true, P::kMiddle, 12},
      {0x0f, "RC_RDMA_READ_RESPONSE_LAST", {E::kAeth}, true, P::kLast, 16},
      {0x10, "RC_RDMA_READ_RESPONSE_ONLY", {E::kAeth}, true, P::kOnly, 16},
      {0x11, "RC_ACKNOWLEDGE", {E::kAeth}, false, P::kOnly, 16},
      {0x12, "RC_ATOMIC_ACKNOWLEDGE", {E::kAeth, E::kAtomicAckEth}, false,
       P::kOnly, 24},
      {0x13, "RC_COMPARE_SWAP", {E::kAtomicEth}, false, P::kOnly, 40},
      {0x14, "RC_FETCH_ADD", {E::kAtomicEth}, false, P::kOnly, 40},
      {0x16, "RC_SEND_LAST_WITH_INVALIDATE", {E::kIeth}, true, P::kLast, 16},
      {0x17, "RC_SEND_ONLY_WITH_INVALIDATE", {E::kIeth}, true, P::kOnly, 16},
      {0x1d, "RC_ATOMIC_WRITE", {E::kReth}, true, P::kOnly, 28},
      {0x20, "UC_SEND_FIRST", {}, true, P::kFirst, 12},
      {0x21, "UC_SEND_MIDDLE", {}, true, P::kMiddle, 12},
      {0x22, "UC_SEND_LAST", {}, true, P::kLast, 12},
      {0x23, "UC_SEND_LAST_WITH_IMMEDIATE", {E::kImmDt}, true, P::kLast, 16},
      {0x24, "UC_SEND_ONLY", {}, true, P::kOnly, 12},
      {0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", {E::kImmDt}, true, P::kOnly, 16},
      {0x26, "UC_RDMA_WRITE_FIRST", {E::kReth}, true, P::kFirst, 28},
      {0x27, "UC_RDMA_WRITE_MIDDLE", {}, true, P::kMiddle, 12},
      {0x28, "UC_RDMA_WRITE_LAST", {}, true, P::kLast, 12},
      {0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", {E::kImmDt}, true,
       P::kLast, 16},
      {0x2a, "UC_RDMA_WRITE_ONLY", {E::kReth}, true, P::kOnly, 28},
      {0x2b, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", {E::kReth, E::kImmDt}, true,
       P::kOnly, 32},
      {0x64, "UD_SEND_ONLY", {E::kDeth}, true, P::kOnly, 20},
      {0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", {E::kDeth, E::kImmDt}, true,
       P::kOnly, 24},
      {0x81, "CNP", {E::kCnpReserved}, false, P::kOnly, 28},
  };
  return *t;
}

TEST(OpcodeTableTest, KnownOpcodesMatchTheSpec) {
  for (const Expected& e : ExpectedTable()) {
    SCOPED_TRACE(e.name);
    const OpcodeInfo& info = LookupOpcode(e.opcode);
    EXPECT_TRUE(info.known);
    EXPECT_EQ(info.name, e.name);
    ASSERT_EQ(info.headers().size(), e.headers.size());
    for (std::size_t i = 0; i < e.headers.size(); ++i) {
      EXPECT_EQ(info.headers()[i], e.headers[i]) << i;
    }
    EXPECT_EQ(info.has_payload, e.payload);
    EXPECT_EQ(info.position, e.position);
    EXPECT_EQ(info.HeaderSize(), e.header_size);
    EXPECT_EQ(info.HeaderSize() % 4, 0u);
  }
}

TEST(OpcodeTableTest, TransportFollowsTheTopThreeBits) {
  for (const Expected& e : ExpectedTable()) {
    const OpcodeInfo& info = LookupOpcode(e.opcode);
    switch (e.opcode >> 5) {
      case 0: EXPECT_EQ(info.transport, Transport::kRc) << e.name; break;
      case 1: EXPECT_EQ(info.transport, Transport::kUc) << e.name; break;
      case 3: EXPECT_EQ(info.transport, Transport::kUd) << e.name; break;
      case 4: EXPECT_EQ(info.transport, Transport::kCnp) << e.name; break;
      default: ADD_FAILURE() << e.name;
    }
  }
}

TEST(OpcodeTableTest, EverythingElseIsUnknown) {
  std::set<int> known;
  for (const Expected& e : ExpectedTable()) known.insert(e.opcode);
  int unknown = 0;
  for (int op = 0; op < 256; ++op) {
    const OpcodeInfo& info = LookupOpcode(static_cast<uint8_t>(op));
    if (known.count(op) != 0) continue;
    ++unknown;
    EXPECT_FALSE(info.known) << op;
    EXPECT_EQ(info.name, "UNKNOWN") << op;
    EXPECT_EQ(info.transport, Transport::kUnknown) << op;
    EXPECT_TRUE(info.headers().empty()) << op;
  }
  EXPECT_EQ(unknown, 256 - static_cast<int>(ExpectedTable().size()));
  // RD (0x40-0x5f), RESYNC, and the UD opcodes other than the two sends.
  EXPECT_FALSE(LookupOpcode(0x40).known);
  EXPECT_FALSE(LookupOpcode(0x15).known);
  EXPECT_FALSE(LookupOpcode(0x60).known);
  EXPECT_FALSE(LookupOpcode(0x80).known);
}

TEST(OpcodeTableTest, EnumMatchesTable) {
  EXPECT_EQ(LookupOpcode(Opcode::kRcSendOnlyWithInvalidate).name,
            "RC_SEND_ONLY_WITH_INVALIDATE");
  EXPECT_EQ(LookupOpcode(Opcode::kUdSendOnly).name, "UD_SEND_ONLY");
  EXPECT_EQ(LookupOpcode(Opcode::kCnp).name, "CNP");
  EXPECT_EQ(ToU8(Opcode::kCnp), 0x81);
}

TEST(OpcodeTableTest, ExtHeaderSizes) {
  EXPECT_EQ(ExtHeaderSize(E::kReth), 16u);
  EXPECT_EQ(ExtHeaderSize(E::kAeth), 4u);
  EXPECT_EQ(ExtHeaderSize(E::kDeth), 8u);
  EXPECT_EQ(ExtHeaderSize(E::kImmDt), 4u);
  EXPECT_EQ(ExtHeaderSize(E::kIeth), 4u);
  EXPECT_EQ(ExtHeaderSize(E::kAtomicEth), 28u);
  EXPECT_EQ(ExtHeaderSize(E::kAtomicAckEth), 8u);
  EXPECT_EQ(ExtHeaderSize(E::kCnpReserved), 16u);
}

}  // namespace
}  // namespace rue::wire
