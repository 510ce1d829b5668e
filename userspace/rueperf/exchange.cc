// SPDX-License-Identifier: GPL-2.0
#include "rueperf/exchange.h"

#include <rue/wire/reader.h>
#include <rue/wire/writer.h>

#include <type_traits>

namespace rue::perf {
namespace {

using wire::Reader;
using wire::Writer;

constexpr size_t kEndpointSize = 16 + 4 + 8 + 8 + 4;
// transport, op, test, flags, peers, size, depth, iters, duration, job,
// endpoint count
constexpr size_t kParamsSize = 1 + 1 + 1 + 1 + 2 + 4 + 4 + 8 + 4 + 4 + 2;
constexpr uint8_t kFlagVerify = 0x01;

void PutEndpoint(Writer& w, const Endpoint& e) {
  w.WriteBytes(std::as_bytes(std::span(e.gid)));
  w.WriteU32(e.qpn);
  w.WriteU64(e.addr);
  w.WriteU64(e.key);
  w.WriteU32(e.len);
}

bool GetEndpoint(Reader& r, Endpoint* e) {
  r.ReadBytes(std::as_writable_bytes(std::span(e->gid)));
  r.ReadU32(&e->qpn);
  r.ReadU64(&e->addr);
  r.ReadU64(&e->key);
  return r.ReadU32(&e->len);
}

MsgType TypeOf(const Message& m) {
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Hello>) return MsgType::kHello;
        if constexpr (std::is_same_v<T, Accept>) return MsgType::kAccept;
        if constexpr (std::is_same_v<T, Reject>) return MsgType::kReject;
        if constexpr (std::is_same_v<T, Done>) return MsgType::kDone;
        return MsgType::kResult;
      },
      m);
}

size_t BodySize(const Message& m) {
  if (const auto* h = std::get_if<Hello>(&m))
    return kParamsSize + h->endpoints.size() * kEndpointSize;
  if (const auto* a = std::get_if<Accept>(&m))
    return 2 + a->endpoints.size() * kEndpointSize;
  if (const auto* r = std::get_if<Reject>(&m)) return 2 + r->reason.size();
  if (std::holds_alternative<Done>(m)) return 8;
  return 24;
}

void PutBody(Writer& w, const Message& m) {
  if (const auto* h = std::get_if<Hello>(&m)) {
    const Params& p = h->params;
    w.WriteU8(static_cast<uint8_t>(p.transport));
    w.WriteU8(static_cast<uint8_t>(p.op));
    w.WriteU8(static_cast<uint8_t>(p.test));
    w.WriteU8(p.verify ? kFlagVerify : 0);
    w.WriteU16(p.peers);
    w.WriteU32(p.size);
    w.WriteU32(p.depth);
    w.WriteU64(p.iters);
    w.WriteU32(p.duration_ms);
    w.WriteU32(p.job);
    w.WriteU16(static_cast<uint16_t>(h->endpoints.size()));
    for (const Endpoint& e : h->endpoints) PutEndpoint(w, e);
  } else if (const auto* a = std::get_if<Accept>(&m)) {
    w.WriteU16(static_cast<uint16_t>(a->endpoints.size()));
    for (const Endpoint& e : a->endpoints) PutEndpoint(w, e);
  } else if (const auto* r = std::get_if<Reject>(&m)) {
    w.WriteU16(static_cast<uint16_t>(r->reason.size()));
    w.WriteBytes(std::as_bytes(std::span(r->reason)));
  } else if (const auto* d = std::get_if<Done>(&m)) {
    w.WriteU64(d->completed);
  } else {
    const auto& res = std::get<Result>(m);
    w.WriteU64(res.received);
    w.WriteU64(res.verified);
    w.WriteU64(res.verify_errors);
  }
}

DecodeResult Fail(std::string error) { return {std::nullopt, std::move(error)}; }

DecodeResult DecodeHello(Reader& r) {
  Hello h;
  Params& p = h.params;
  uint8_t transport = 0, op = 0, test = 0, flags = 0;
  uint16_t count = 0;
  r.ReadU8(&transport);
  r.ReadU8(&op);
  r.ReadU8(&test);
  r.ReadU8(&flags);
  r.ReadU16(&p.peers);
  r.ReadU32(&p.size);
  r.ReadU32(&p.depth);
  r.ReadU64(&p.iters);
  r.ReadU32(&p.duration_ms);
  r.ReadU32(&p.job);
  if (!r.ReadU16(&count)) return Fail("hello: truncated parameters");
  if (flags & ~kFlagVerify)
    return Fail("hello: unknown flags 0x" + std::to_string(flags));
  p.transport = static_cast<Transport>(transport);
  p.op = static_cast<Op>(op);
  p.test = static_cast<Test>(test);
  p.verify = flags & kFlagVerify;
  if (std::string_view e = ParamsError(p); !e.empty())
    return Fail("hello: " + std::string(e));
  if (count != HelloEndpoints(p))
    return Fail("hello: " + std::to_string(count) + " endpoints for " +
                std::to_string(HelloEndpoints(p)) + " client QPs");
  h.endpoints.resize(count);
  for (Endpoint& e : h.endpoints)
    if (!GetEndpoint(r, &e)) return Fail("hello: truncated endpoint");
  return {h, ""};
}

