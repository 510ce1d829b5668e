// SPDX-License-Identifier: GPL-2.0
//
// rue_nl_fuzz: random requests at the "rue" generic netlink family
// (kernel/core/netlink.c), for selftests/rue_hostile.sh (issue 15, the
// netlink fuzzer).  Every command number (and some past the last), do
// and dump, with attribute sets drawn around the family's policy: the
// device named by index or name (or the index after it, or a name that
// is none), nests of CC, job, QP and PDC attributes of every type with
// payloads of every length, wrong nesting flags, unknown types, and in a
// quarter of the requests 1-4 bytes changed after the message was
// built, or its length cut.  Another quarter is well formed (the device,
// the nest its command takes, attributes of the policy's sizes holding
// small numbers), to reach what the handlers check themselves.
//
// What must hold: every request is answered (an error, or a dump's
// DONE) within 5 s.  With --unprivileged (a user without CAP_NET_ADMIN
// over the device's namespace, or the root of a user namespace of its
// own), no request that changes state (CC_SET, JOB_NEW, JOB_DEL)
// succeeds and no QP or PDC dump returns a QP or a PDC.  The kernel's
// console is the shell's to check.  Exit 1 on a violation, 2 on a bad
// command line or no family.
//
//   rue_nl_fuzz --device rvz --index 5 [--count 20000] [--seed S]
//               [--unprivileged] [-j]

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/rue_netlink.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "nl/genl_socket.h"

namespace {

struct Options {
  std::string device;
  uint32_t index = 0;
  uint64_t count = 20000;
  uint64_t seed = 0;
  bool unprivileged = false;
  bool json = false;
};

// One request's bytes, built by hand: a fuzzer must be able to write
// what no builder would.
class Request {
 public:
  Request(uint16_t family, uint8_t cmd, uint16_t flags, uint32_t seq) {
    buf_.resize(NLMSG_HDRLEN + GENL_HDRLEN);
    auto* nlh = reinterpret_cast<nlmsghdr*>(buf_.data());
    nlh->nlmsg_type = family;
    nlh->nlmsg_flags = flags;
    nlh->nlmsg_seq = seq;
    auto* g = reinterpret_cast<genlmsghdr*>(buf_.data() + NLMSG_HDRLEN);
    g->cmd = cmd;
    g->version = RUE_GENL_VERSION;
  }

  void SetVersion(uint8_t v) {
    reinterpret_cast<genlmsghdr*>(buf_.data() + NLMSG_HDRLEN)->version = v;
  }

  // An attribute of TYPE with PAYLOAD; returns its offset for a nest.
  size_t Put(uint16_t type, const std::vector<uint8_t>& payload) {
    size_t at = buf_.size();
    nlattr a{};
    a.nla_len = static_cast<uint16_t>(NLA_HDRLEN + payload.size());
    a.nla_type = type;
    buf_.resize(at + NLA_ALIGN(a.nla_len));
    std::memcpy(buf_.data() + at, &a, sizeof(a));
    if (!payload.empty())
      std::memcpy(buf_.data() + at + NLA_HDRLEN, payload.data(),
                  payload.size());
    return at;
  }

  // Close the nest opened at AT: its length covers what follows it.
  void EndNest(size_t at) {
    auto len = static_cast<uint16_t>(buf_.size() - at);
    std::memcpy(buf_.data() + at, &len, sizeof(len));
  }

  std::vector<uint8_t>& bytes() {
    reinterpret_cast<nlmsghdr*>(buf_.data())->nlmsg_len =
        static_cast<uint32_t>(buf_.size());
    return buf_;
  }

 private:
  std::vector<uint8_t> buf_;
};

// A u32 attribute's payload, in host order as netlink wants it.
std::vector<uint8_t> U32(uint32_t v) {
  std::vector<uint8_t> p(sizeof(v));
  std::memcpy(p.data(), &v, sizeof(v));
  return p;
}

class Fuzzer {
 public:
  Fuzzer(const Options& opt, uint16_t family)
      : opt_(opt), family_(family), rng_(opt.seed) {}

