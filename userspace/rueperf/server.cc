// SPDX-License-Identifier: GPL-2.0
#include "rueperf/server.h"

#include <chrono>
#include <span>
#include <vector>

#include "rueperf/channel.h"
#include "rueperf/device.h"
#include "rueperf/layout.h"
#include "rueperf/pattern.h"
#include "rueperf/transport.h"

namespace rue::perf {
namespace {

using Clock = std::chrono::steady_clock;

// How often the serving loop looks at the exchange socket for Done.
constexpr unsigned kChannelEvery = 256;
// After Done, how long SENDs the client saw complete may take to show up
// in our CQ.
constexpr auto kDrainTime = std::chrono::seconds(2);

class Server {
 public:
  Server(const Params& p, QpSet& t, Channel& ch, Endpoint client)
      : p_(p), t_(t), ch_(ch), client_(client) {}

  std::string Prepare();
  // Until the client's Done; its count in @done.
  std::string Serve(Done* done);
  std::string Drain(const Done& done);
  void VerifyWrites();

  const ServerSummary& summary() const { return sum_; }

 private:
  std::string PostRecv(uint32_t qp, uint32_t slot);
  std::string OnRecv(const ibv_wc& wc);
  std::string PollCq();
  std::string PollPing();
  uint8_t* Slot(uint32_t qp, uint32_t slot) {
    return t_.region(qp).data(uint64_t{slot} * p_.size);
  }