DecodeResult DecodeAccept(Reader& r) {
  Accept a;
  uint16_t count = 0;
  if (!r.ReadU16(&count)) return Fail("accept: truncated");
  if (count < 1 || count > kMaxPeers)
    return Fail("accept: " + std::to_string(count) +
                " endpoints, not 1.." + std::to_string(kMaxPeers));
  a.endpoints.resize(count);
  for (Endpoint& e : a.endpoints)
    if (!GetEndpoint(r, &e)) return Fail("accept: truncated endpoint");
  return {a, ""};
}

DecodeResult DecodeReject(Reader& r) {
  uint16_t len = 0;
  std::span<const std::byte> text;
  if (!r.ReadU16(&len) || !r.ReadSpan(len, &text))
    return Fail("reject: truncated reason");
  if (len > kMaxReason) return Fail("reject: reason too long");
  Reject rej;
  for (std::byte b : text) {
    char c = static_cast<char>(b);
    // Shown to the user as it is: no control characters.
    if (c < 0x20 || c == 0x7f) return Fail("reject: reason is not text");
    rej.reason += c;
  }
  return {rej, ""};
}

}  // namespace

size_t HelloEndpoints(const Params& params) {
  return IsUet(params.transport) ? 1 : params.peers;
}

std::vector<std::byte> Encode(const Message& message) {
  if (const auto* h = std::get_if<Hello>(&message);
      h && h->endpoints.size() > kMaxPeers)
    return {};
  if (const auto* a = std::get_if<Accept>(&message);
      a && a->endpoints.size() > kMaxPeers)
    return {};
  if (const auto* r = std::get_if<Reject>(&message);
      r && r->reason.size() > kMaxReason)
    return {};
  size_t body = BodySize(message);
  std::vector<std::byte> frame(kHeaderSize + body);
  Writer w(frame);
  w.WriteU32(kMagic);
  w.WriteU8(kVersion);
  w.WriteU8(static_cast<uint8_t>(TypeOf(message)));
  w.WriteU16(0);
  w.WriteU32(static_cast<uint32_t>(body));
  PutBody(w, message);
  if (!w.ok() || w.length() != frame.size()) return {};
  return frame;
}

HeaderResult DecodeHeader(std::span<const std::byte> header) {
  Reader r(header);
  uint32_t magic = 0, length = 0;
  uint8_t version = 0, type = 0;
  uint16_t reserved = 0;
  r.ReadU32(&magic);
  r.ReadU8(&version);
  r.ReadU8(&type);
  r.ReadU16(&reserved);
  if (!r.ReadU32(&length)) return {std::nullopt, "truncated frame header"};
  if (magic != kMagic)
    return {std::nullopt, "not a rueperf peer (bad magic)"};
  if (version != kVersion)
    return {std::nullopt, "peer speaks exchange version " +
                              std::to_string(version) + ", this is " +
                              std::to_string(kVersion)};
  if (type < static_cast<uint8_t>(MsgType::kHello) ||
      type > static_cast<uint8_t>(MsgType::kResult))
    return {std::nullopt, "unknown message type " + std::to_string(type)};
  if (reserved != 0) return {std::nullopt, "reserved header bytes not zero"};
  if (length > kMaxBody)
    return {std::nullopt, "message body of " + std::to_string(length) +
                              " bytes is too long"};
  return {length, ""};
}

DecodeResult Decode(std::span<const std::byte> frame) {
  if (frame.size() < kHeaderSize) return Fail("truncated frame header");
  HeaderResult hr = DecodeHeader(frame.first(kHeaderSize));
  if (!hr.body_length) return Fail(hr.error);
  if (*hr.body_length != frame.size() - kHeaderSize)
    return Fail("frame length " + std::to_string(frame.size() - kHeaderSize) +
                " does not match the header's " +
                std::to_string(*hr.body_length));
  auto type = static_cast<MsgType>(static_cast<uint8_t>(frame[5]));
  Reader r(frame.subspan(kHeaderSize));
  DecodeResult d;
  switch (type) {
  case MsgType::kHello: d = DecodeHello(r); break;
  case MsgType::kAccept: d = DecodeAccept(r); break;
  case MsgType::kReject: d = DecodeReject(r); break;
  case MsgType::kDone: {
    Done done;
    if (!r.ReadU64(&done.completed)) return Fail("done: truncated");
    d = {done, ""};
    break;
  }
  case MsgType::kResult: {
    Result res;
    r.ReadU64(&res.received);
    r.ReadU64(&res.verified);
    if (!r.ReadU64(&res.verify_errors)) return Fail("result: truncated");
    d = {res, ""};
    break;
  }
  }
  if (d.message && !r.AtEnd())
    return Fail(std::to_string(r.remaining()) + " bytes after the message");
  return d;
}

}  // namespace rue::perf
