// SPDX-License-Identifier: GPL-2.0
//
// Three loops:
//   bw, rate  keep up to `depth` WRs in flight on every client QP,
//             peers taken round robin; rate posts lists of up to 16 WRs
//             per call, bw one.  Elapsed time runs from the first post
//             to the last completion.
//   lat       one message at a time: SEND and WRITE ping-pong with the
//             server (reported one way), READ waits for its completion.
#include "rueperf/client.h"

#include <chrono>
#include <cstring>
#include <deque>
#include <vector>

#include "rueperf/channel.h"
#include "rueperf/device.h"
#include "rueperf/layout.h"
#include "rueperf/pattern.h"
#include "rueperf/transport.h"

namespace rue::perf {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kRateBatch = 16;
constexpr int kPollBatch = 32;
constexpr uint32_t kLatSignal = kLatSignalEvery;

uint64_t Ns(Clock::duration d) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(d).count());
}

std::string WcError(const ibv_wc& wc) {
  return std::string("completion error: ") + ibv_wc_status_str(wc.status) +
         " (vendor error " + std::to_string(wc.vendor_err) + ")";
}

class Client {
 public:
  Client(const Options& o, QpSet& t, std::vector<Endpoint> remote)
      : o_(o), p_(o.params), t_(t), remote_(std::move(remote)) {}

  std::string RunBandwidth();
  std::string RunLatency();

  uint64_t completed() const { return completed_; }
  uint64_t elapsed_ns() const { return elapsed_ns_; }
  std::vector<uint64_t>& samples() { return samples_; }
  uint64_t verified() const { return verified_; }
  uint64_t verify_errors() const { return verify_errors_; }

 private:
  Work MakeWork(uint16_t peer, uint32_t slot, bool signaled);
  bool Stopping(uint64_t posted, Clock::time_point now) const;
  std::string Reap(std::vector<std::deque<uint32_t>>& free_slots,
                   uint64_t* outstanding);
  void CheckSlot(uint32_t slot);
  std::string LatencyOnce(uint64_t iter);
  std::string WaitCompletion(bool want_recv);
  std::string PostPing(Work& w, size_t qp);

  const Options& o_;
  const Params& p_;
  QpSet& t_;
  std::vector<Endpoint> remote_;
  Clock::time_point end_;
  uint64_t completed_ = 0;
  uint64_t elapsed_ns_ = 0;
  std::vector<uint64_t> samples_;
  // Latency: per QP, pings since the last signaled one, and whether that
  // one's completion is still to be reaped.
  std::vector<uint32_t> unsignaled_;
  std::vector<bool> awaiting_;
  uint64_t verified_ = 0;
  uint64_t verify_errors_ = 0;
};

Work Client::MakeWork(uint16_t peer, uint32_t slot, bool signaled) {
  Region& r = t_.region(0);
  const Endpoint& e = remote_[peer];
  Work w{};
  w.op = p_.op;
  w.peer = peer;
  w.wr_id = EncodeWrId({false, static_cast<uint32_t>(t_.QpOfPeer(peer)), slot});
  w.local_addr = r.addr(uint64_t{slot} * p_.size);
  w.len = p_.size;
  w.remote_addr = e.addr + uint64_t{RemoteSlot(p_, slot)} * p_.size;
  w.remote_key = e.key;
  w.signaled = signaled;
  return w;
}

bool Client::Stopping(uint64_t posted, Clock::time_point now) const {
  if (p_.iters) return posted >= p_.iters;
  return now >= end_;
}

void Client::CheckSlot(uint32_t slot) {
  std::span<const uint8_t> data(t_.region(0).data(uint64_t{slot} * p_.size),
                                p_.size);
  std::optional<uint32_t> seed = CheckPattern(data);
  ++verified_;
  if (!seed || *seed != SlotSeed(RemoteSlot(p_, slot), p_.size))
    ++verify_errors_;
}

std::string Client::Reap(std::vector<std::deque<uint32_t>>& free_slots,
                         uint64_t* outstanding) {
  ibv_wc wcs[kPollBatch];
  int n = t_.Poll(wcs);
  if (n < 0) return "ibv_poll_cq failed";
  for (int i = 0; i < n; ++i) {
    if (wcs[i].status != IBV_WC_SUCCESS) return WcError(wcs[i]);
    WrId id = DecodeWrId(wcs[i].wr_id);
    if (p_.op == Op::kRead && p_.verify) CheckSlot(id.slot);
    free_slots[id.qp].push_back(id.slot);
    --*outstanding;
    ++completed_;
  }
  return "";
}

