// SPDX-License-Identifier: GPL-2.0
#include "rueperf/layout.h"

#include <gtest/gtest.h>

namespace rue::perf {
namespace {

TEST(Layout, Rc) {
  Params p;
  p.peers = 3;
  p.depth = 4;
  EXPECT_EQ(ClientQps(p), 3u);
  EXPECT_EQ(ClientSlots(p), 13u);
  EXPECT_EQ(EchoSlot(p), 12u);
  EXPECT_EQ(ServerSlots(p), 8u);
  EXPECT_EQ(FirstSlotOfQp(p, 2), 8u);
  EXPECT_EQ(RemoteSlot(p, 9), 1u);
}

TEST(Layout, UetHasOneClientQp) {
  Params p;
  p.transport = Transport::kRud;
  p.peers = 8;
  p.depth = 16;
  EXPECT_EQ(ClientQps(p), 1u);
  EXPECT_EQ(ClientSlots(p), 17u);
  EXPECT_EQ(EchoSlot(p), 16u);
}

TEST(Layout, LatencyServerHasTwoSlots) {
  Params p;
  p.depth = 1;
  EXPECT_EQ(ServerSlots(p), 2u);
}

TEST(Layout, PingByte) {
  for (uint64_t i = 0; i < 600; ++i) {
    EXPECT_NE(PingByte(i), 0);
    EXPECT_NE(PingByte(i), PingByte(i + 1));
  }
}

TEST(Layout, WrId) {
  for (WrId id : {WrId{false, 0, 0}, WrId{true, 63, 4096},
                  WrId{false, 5, 0xffffffff}}) {
    WrId back = DecodeWrId(EncodeWrId(id));
    EXPECT_EQ(back.recv, id.recv);
    EXPECT_EQ(back.qp, id.qp);
    EXPECT_EQ(back.slot, id.slot);
  }
  EXPECT_EQ(EncodeWrId({true, 1, 2}), 0x8000000100000002ull);
}

}  // namespace
}  // namespace rue::perf
