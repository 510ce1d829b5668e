// SPDX-License-Identifier: GPL-2.0
#include "rueperf/options.h"

#include <charconv>
#include <set>
#include <vector>

namespace rue::perf {
namespace {

// What each option takes and which role accepts it.
struct Spec {
  std::string_view name;   // long form
  std::string_view short_name;
  bool takes_value;
  bool client_only;
};

constexpr Spec kSpecs[] = {
    {"--device", "-d", true, false},  {"--port", "", true, false},
    {"--gid-index", "-x", true, false}, {"--ib-port", "-i", true, false},
    {"--json", "-j", false, false},   {"--pretty", "-p", false, false},
    {"--transport", "-t", true, true}, {"--op", "-o", true, true},
    {"--test", "", true, true},       {"--size", "-s", true, true},
    {"--iters", "-n", true, true},    {"--duration", "-D", true, true},
    {"--depth", "-q", true, true},    {"--peers", "-P", true, true},
    {"--job", "", true, true},        {"--verify", "", false, true},
};

const Spec* FindSpec(std::string_view arg) {
  for (const Spec& s : kSpecs)
    if (arg == s.name || (!s.short_name.empty() && arg == s.short_name))
      return &s;
  return nullptr;
}

std::optional<uint64_t> ParseU64(std::string_view text) {
  uint64_t v = 0;
  if (text.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return v;
}

// Parses one option's value into the options; "" or the error.
class Parser {
 public:
  explicit Parser(Options* o) : o_(o) {}

  std::string Apply(std::string_view name, std::string_view value);
  std::string Finish(bool have_iters, bool have_duration, bool have_job,
                     bool have_depth);

 private:
  std::string Number(std::string_view name, std::string_view value,
                     uint64_t lo, uint64_t hi, uint64_t* out, bool sized);

  Options* o_;
};

std::string Parser::Number(std::string_view name, std::string_view value,
                           uint64_t lo, uint64_t hi, uint64_t* out,
                           bool sized) {
  std::optional<uint64_t> v = sized ? ParseSize(value) : ParseU64(value);
  if (!v)
    return std::string(name) + ": '" + std::string(value) +
           "' is not a number";
  if (*v < lo || *v > hi)
    return std::string(name) + ": " + std::string(value) +
           " is out of range " + std::to_string(lo) + ".." +
           std::to_string(hi);
  *out = *v;
  return "";
}

std::string Parser::Apply(std::string_view name, std::string_view value) {
  Params& p = o_->params;
  uint64_t v = 0;
  std::string err;
  auto bad_word = [&](std::string_view choices) {
    return std::string(name) + ": '" + std::string(value) +
           "' is not one of " + std::string(choices);
  };

  if (name == "--device") {
    if (value.empty()) return "--device: the device name is empty";
    o_->device = value;
  } else if (name == "--port") {
    err = Number(name, value, 1, 65535, &v, false);
    o_->port = static_cast<uint16_t>(v);
  } else if (name == "--gid-index") {
    err = Number(name, value, 0, 255, &v, false);
    o_->gid_index = static_cast<int>(v);
  } else if (name == "--ib-port") {
    err = Number(name, value, 1, 255, &v, false);
    o_->ib_port = static_cast<uint8_t>(v);
  } else if (name == "--json") {
    o_->json = true;
  } else if (name == "--pretty") {
    o_->json = o_->pretty = true;
  } else if (name == "--transport") {
    auto t = ParseTransport(value);
    if (!t) return bad_word("rc, rud, rod");
    p.transport = *t;
  } else if (name == "--op") {
    auto op = ParseOp(value);
    if (!op) return bad_word("send, write, read");
    p.op = *op;
  } else if (name == "--test") {
    auto t = ParseTest(value);
    if (!t) return bad_word("bw, lat, rate");
    p.test = *t;
  } else if (name == "--size") {
    err = Number(name, value, 1, kMaxSize, &v, true);
    p.size = static_cast<uint32_t>(v);
  } else if (name == "--iters") {
    err = Number(name, value, 1, UINT32_MAX, &v, true);
    p.iters = v;
  } else if (name == "--duration") {
    std::optional<uint64_t> ms = ParseSeconds(value);
    if (!ms)
      return "--duration: '" + std::string(value) +
             "' is not a number of seconds";
    if (*ms == 0 || *ms > kMaxDurationMs)
      return "--duration: " + std::string(value) +
             " is out of range 0.001..3600 seconds";
    p.duration_ms = static_cast<uint32_t>(*ms);
  } else if (name == "--depth") {
    err = Number(name, value, 1, kMaxDepth, &v, false);
    p.depth = static_cast<uint32_t>(v);
  } else if (name == "--peers") {
    err = Number(name, value, 1, kMaxPeers, &v, false);
    p.peers = static_cast<uint16_t>(v);
  } else if (name == "--job") {
    err = Number(name, value, 0, kMaxJob, &v, false);
    p.job = static_cast<uint32_t>(v);
  } else if (name == "--verify") {
    p.verify = true;
  }
  return err;
}

std::string Parser::Finish(bool have_iters, bool have_duration, bool have_job,
                           bool have_depth) {
  Params& p = o_->params;
  if (o_->device.empty()) return "-d DEVICE is required";
  if (o_->role == Role::kServer) return "";
  if (o_->host.empty()) return "client: the server's HOST is required";
  if (have_iters && have_duration)
    return "--iters and --duration exclude each other";
  if (!have_iters && !have_duration) p.iters = kDefaultIters;
  if (IsUet(p.transport) && !have_job)
    return "--transport " + std::string(Name(p.transport)) +
           " needs --job ID (a job granted with 'ruectl job add')";
  if (!IsUet(p.transport) && have_job)
    return "--job: jobs are for the UET transports (rud, rod), not rc";
  if (p.test == Test::kLat) {
    if (have_depth && p.depth != 1)
      return "--depth: a latency test keeps one message in flight; "
             "leave --depth out or give 1";
    p.depth = 1;
  }
  if (p.test == Test::kLat && p.op == Op::kWrite && p.verify)
    return "--verify: the write latency test ping-pongs on the data "
           "itself and cannot verify it";
  std::string_view e = ParamsError(p);
  return e.empty() ? "" : std::string(e);
}

}  // namespace

std::optional<uint64_t> ParseSize(std::string_view text) {
  uint64_t mult = 1;
  if (!text.empty()) {
    switch (text.back()) {
    case 'k': case 'K': mult = 1ull << 10; break;
    case 'm': case 'M': mult = 1ull << 20; break;
    case 'g': case 'G': mult = 1ull << 30; break;
    default: break;
    }
    if (mult != 1) text.remove_suffix(1);
  }
  std::optional<uint64_t> v = ParseU64(text);
  if (!v || *v > UINT64_MAX / mult) return std::nullopt;
  return *v * mult;
}

std::optional<uint64_t> ParseSeconds(std::string_view text) {
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac =
      dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (dot != std::string_view::npos && frac.empty()) return std::nullopt;
  if (frac.size() > 3) return std::nullopt;
  std::optional<uint64_t> w = whole.empty() && !frac.empty()
                                  ? std::optional<uint64_t>(0)
                                  : ParseU64(whole);
  if (!w || *w > kMaxDurationMs) return std::nullopt;
  uint64_t ms = *w * 1000;
  if (!frac.empty()) {
    std::optional<uint64_t> f = ParseU64(frac);
    if (!f) return std::nullopt;
    for (size_t i = frac.size(); i < 3; ++i) *f *= 10;
    ms += *f;
  }
  return ms;
}

ParseResult ParseArgs(std::span<const std::string_view> args) {
  Options o;
  if (args.empty()) return {std::nullopt, "a command is required: server, client or help"};
  std::string_view cmd = args[0];
  if (cmd == "help" || cmd == "-h" || cmd == "--help") {
    o.action = Action::kHelp;
    return {o, ""};
  }
  if (cmd == "-V" || cmd == "--version") {
    o.action = Action::kVersion;
    return {o, ""};
  }
  if (cmd == "server")
    o.role = Role::kServer;
  else if (cmd == "client")
    o.role = Role::kClient;
  else
    return {std::nullopt, "unknown command '" + std::string(cmd) +
                              "': server, client or help"};

  Parser parser(&o);
  std::set<std::string_view> seen;
  std::vector<std::string_view> positional;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "-h" || arg == "--help") {
      o.action = Action::kHelp;
      return {o, ""};
    }
    if (arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    std::string_view value;
    bool inline_value = false;
    if (size_t eq = arg.find('='); eq != std::string_view::npos &&
                                   arg.starts_with("--")) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      inline_value = true;
    }
    const Spec* spec = FindSpec(arg);
    if (!spec)
      return {std::nullopt, "unknown option " + std::string(arg) +
                                " (see 'rueperf help')"};
    if (spec->client_only && o.role == Role::kServer)
      return {std::nullopt, std::string(spec->name) +
                                ": the server takes this from the client"};
    if (!seen.insert(spec->name).second)
      return {std::nullopt, std::string(spec->name) + " is given twice"};
    if (spec->takes_value && !inline_value) {
      if (i + 1 >= args.size())
        return {std::nullopt, std::string(spec->name) + " needs a value"};
      value = args[++i];
    } else if (!spec->takes_value && inline_value) {
      return {std::nullopt, std::string(spec->name) + " takes no value"};
    }
    std::string err = parser.Apply(spec->name, value);
    if (!err.empty()) return {std::nullopt, err};
  }
  if (o.role == Role::kServer && !positional.empty())
    return {std::nullopt, "server: unexpected argument '" +
                              std::string(positional[0]) + "'"};
  if (o.role == Role::kClient && positional.size() > 1)
    return {std::nullopt, "client: one HOST only, got '" +
                              std::string(positional[1]) + "' too"};
  if (!positional.empty()) o.host = positional[0];
  std::string err =
      parser.Finish(seen.count("--iters") > 0, seen.count("--duration") > 0,
                    seen.count("--job") > 0, seen.count("--depth") > 0);
  if (!err.empty()) return {std::nullopt, err};
  return {o, ""};
}

