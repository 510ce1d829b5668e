// SPDX-License-Identifier: GPL-2.0
#include "rueperf/params.h"

#include <gtest/gtest.h>

namespace rue::perf {
namespace {

Params Valid() {
  Params p;
  p.iters = 10;
  return p;
}

TEST(Params, NamesRoundTrip) {
  for (Transport t : {Transport::kRc, Transport::kRud, Transport::kRod})
    EXPECT_EQ(ParseTransport(Name(t)), t);
  for (Op o : {Op::kSend, Op::kWrite, Op::kRead}) EXPECT_EQ(ParseOp(Name(o)), o);
  for (perf::Test t : {perf::Test::kBw, perf::Test::kLat, perf::Test::kRate})
    EXPECT_EQ(ParseTest(Name(t)), t);
  EXPECT_EQ(Name(static_cast<Transport>(9)), "UNKNOWN");
  EXPECT_FALSE(ParseTransport("RC"));
}

TEST(Params, IsUet) {
  EXPECT_FALSE(IsUet(Transport::kRc));
  EXPECT_TRUE(IsUet(Transport::kRud));
  EXPECT_TRUE(IsUet(Transport::kRod));
}

TEST(Params, Errors) {
  EXPECT_EQ(ParamsError(Valid()), "");
  Params p = Valid();
  p.transport = static_cast<Transport>(3);
  EXPECT_EQ(ParamsError(p), "unknown transport");
  p = Valid();
  p.op = static_cast<Op>(3);
  EXPECT_EQ(ParamsError(p), "unknown operation");
  p = Valid();
  p.test = static_cast<perf::Test>(3);
  EXPECT_EQ(ParamsError(p), "unknown test");
  p = Valid();
  p.iters = 0;
  EXPECT_EQ(ParamsError(p), "exactly one of iterations and duration must be set");
  p.duration_ms = 5;
  EXPECT_EQ(ParamsError(p), "");
  p.iters = 1;
  EXPECT_EQ(ParamsError(p), "exactly one of iterations and duration must be set");
  p = Valid();
  p.test = perf::Test::kLat;
  EXPECT_EQ(ParamsError(p),
            "a latency test keeps one message in flight: depth must be 1");
  p = Valid();
  p.job = 4;
  EXPECT_EQ(ParamsError(p), "a job id is for UET only");
  p.transport = Transport::kRod;
  EXPECT_EQ(ParamsError(p), "");
  p.job = kMaxJob + 1;
  EXPECT_EQ(ParamsError(p), "job id out of range");
  p = Valid();
  p.size = 0;
  EXPECT_EQ(ParamsError(p), "size out of range");
  p = Valid();
  p.peers = kMaxPeers + 1;
  EXPECT_EQ(ParamsError(p), "peers out of range");
}

}  // namespace
}  // namespace rue::perf