  // One request; false when it was not answered.
  bool Step(int fd, uint32_t seq);
  void Report() const;
  uint64_t violations() const { return violations_; }

 private:
  uint64_t Pick(uint64_t n) { return rng_() % n; }
  bool OneIn(uint64_t n) { return Pick(n) == 0; }
  std::vector<uint8_t> Payload();
  std::vector<uint8_t> DeviceName();
  void PutDevice(Request& r);
  void PutNest(Request& r, uint16_t type, uint16_t max);
  void PutWellFormed(Request& r, uint16_t type, uint16_t max,
                     size_t (*size)(uint16_t));
  Request Build(uint8_t cmd, uint32_t seq);
  Request BuildWellFormed(uint8_t cmd, uint32_t seq);
  void Mutate(std::vector<uint8_t>& b);
  bool Answer(int fd, uint8_t cmd, uint32_t seq);

  const Options& opt_;
  uint16_t family_;
  std::mt19937_64 rng_;
  uint64_t sent_ = 0, answered_ = 0, succeeded_ = 0, violations_ = 0;
  uint64_t mutated_ = 0, dumps_ = 0, messages_ = 0, changes_ = 0;
  std::map<int, uint64_t> errors_;
};

// A payload: half of them a u8, u16, u32 or u64 holding a small number;
// the others of a length a policy checks against (0, 1, 2, 4, 8), one
// past or short of them, or anything up to 300 bytes, holding random or
// small bytes.
std::vector<uint8_t> Fuzzer::Payload() {
  static const size_t lens[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 16};
  static const size_t fits[] = {1, 2, 4, 8};
  if (OneIn(2)) {
    std::vector<uint8_t> p(fits[Pick(std::size(fits))]);
    p[0] = static_cast<uint8_t>(Pick(8));
    return p;
  }
  size_t n = OneIn(8) ? Pick(301) : lens[Pick(std::size(lens))];
  std::vector<uint8_t> p(n);
  bool small = OneIn(2);
  for (auto& b : p) b = static_cast<uint8_t>(small ? Pick(4) : rng_());
  if (small && n >= 4 && OneIn(4)) std::memset(p.data(), 0xff, 4);
  return p;
}

std::vector<uint8_t> Fuzzer::DeviceName() {
  std::string n = opt_.device;
  switch (Pick(5)) {
    case 0:
      n.pop_back();  // a prefix
      break;
    case 1:
      n += 'x';
      break;
    case 2:
      n.assign(Pick(80), 'r');  // past IB_DEVICE_NAME_MAX, or empty
      break;
    default:
      break;
  }
  std::vector<uint8_t> p(n.begin(), n.end());
  if (!OneIn(8)) p.push_back(0);  // sometimes not terminated
  return p;
}

void Fuzzer::PutDevice(Request& r) {
  if (OneIn(2)) {
    // The device or the next index, which the newest device leaves
    // free: a root run must not change the devices of other tests.
    uint32_t idx = opt_.index + static_cast<uint32_t>(Pick(2));
    if (OneIn(8)) idx = static_cast<uint32_t>(rng_());
    r.Put(RUE_A_DEV_INDEX, U32(idx));
  } else {
    r.Put(RUE_A_DEV_NAME, DeviceName());
  }
}

// A nest of TYPE holding 0-5 attributes of types up to MAX + 2, a few of
// them nests again (one level).
void Fuzzer::PutNest(Request& r, uint16_t type, uint16_t max) {
  uint16_t flag = OneIn(4) ? 0 : NLA_F_NESTED;
  size_t at = r.Put(type | flag, {});
  for (uint64_t i = OneIn(2) ? 1 : Pick(6); i > 0; i--) {
    auto t = static_cast<uint16_t>(Pick(max + 3u));
    if (OneIn(16)) t |= NLA_F_NET_BYTEORDER;
    if (OneIn(16)) {
      size_t in = r.Put(t | NLA_F_NESTED, {});
      r.Put(static_cast<uint16_t>(Pick(8)), Payload());
      r.EndNest(in);
    } else {
      r.Put(t, Payload());
    }
  }
  r.EndNest(at);
}

// The size the policy wants for a CC attribute (uapi/linux/rue_netlink.h).
size_t CcSize(uint16_t type) {
  switch (type) {
    case RUE_A_CC_DSCP_PRIO:
      return 64;
    case RUE_A_CC_ETS_TSA:
    case RUE_A_CC_ETS_WEIGHT:
      return 8;
    case RUE_A_CC_ECN:
    case RUE_A_CC_CNP_DSCP:
    case RUE_A_CC_CNP_PRIO:
    case RUE_A_CC_NP_ENABLE:
    case RUE_A_CC_RP_ENABLE:
    case RUE_A_CC_CLAMP_TGT_RATE:
    case RUE_A_CC_CLAMP_TGT_RATE_AFTER_TIME_INC:
    case RUE_A_CC_PFC_ENABLE:
    case RUE_A_CC_PFC_PAUSED:
    case RUE_A_CC_PFC_ASSERTED:
    case RUE_A_CC_PRIO:
    case RUE_A_CC_DCQCN_DIFFER:
      return 1;
    default:
      return 4;
  }
}

// A nest of TYPE with 1-3 attributes of known types (1..MAX) of the size
// the policy wants, holding small numbers (or, one in four, anything).
void Fuzzer::PutWellFormed(Request& r, uint16_t type, uint16_t max,
                           size_t (*size)(uint16_t)) {
  size_t at = r.Put(type | NLA_F_NESTED, {});
  for (uint64_t i = 1 + Pick(3); i > 0; i--) {
    auto t = static_cast<uint16_t>(1 + Pick(max));
    std::vector<uint8_t> p(size(t));
    if (OneIn(4))
      for (auto& b : p) b = static_cast<uint8_t>(rng_());
    else
      p[0] = static_cast<uint8_t>(Pick(8));
    r.Put(t, p);
  }
  r.EndNest(at);
}

// The device by its index or name, the nest the command takes, nothing
// else.
Request Fuzzer::BuildWellFormed(uint8_t cmd, uint32_t seq) {
  bool dump = cmd == RUE_CMD_QP_GET || cmd == RUE_CMD_PDC_GET ||
              ((cmd == RUE_CMD_DEV_GET || cmd == RUE_CMD_CC_GET ||
                cmd == RUE_CMD_JOB_GET || cmd == RUE_CMD_UET_STATS_GET) &&
               OneIn(2));
  Request r(family_, cmd, NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0),
            seq);
  if (OneIn(2)) {
    r.Put(RUE_A_DEV_INDEX, U32(opt_.index));
  } else {
    const char* name = opt_.device.c_str();  // with its NUL
    r.Put(RUE_A_DEV_NAME,
          std::vector<uint8_t>(name, name + opt_.device.size() + 1));
  }
  if (cmd == RUE_CMD_CC_SET || cmd == RUE_CMD_CC_GET)
    PutWellFormed(r, RUE_A_DEV_CC, RUE_A_CC_MAX, CcSize);
  if (cmd == RUE_CMD_JOB_NEW || cmd == RUE_CMD_JOB_DEL ||
      cmd == RUE_CMD_JOB_GET)
    PutWellFormed(r, RUE_A_DEV_JOB, RUE_A_JOB_MAX,
                  [](uint16_t) -> size_t { return 4; });
  return r;
}