  const Params& p_;
  QpSet& t_;
  Channel& ch_;
  Endpoint client_;
  uint64_t pings_ = 0;  // write latency: pings answered
  ServerSummary sum_;
};

std::string Server::PostRecv(uint32_t qp, uint32_t slot) {
  return t_.PostRecv(qp, EncodeWrId({true, qp, slot}),
                     t_.region(qp).addr(uint64_t{slot} * p_.size), p_.size);
}

std::string Server::Prepare() {
  sum_.params = p_;
  for (uint32_t q = 0; q < p_.peers; ++q) {
    // READs fetch slots 0..depth-1, and a verifying client checks them.
    if (p_.op == Op::kRead)
      for (uint32_t s = 0; s < p_.depth; ++s)
        FillPattern({Slot(q, s), p_.size}, SlotSeed(s, p_.size));
    if (p_.op != Op::kSend) continue;
    for (uint32_t s = 0; s < ServerSlots(p_); ++s) {
      std::string err = PostRecv(q, s);
      if (!err.empty()) return err;
    }
  }
  return "";
}

std::string Server::OnRecv(const ibv_wc& wc) {
  WrId id = DecodeWrId(wc.wr_id);
  ++sum_.received;
  if (p_.verify) {
    ++sum_.verified;
    std::optional<uint32_t> seed = CheckPattern({Slot(id.qp, id.slot), p_.size});
    if (wc.byte_len != p_.size || !seed ||
        (p_.size >= 4 && (*seed < 1 || *seed > p_.depth)))
      ++sum_.verify_errors;
  }
  if (p_.test == Test::kLat) {
    // The pong carries the ping's own data back.
    Work w{};
    w.op = Op::kSend;
    w.peer = static_cast<uint16_t>(id.qp);
    w.wr_id = EncodeWrId({false, id.qp, id.slot});
    w.local_addr = t_.region(id.qp).addr(uint64_t{id.slot} * p_.size);
    w.len = p_.size;
    w.signaled = true;
    std::string err = t_.Post({&w, 1});
    if (!err.empty()) return err;
  }
  return PostRecv(id.qp, id.slot);
}

std::string Server::PollCq() {
  ibv_wc wcs[32];
  int n = t_.Poll(wcs);
  if (n < 0) return "ibv_poll_cq failed";
  for (int i = 0; i < n; ++i) {
    if (wcs[i].status != IBV_WC_SUCCESS)
      return std::string("completion error: ") +
             ibv_wc_status_str(wcs[i].status);
    if (DecodeWrId(wcs[i].wr_id).recv) {
      std::string err = OnRecv(wcs[i]);
      if (!err.empty()) return err;
    }
  }
  return "";
}

// Write latency: the client's next ping is due in the buffer of peer
// pings_ % peers; answer it with a write of the same byte into the
// client's echo slot.
std::string Server::PollPing() {
  uint32_t q = static_cast<uint32_t>(pings_ % p_.peers);
  uint8_t ping = PingByte(pings_);
  volatile uint8_t* last = Slot(q, 0) + p_.size - 1;
  if (*last != ping) return "";
  Slot(q, 1)[p_.size - 1] = ping;
  Work w{};
  w.op = Op::kWrite;
  w.peer = static_cast<uint16_t>(q);
  w.wr_id = EncodeWrId({false, q, 1});
  w.local_addr = t_.region(q).addr(p_.size);
  w.len = p_.size;
  w.remote_addr = client_.addr + uint64_t{EchoSlot(p_)} * p_.size;
  w.remote_key = client_.key;
  w.signaled = true;
  ++pings_;
  return t_.Post({&w, 1});
}

std::string Server::Serve(Done* done) {
  const bool ping = p_.test == Test::kLat && p_.op == Op::kWrite;
  for (unsigned spin = 0;; ++spin) {
    std::string err = PollCq();
    if (err.empty() && ping) err = PollPing();
    if (!err.empty()) return err;
    if (spin % kChannelEvery || !ch_.Readable()) continue;
    DecodeResult m = ch_.Receive();
    if (!m.message) return "exchange: " + m.error;
    if (const auto* rej = std::get_if<Reject>(&*m.message))
      return "the client gave up: " + rej->reason;
    const auto* d = std::get_if<Done>(&*m.message);
    if (!d) return "exchange: expected done from the client";
    *done = *d;
    return "";
  }
}

// A completed SEND at the client means it was acknowledged, not that
// our CQ has shown its receive yet.
std::string Server::Drain(const Done& done) {
  if (p_.op != Op::kSend) return "";
  Clock::time_point until = Clock::now() + kDrainTime;
  while (sum_.received < done.completed && Clock::now() < until) {
    std::string err = PollCq();
    if (!err.empty()) return err;
  }
  return "";
}

// WRITEs leave each slot they reached holding its pattern; a slot still
// all zero was not reached (fewer messages than depth to that peer).
void Server::VerifyWrites() {
  if (p_.op != Op::kWrite || !p_.verify) return;
  for (uint32_t q = 0; q < p_.peers; ++q) {
    for (uint32_t s = 0; s < p_.depth; ++s) {
      std::span<const uint8_t> data(Slot(q, s), p_.size);
      if (AllZero(data)) continue;
      ++sum_.verified;
      std::optional<uint32_t> seed = CheckPattern(data);
      if (!seed || *seed != SlotSeed(s, p_.size)) ++sum_.verify_errors;
    }
  }
}

ServerResult Fail(std::string error) { return {std::nullopt, std::move(error)}; }

// Everything after the hello; a failure here is also told to the client.
ServerResult Run(const Options& o, Channel& ch, const Hello& hello) {
  const Params& p = hello.params;
  DeviceResult dr = OpenDevice(o.device, o.ib_port, o.gid_index);
  if (!dr.device) return Fail(dr.error);
  std::vector<size_t> regions(p.peers, uint64_t{ServerSlots(p)} * p.size);
  TransportResult tr = CreateTransport(*dr.device, p, Role::kServer, regions);
  if (!tr.transport) return Fail(tr.error);
  QpSet& t = *tr.transport;
  std::vector<Endpoint> remote = hello.endpoints;
  // UET: every server QP talks to the client's one QP.
  if (!IsUet(p.transport) && remote.size() != p.peers)
    return Fail("the client sent " + std::to_string(remote.size()) +
                " endpoints for " + std::to_string(p.peers) + " peers");
  if (remote[0].len < uint64_t{ClientSlots(p)} * p.size)
    return Fail("the client's buffer is too small");
  std::string err = t.Connect(remote);
  Server s(p, t, ch, remote[0]);
  if (err.empty()) err = s.Prepare();
  if (err.empty()) err = ch.Send(Accept{t.LocalEndpoints()});
  if (!err.empty()) return Fail(err);
  Done done;
  err = s.Serve(&done);
  if (err.empty()) err = s.Drain(done);
  if (!err.empty()) return Fail(err);
  s.VerifyWrites();
  const ServerSummary& sum = s.summary();
  err = ch.Send(Result{sum.received, sum.verified, sum.verify_errors});
  if (!err.empty()) return Fail(err);
  return {sum, ""};
}

}  // namespace

ServerResult RunServer(const Options& o) {
  std::string err;
  std::optional<Channel> ch = Channel::Accept(o.port, &err);
  if (!ch) return Fail(err);
  DecodeResult m = ch->Receive();
  if (!m.message) {
    ch->Send(Reject{m.error.substr(0, kMaxReason)});
    return Fail("exchange: " + m.error);
  }
  if (const auto* rej = std::get_if<Reject>(&*m.message))
    return Fail("the client gave up: " + rej->reason);
  const auto* hello = std::get_if<Hello>(&*m.message);
  if (!hello) {
    ch->Send(Reject{"expected a hello"});
    return Fail("exchange: the client did not start with a hello");
  }
  ServerResult r = Run(o, *ch, *hello);
  if (!r.summary) ch->Send(Reject{r.error.substr(0, kMaxReason)});
  return r;
}

std::string SummaryLine(const ServerSummary& s) {
  std::string line = "served " + std::string(Name(s.params.transport)) + " " +
                     std::string(Name(s.params.op)) + " " +
                     std::string(Name(s.params.test)) + " peers " +
                     std::to_string(s.params.peers) + " size " +
                     std::to_string(s.params.size);
  if (s.params.op == Op::kSend) line += " received " + std::to_string(s.received);
  if (s.params.verify)
    line += " verified " + std::to_string(s.verified) + " verify-errors " +
            std::to_string(s.verify_errors);
  return line + "\n";
}

}  // namespace rue::perf
