// SPDX-License-Identifier: GPL-2.0
#include "rueperf/exchange.h"

#include <gtest/gtest.h>

#include <vector>

namespace rue::perf {
namespace {

Endpoint MakeEndpoint(uint8_t seed) {
  Endpoint e;
  for (size_t i = 0; i < e.gid.size(); ++i) e.gid[i] = static_cast<uint8_t>(seed + i);
  e.qpn = 0x11u * seed;
  e.addr = 0x7f0000001000ull + seed;
  e.key = 0x0123456789abcdefull ^ seed;
  e.len = 4096u * seed;
  return e;
}

Hello MakeHello(Transport t, uint16_t peers) {
  Hello h;
  h.params.transport = t;
  h.params.op = Op::kRead;
  h.params.test = perf::Test::kRate;
  h.params.verify = true;
  h.params.peers = peers;
  h.params.size = 4096;
  h.params.depth = 8;
  h.params.iters = 12345;
  h.params.job = IsUet(t) ? 77 : 0;
  for (size_t i = 0; i < HelloEndpoints(h.params); ++i)
    h.endpoints.push_back(MakeEndpoint(static_cast<uint8_t>(i + 1)));
  return h;
}

Message RoundTrip(const Message& m) {
  std::vector<std::byte> frame = Encode(m);
  EXPECT_FALSE(frame.empty());
  DecodeResult d = Decode(frame);
  EXPECT_TRUE(d.message) << d.error;
  return d.message ? *d.message : Message{};
}

std::string DecodeError(std::span<const std::byte> frame) {
  DecodeResult d = Decode(frame);
  EXPECT_FALSE(d.message);
  return d.error;
}

TEST(Exchange, RoundTrips) {
  for (const Message& m : std::vector<Message>{
           MakeHello(Transport::kRc, 3), MakeHello(Transport::kRud, 5),
           Accept{{MakeEndpoint(1), MakeEndpoint(2)}}, Reject{"no such job"},
           Done{987654321}, Result{10, 9, 1}})
    EXPECT_EQ(RoundTrip(m), m);
}

TEST(Exchange, HeaderBytes) {
  std::vector<std::byte> f = Encode(Done{0x0102030405060708ull});
  ASSERT_EQ(f.size(), kHeaderSize + 8);
  const uint8_t want[] = {'R', 'U', 'E', 'P',  // magic
                          1,                   // version
                          4,                   // type: done
                          0, 0,                // reserved
                          0, 0, 0, 8,          // body length
                          1, 2, 3, 4, 5, 6, 7, 8};
  for (size_t i = 0; i < sizeof(want); ++i)
    EXPECT_EQ(static_cast<uint8_t>(f[i]), want[i]) << "byte " << i;
}

TEST(Exchange, HelloEndpointsPerTransport) {
  Params p;
  p.peers = 4;
  EXPECT_EQ(HelloEndpoints(p), 4u);
  p.transport = Transport::kRod;
  EXPECT_EQ(HelloEndpoints(p), 1u);
}

TEST(Exchange, EncodeRefuses) {
  Accept a;
  a.endpoints.resize(kMaxPeers + 1);
  EXPECT_TRUE(Encode(a).empty());
  EXPECT_TRUE(Encode(Reject{std::string(kMaxReason + 1, 'x')}).empty());
}

TEST(Exchange, BadHeaders) {
  std::vector<std::byte> f = Encode(Done{1});
  EXPECT_EQ(DecodeError(std::span(f).first(11)), "truncated frame header");
  auto g = f;
  g[0] = std::byte{'X'};
  EXPECT_EQ(DecodeError(g), "not a rueperf peer (bad magic)");
  g = f;
  g[4] = std::byte{2};
  EXPECT_EQ(DecodeError(g), "peer speaks exchange version 2, this is 1");
  g = f;
  g[5] = std::byte{0};
  EXPECT_EQ(DecodeError(g), "unknown message type 0");
  g[5] = std::byte{6};
  EXPECT_EQ(DecodeError(g), "unknown message type 6");
  g = f;
  g[7] = std::byte{1};
  EXPECT_EQ(DecodeError(g), "reserved header bytes not zero");
  g = f;
  g[9] = std::byte{1};  // 65544 bytes
  EXPECT_EQ(DecodeError(g), "message body of 65544 bytes is too long");
  g = f;
  g[11] = std::byte{9};
  EXPECT_EQ(DecodeError(g), "frame length 8 does not match the header's 9");
  HeaderResult h = DecodeHeader(std::span(f).first(kHeaderSize));
  EXPECT_EQ(h.body_length, 8u);
}

// Rewrites the body length after a test changed the body's size.
void FixLength(std::vector<std::byte>& f) {
  uint32_t len = static_cast<uint32_t>(f.size() - kHeaderSize);
  for (int i = 0; i < 4; ++i) f[8 + i] = std::byte(len >> (24 - 8 * i));
}

TEST(Exchange, BadBodies) {
  std::vector<std::byte> f = Encode(Done{1});
  f.pop_back();
  FixLength(f);
  EXPECT_EQ(DecodeError(f), "done: truncated");
  f = Encode(Done{1});
  f.push_back(std::byte{0});
  FixLength(f);
  EXPECT_EQ(DecodeError(f), "1 bytes after the message");
  f = Encode(Result{1, 2, 3});
  f.resize(f.size() - 1);
  FixLength(f);
  EXPECT_EQ(DecodeError(f), "result: truncated");

  // Hello: body offsets: 0 transport, 1 op, 2 test, 3 flags, 4 peers,
  // 6 size, 10 depth, 14 iters, 22 duration, 26 job, 30 endpoint count.
  const std::vector<std::byte> hello = Encode(MakeHello(Transport::kRc, 2));
  auto g = hello;
  g[kHeaderSize + 0] = std::byte{3};
  EXPECT_EQ(DecodeError(g), "hello: unknown transport");
  g = hello;
  g[kHeaderSize + 1] = std::byte{7};
  EXPECT_EQ(DecodeError(g), "hello: unknown operation");
  g = hello;
  g[kHeaderSize + 3] = std::byte{0x80};
  EXPECT_EQ(DecodeError(g), "hello: unknown flags 0x128");
  g = hello;
  g[kHeaderSize + 5] = std::byte{0};  // peers 0
  EXPECT_EQ(DecodeError(g), "hello: peers out of range");
  g = hello;
  g[kHeaderSize + 13] = std::byte{0};  // depth 0
  EXPECT_EQ(DecodeError(g), "hello: depth out of range");
  g = hello;
  g[kHeaderSize + 31] = std::byte{3};  // 3 endpoints for 2 peers
  EXPECT_EQ(DecodeError(g), "hello: 3 endpoints for 2 client QPs");
  g = hello;
  g.resize(g.size() - 1);
  FixLength(g);
  EXPECT_EQ(DecodeError(g), "hello: truncated endpoint");
  g = hello;
  g.resize(kHeaderSize + 20);
  FixLength(g);
  EXPECT_EQ(DecodeError(g), "hello: truncated parameters");
  // UET: one endpoint however many peers, and a job.
  const std::vector<std::byte> uet = Encode(MakeHello(Transport::kRud, 4));
  EXPECT_TRUE(Decode(uet).message);
  g = uet;
  g[kHeaderSize + 0] = std::byte{0};  // now RC, with a job id
  EXPECT_EQ(DecodeError(g), "hello: a job id is for UET only");

  f = Encode(Accept{{MakeEndpoint(1)}});
  g = f;
  g[kHeaderSize + 1] = std::byte{0};
  EXPECT_EQ(DecodeError(g), "accept: 0 endpoints, not 1..64");
  g = f;
  g[kHeaderSize + 1] = std::byte{2};
  EXPECT_EQ(DecodeError(g), "accept: truncated endpoint");

  f = Encode(Reject{"bad"});
  g = f;
  g[kHeaderSize + 2] = std::byte{'\n'};
  EXPECT_EQ(DecodeError(g), "reject: reason is not text");
  g = f;
  g[kHeaderSize + 1] = std::byte{4};
  EXPECT_EQ(DecodeError(g), "reject: truncated reason");
}

}  // namespace
}  // namespace rue::perf