std::string Client::RunBandwidth() {
  const uint32_t qps = ClientQps(p_);
  // First in, first out: every slot takes its turn, so that --verify
  // sees all of them on the server.
  std::vector<std::deque<uint32_t>> free_slots(qps);
  for (uint32_t q = 0; q < qps; ++q)
    for (uint32_t s = 0; s < p_.depth; ++s)
      free_slots[q].push_back(FirstSlotOfQp(p_, q) + s);
  const size_t batch_max = p_.test == Test::kRate ? kRateBatch : 1;
  std::vector<Work> batch;
  uint64_t posted = 0, outstanding = 0;
  uint32_t rr = 0;
  Clock::time_point start = Clock::now(), last = start;
  end_ = start + std::chrono::milliseconds(p_.duration_ms);
  for (;;) {
    Clock::time_point now = Clock::now();
    bool stopping = Stopping(posted, now);
    if (stopping && outstanding == 0) break;
    if (!stopping) {
      size_t q = t_.QpOfPeer(rr % p_.peers);
      batch.clear();
      while (batch.size() < batch_max && !free_slots[q].empty() &&
             (!p_.iters || posted + batch.size() < p_.iters)) {
        uint32_t slot = free_slots[q].front();
        free_slots[q].pop_front();
        if (p_.op == Op::kRead && p_.verify)
          std::memset(t_.region(0).data(uint64_t{slot} * p_.size), 0, p_.size);
        batch.push_back(MakeWork(static_cast<uint16_t>(rr % p_.peers), slot,
                                 true));
        // UET: one QP, the next WR to the next peer; RC: the next
        // batch to the next QP.
        if (IsUet(p_.transport)) ++rr;
      }
      if (!IsUet(p_.transport)) ++rr;
      if (!batch.empty()) {
        std::string err = t_.Post(batch);
        if (!err.empty()) return err;
        posted += batch.size();
        outstanding += batch.size();
      }
    }
    uint64_t before = completed_;
    std::string err = Reap(free_slots, &outstanding);
    if (!err.empty()) return err;
    if (completed_ != before) last = Clock::now();
  }
  elapsed_ns_ = Ns(last - start);
  return "";
}

// Polls until a completion of the kind wanted arrives; the signaled
// pings' completions seen on the way are reaped.
std::string Client::WaitCompletion(bool want_recv) {
  for (;;) {
    ibv_wc wc;
    int n = t_.Poll({&wc, 1});
    if (n < 0) return "ibv_poll_cq failed";
    if (n == 0) continue;
    if (wc.status != IBV_WC_SUCCESS) return WcError(wc);
    WrId id = DecodeWrId(wc.wr_id);
    if (!id.recv) awaiting_[id.qp] = false;
    if (id.recv == want_recv) return "";
  }
}

// SEND and WRITE pings are signaled once per kLatSignal, as perftest's
// latency tests do: a completion waits for the peer's ACK, which an RC
// responder may coalesce, and that wait is no part of the latency.  A
// signaled ping's completion must be reaped before the next signaled
// one, so that the send queue (SendDepth) never overflows.
std::string Client::PostPing(Work& w, size_t qp) {
  w.signaled = ++unsignaled_[qp] == kLatSignal;
  if (w.signaled) {
    unsignaled_[qp] = 0;
    while (awaiting_[qp]) {
      std::string err = WaitCompletion(false);
      if (!err.empty()) return err;
    }
    awaiting_[qp] = true;
  }
  return t_.Post({&w, 1});
}

std::string Client::LatencyOnce(uint64_t iter) {
  const uint16_t peer = static_cast<uint16_t>(iter % p_.peers);
  const size_t qp = t_.QpOfPeer(peer);
  const uint32_t slot = FirstSlotOfQp(p_, static_cast<uint32_t>(qp));
  Region& r = t_.region(0);
  uint8_t* echo = r.data(uint64_t{EchoSlot(p_)} * p_.size);
  Work w = MakeWork(peer, slot, true);
  std::string err;
  if (p_.op == Op::kWrite) {
    // Ping: our last byte; pong: the server's write of the same byte
    // into the echo slot.  The WRITE's own completion is reaped after.
    uint8_t ping = PingByte(iter);
    r.data(uint64_t{slot} * p_.size)[p_.size - 1] = ping;
    err = PostPing(w, qp);
    if (!err.empty()) return err;
    volatile uint8_t* last = echo + p_.size - 1;
    while (*last != ping) {
    }
    return "";
  }
  if (p_.op == Op::kRead) {
    err = t_.Post({&w, 1});
    if (err.empty()) err = WaitCompletion(false);
    if (err.empty() && p_.verify) CheckSlot(slot);
    return err;
  }
  // SEND: the reply lands in the echo slot, through a receive posted
  // before the ping goes out.
  err = t_.PostRecv(qp, EncodeWrId({true, static_cast<uint32_t>(qp), EchoSlot(p_)}),
                    r.addr(uint64_t{EchoSlot(p_)} * p_.size), p_.size);
  if (err.empty()) err = PostPing(w, qp);
  if (err.empty()) err = WaitCompletion(true);
  if (err.empty() && p_.verify) {
    ++verified_;
    std::optional<uint32_t> seed = CheckPattern({echo, p_.size});
    if (!seed || *seed != SlotSeed(RemoteSlot(p_, slot), p_.size))
      ++verify_errors_;
  }
  return err;
}