Request Fuzzer::Build(uint8_t cmd, uint32_t seq) {
  uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
  if (OneIn(3)) flags |= NLM_F_DUMP;
  if (OneIn(32)) flags |= static_cast<uint16_t>(rng_()) & ~NLM_F_DUMP;
  Request r(family_, cmd, flags, seq);
  if (OneIn(32)) r.SetVersion(static_cast<uint8_t>(rng_()));
  if (!OneIn(8)) PutDevice(r);
  if (OneIn(16)) PutDevice(r);  // twice, or index and name
  // The nests the family knows (type, its attributes' last type), and
  // any type holding attributes up to 16; or a plain attribute.
  static const std::pair<uint16_t, uint16_t> nests[] = {
      {RUE_A_DEV_CC, RUE_A_CC_MAX},
      {RUE_A_DEV_JOB, RUE_A_JOB_MAX},
      {RUE_A_DEV_QP, RUE_A_QP_MAX},
      {RUE_A_DEV_PDC, RUE_A_PDC_MAX}};
  for (uint64_t i = Pick(3); i > 0; i--) {
    uint64_t k = Pick(std::size(nests) + 2);
    auto any = static_cast<uint16_t>(Pick(RUE_A_DEV_MAX + 3u));
    if (k < std::size(nests))
      PutNest(r, nests[k].first, nests[k].second);
    else if (k == std::size(nests))
      PutNest(r, any, 16);
    else
      r.Put(any, Payload());
  }
  return r;
}