std::string Usage() {
  return R"(Usage: rueperf server -d DEV [--port P] [-x GID_INDEX] [-i IB_PORT] [-j]
       rueperf client -d DEV HOST [OPTIONS]
       rueperf help | -V

Client options (the server learns them from the client):
  -t, --transport rc|rud|rod  RC QPs, or UET QPs in RUD or ROD mode (rc)
  -o, --op send|write|read    operation (write)
      --test bw|lat|rate      bandwidth, latency, message rate (bw)
  -s, --size BYTES            message size, K/M/G suffixes (65536)
  -n, --iters N               messages in all (1000)
  -D, --duration SECONDS      run for a time instead of a count
  -q, --depth N               WRs in flight per client QP (16; lat: 1)
  -P, --peers N               server QPs to spread over (1); RC: one client
                              QP per peer, UET: one client QP for all
      --job ID                UET job id (required for rud and rod)
      --verify                check the data that arrived
Common options:
  -d, --device DEV            RDMA device
      --port P                TCP port of the exchange (18520)
  -x, --gid-index N           GID index (default: the first RoCEv2 GID)
  -i, --ib-port N             device port (1)
  -j, --json                  one JSON object per run; -p indents it

Examples:
  rueperf server -d rue0
  rueperf client -d rue0 10.0.0.1 --op read --size 4K --depth 32
  rueperf client -d rue0 10.0.0.1 --transport rud --job 7 --peers 4 -j
)";
}

}  // namespace rue::perf