std::string Client::RunLatency() {
  Clock::time_point start = Clock::now();
  end_ = start + std::chrono::milliseconds(p_.duration_ms);
  if (p_.iters) samples_.reserve(p_.iters);
  unsignaled_.assign(ClientQps(p_), 0);
  awaiting_.assign(ClientQps(p_), false);
  for (uint64_t iter = 0;; ++iter) {
    Clock::time_point t0 = Clock::now();
    if (Stopping(iter, t0)) break;
    std::string err = LatencyOnce(iter);
    if (!err.empty()) return err;
    samples_.push_back(Ns(Clock::now() - t0));
    ++completed_;
  }
  elapsed_ns_ = Ns(Clock::now() - start);
  // Nothing of ours may be in flight when the QPs go.
  for (size_t q = 0; q < awaiting_.size(); ++q)
    while (awaiting_[q]) {
      std::string err = WaitCompletion(false);
      if (!err.empty()) return err;
    }
  return "";
}

// The data every message carries: slot s the pattern of the server slot
// it goes to, so that the server can check it.
void FillSlots(QpSet& t, const Params& p) {
  for (uint32_t s = 0; s < ClientSlots(p) - 1; ++s)
    FillPattern({t.region(0).data(uint64_t{s} * p.size), p.size},
                SlotSeed(RemoteSlot(p, s), p.size));
}

ClientResult Fail(std::string error) { return {std::nullopt, std::move(error)}; }

// Everything after the connection; a failure here is also told to the
// server, which would otherwise wait for a hello or a done forever.
ClientResult Run(const Options& o, Channel& ch) {
  const Params& p = o.params;
  DeviceResult dr = OpenDevice(o.device, o.ib_port, o.gid_index);
  if (!dr.device) return Fail(dr.error);
  size_t region = uint64_t{ClientSlots(p)} * p.size;
  TransportResult tr = CreateTransport(*dr.device, p, Role::kClient, {&region, 1});
  if (!tr.transport) return Fail(tr.error);
  QpSet& t = *tr.transport;
  FillSlots(t, p);

  std::string err = ch.Send(Hello{p, t.LocalEndpoints()});
  if (!err.empty()) return Fail(err);
  DecodeResult reply = ch.Receive();
  if (!reply.message) return Fail("exchange: " + reply.error);
  if (const auto* rej = std::get_if<Reject>(&*reply.message))
    return Fail("the server refused the run: " + rej->reason);
  const auto* acc = std::get_if<Accept>(&*reply.message);
  if (!acc) return Fail("exchange: the server did not answer the hello");
  if (acc->endpoints.size() != p.peers)
    return Fail("exchange: the server has " +
                std::to_string(acc->endpoints.size()) + " QPs, not " +
                std::to_string(p.peers));
  for (const Endpoint& e : acc->endpoints)
    if (e.len < uint64_t{ServerSlots(p)} * p.size)
      return Fail("exchange: a server buffer of " + std::to_string(e.len) +
                  " bytes is too small");
  err = t.Connect(acc->endpoints);
  if (!err.empty()) return Fail(err);

  Client c(o, t, acc->endpoints);
  err = p.test == Test::kLat ? c.RunLatency() : c.RunBandwidth();
  if (!err.empty()) return Fail(err);
  err = ch.Send(Done{c.completed()});
  if (!err.empty()) return Fail(err);
  DecodeResult res = ch.Receive();
  if (!res.message) return Fail("exchange: " + res.error);
  if (const auto* rej = std::get_if<Reject>(&*res.message))
    return Fail("the server failed: " + rej->reason);
  const auto* result = std::get_if<Result>(&*res.message);
  if (!result) return Fail("exchange: the server sent no result");

  Report rep;
  rep.device = o.device;
  rep.params = p;
  rep.throughput = ComputeThroughput(c.completed(), p.size, c.elapsed_ns());
  if (p.test == Test::kLat)
    rep.latency = SummarizeLatency(c.samples(), p.op == Op::kRead ? 1 : 2);
  if (p.op == Op::kSend) rep.received = result->received;
  if (p.verify) {
    rep.verified = c.verified() + result->verified;
    rep.verify_errors = c.verify_errors() + result->verify_errors;
  }
  return {rep, ""};
}

}  // namespace

ClientResult RunClient(const Options& o) {
  std::string err;
  std::optional<Channel> ch = Channel::Connect(o.host, o.port, &err);
  if (!ch) return Fail(err);
  ClientResult r = Run(o, *ch);
  if (!r.report) ch->Send(Reject{r.error.substr(0, kMaxReason)});
  return r;
}

}  // namespace rue::perf