// 1-4 bytes changed past the netlink header, or the message cut short
// (the header's length says so).
void Fuzzer::Mutate(std::vector<uint8_t>& b) {
  mutated_++;
  if (OneIn(4)) {
    size_t cut = 1 + Pick(b.size() - NLMSG_HDRLEN);
    b.resize(b.size() - cut);
    reinterpret_cast<nlmsghdr*>(b.data())->nlmsg_len =
        static_cast<uint32_t>(b.size());
    return;
  }
  for (uint64_t i = 1 + Pick(4); i > 0; i--)
    b[NLMSG_HDRLEN + Pick(b.size() - NLMSG_HDRLEN)] =
        static_cast<uint8_t>(rng_());
}

// Read until the request's error message or its dump's DONE.  A rue
// message in a QP or PDC dump counts against an unprivileged caller.
bool Fuzzer::Answer(int fd, uint8_t cmd, uint32_t seq) {
  std::vector<uint8_t> buf(1 << 16);
  for (;;) {
    ssize_t n = recv(fd, buf.data(), buf.size(), 0);
    if (n < 0) return false;
    auto len = static_cast<size_t>(n);
    for (auto* h = reinterpret_cast<nlmsghdr*>(buf.data()); NLMSG_OK(h, len);
         h = NLMSG_NEXT(h, len)) {
      if (h->nlmsg_seq != seq) continue;
      if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_DONE) {
        int err = 0;
        if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
          std::memcpy(&err, NLMSG_DATA(h), sizeof(err));
        answered_++;
        if (err == 0) {
          succeeded_++;
          bool change = h->nlmsg_type == NLMSG_ERROR &&
                        (cmd == RUE_CMD_CC_SET || cmd == RUE_CMD_JOB_NEW ||
                         cmd == RUE_CMD_JOB_DEL);
          changes_ += change;
          if (opt_.unprivileged && change) {
            std::fprintf(stderr, "violation: command %u succeeded\n", cmd);
            violations_++;
          }
        } else {
          errors_[-err]++;
        }
        return true;
      }
      if (h->nlmsg_type != family_) continue;
      messages_++;
      auto* g = static_cast<genlmsghdr*>(NLMSG_DATA(h));
      if (opt_.unprivileged &&
          (g->cmd == RUE_CMD_QP_GET || g->cmd == RUE_CMD_PDC_GET)) {
        std::fprintf(stderr, "violation: a %s reached an unprivileged user\n",
                     g->cmd == RUE_CMD_QP_GET ? "QP" : "PDC");
        violations_++;
      }
    }
  }
}

bool Fuzzer::Step(int fd, uint32_t seq) {
  // Mostly the family's commands, some 0 and past the last.
  auto cmd =
      static_cast<uint8_t>(OneIn(10) ? Pick(256) : 1 + Pick(RUE_CMD_MAX));
  // A quarter are well formed: they pass the policy and reach what the
  // handlers check themselves (ranges, the device's state, jobs).
  bool formed = OneIn(4);
  Request r = formed ? BuildWellFormed(cmd, seq) : Build(cmd, seq);
  auto& b = r.bytes();
  if (!formed && OneIn(3)) Mutate(b);
  // The command the kernel sees: a mutation may have changed its byte
  // (a JOB_DEL made a DEV_GET succeeds, and changed nothing).
  // A message cut inside the generic header is no command (0).
  cmd = b.size() >= NLMSG_HDRLEN + GENL_HDRLEN
            ? reinterpret_cast<genlmsghdr*>(b.data() + NLMSG_HDRLEN)->cmd
            : 0;
  if (reinterpret_cast<nlmsghdr*>(b.data())->nlmsg_flags & NLM_F_DUMP) dumps_++;
  sockaddr_nl to{};
  to.nl_family = AF_NETLINK;
  sent_++;
  if (sendto(fd, b.data(), b.size(), 0, reinterpret_cast<sockaddr*>(&to),
             sizeof(to)) < 0) {
    // A message the socket layer refuses never reaches the family.
    errors_[errno]++;
    answered_++;
    return true;
  }
  return Answer(fd, cmd, seq);
}

void Fuzzer::Report() const {
  const std::vector<std::pair<const char*, uint64_t>> fields = {
      {"seed", opt_.seed},         {"sent", sent_},
      {"answered", answered_},     {"succeeded", succeeded_},
      {"changes", changes_},       {"dumps", dumps_},
      {"messages", messages_},     {"mutated", mutated_},
      {"violations", violations_},
  };
  nlohmann::json errs = nlohmann::json::object();
  for (auto& [e, n] : errors_) {
    const char* name = strerrorname_np(e);
    errs[name ? name : std::to_string(e)] = n;
  }
  if (opt_.json) {
    nlohmann::json j;
    for (auto& [k, v] : fields) j[k] = v;
    j["errors"] = errs;
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  for (auto& [k, v] : fields)
    std::printf("%s %llu ", k, static_cast<unsigned long long>(v));
  std::printf("errors %s\n", errs.dump().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  opt.seed = std::random_device{}();
  CLI::App app{"random requests at the rue netlink family"};
  app.add_option("-d,--device", opt.device, "device to aim at")->required();
  app.add_option("--index", opt.index, "its ib_device index")->required();
  app.add_option("-n,--count", opt.count, "requests (20000)");
  app.add_option("--seed", opt.seed, "random seed (printed)");
  app.add_flag("--unprivileged", opt.unprivileged,
               "no change may succeed, no QP or PDC may be seen");
  app.add_flag("-j,--json", opt.json, "one JSON object");
  CLI11_PARSE(app, argc, argv);

  auto gs = rue::nl::GenlSocket::Open();
  if (!gs.ok()) {
    std::fprintf(stderr, "generic netlink: %s\n",
                 gs.error().ToString().c_str());
    return 2;
  }
  auto family = gs->ResolveFamily(RUE_GENL_NAME);
  if (!family.ok()) {
    std::fprintf(stderr, "no %s family\n", RUE_GENL_NAME);
    return 2;
  }
  int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
  timeval tv{5, 0};
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
    std::perror("netlink socket");
    return 2;
  }
  Fuzzer f(opt, family->id);
  for (uint64_t i = 0; i < opt.count; i++) {
    if (!f.Step(fd, static_cast<uint32_t>(i + 1))) {
      std::fprintf(stderr, "request %llu (seed %llu) not answered in 5 s\n",
                   static_cast<unsigned long long>(i + 1),
                   static_cast<unsigned long long>(opt.seed));
      f.Report();
      return 1;
    }
  }
  f.Report();
  return f.violations() ? 1 : 0;
}
