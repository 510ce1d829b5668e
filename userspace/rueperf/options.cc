// SPDX-License-Identifier: GPL-2.0
//
// CLI11: the server and client subcommands (and help) and their options,
// whose values values.h's validators check.  CLI11 refuses a missing
// value, an option given twice, a flag with a value, a client without HOST
// and --iters with --duration; the rules on combinations of values come
// after the parse.
//
// Words CLI11 does not know are set aside (allow_extras) and reported here,
// as are the missing command and -d: selftests/rue_perf.sh reads these
// sentences ("unknown option --frob", "-d DEVICE is required", "the
// server takes this from the client").
#include "rueperf/options.h"

#include <CLI/CLI.hpp>

#include <vector>

#include "rueperf/values.h"
#include "tools/cli_leftovers.h"
#include "tools/cli_synopsis.h"

namespace rue::perf {
namespace {

constexpr char kSynopsis[] =
    "rueperf server -d DEV [--port P] [-x GID_INDEX] [-i IB_PORT] [-j]\n"
    "       rueperf client -d DEV HOST [OPTIONS]\n"
    "       rueperf help | -V";

constexpr char kExamples[] =
    "Examples:\n"
    "  rueperf server -d rue0\n"
    "  rueperf client -d rue0 10.0.0.1 --op read --size 4K --depth 32\n"
    "  rueperf client -d rue0 10.0.0.1 --transport rud --job 7 --peers 4 -j";

// An option naming one of an enum's values: one of names, which parse
// turns into the value.
template <typename E>
void AddWord(CLI::App* app, const std::string& name, E* value,
             std::optional<E> (*parse)(std::string_view),
             std::vector<std::string> names, const std::string& help) {
  std::string choices;
  for (const std::string& n : names)
    choices += (choices.empty() ? "" : "|") + n;
  app->add_option_function<std::string>(
         name, [value, parse](const std::string& w) { *value = *parse(w); },
         help)
      ->check(OneOf(std::move(names)))
      ->type_name(choices);
}

// A flag, refused twice as every option is (CLI11 lets flags repeat).
void AddFlag(CLI::App* app, const std::string& name, bool* flag,
             const std::string& help) {
  app->add_flag(name, *flag, help)
      ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
}

// The parse: the apps, bound to the options, and what the checks after the
// parse need to see.
class CommandLine {
 public:
  CommandLine();

  CLI::App& app() { return app_; }
  // "" or why the parsed command line cannot run.
  std::string Check();
  // The --help text for what was parsed: the chosen command's, or all.
  std::string Help() const;

  Options options;

 private:
  void AddCommon(CLI::App* sub);
  void AddClient();
  std::string CheckLeftovers(const CLI::App& sub) const;
  std::string CheckClient();

  CLI::App app_{"", "rueperf"};
  CLI::App* server_;
  CLI::App* client_;
  CLI::App* help_;
};

CommandLine::CommandLine() {
  // Subcommands take these from app_ when they are made.
  app_.allow_extras();
  app_.option_defaults()->disable_flag_override();
  app_.set_version_flag("-V,--version", "", "print the version");
  server_ = app_.add_subcommand(
      "server", "wait for one client, serve its run, print one line");
  client_ = app_.add_subcommand(
      "client", "run the test with the server at HOST and report");
  help_ = app_.add_subcommand("help", "print this text");
  app_.require_subcommand(0, 1);
  AddCommon(server_);
  AddCommon(client_);
  AddClient();
  // After the subcommands, which keep CLI11's usage line.
  cli11::SetSynopsis(&app_, kSynopsis);
  app_.footer(kExamples);
}

void CommandLine::AddCommon(CLI::App* sub) {
  Options& o = options;
  sub->add_option("-d,--device", o.device, "RDMA device")
      ->check(DeviceName())
      ->type_name("DEV");
  sub->add_option("--port", o.port, "TCP port of the exchange (18520)")
      ->transform(Count(1, 65535))
      ->type_name("P");
  sub->add_option("-x,--gid-index", o.gid_index,
                  "GID index (default: the first RoCEv2 GID)")
      ->transform(Count(0, 255))
      ->type_name("N");
  sub->add_option("-i,--ib-port", o.ib_port, "device port (1)")
      ->transform(Count(1, 255))
      ->type_name("N");
  AddFlag(sub, "-j,--json", &o.json, "one JSON object per run");
  AddFlag(sub, "-p,--pretty", &o.pretty, "the same, indented");
}

void CommandLine::AddClient() {
  Params& p = options.params;
  CLI::App* c = client_;
  c->add_option("HOST", options.host, "the server's address")
      ->required()
      ->type_name("");
  AddWord(c, "-t,--transport", &p.transport, ParseTransport,
          {"rc", "rud", "rod"}, "RC QPs, or UET QPs in RUD or ROD mode (rc)");
  AddWord(c, "-o,--op", &p.op, ParseOp, {"send", "write", "read"},
          "operation (write)");
  AddWord(c, "--test", &p.test, ParseTest, {"bw", "lat", "rate"},
          "bandwidth, latency, message rate (bw)");
  c->add_option("-s,--size", p.size, "message size, K/M/G suffixes (65536)")
      ->transform(Count(1, kMaxSize, true))
      ->type_name("BYTES");
  CLI::Option* iters =
      c->add_option("-n,--iters", p.iters, "messages in all (1000)")
          ->transform(Count(1, UINT32_MAX, true))
          ->type_name("N");
  c->add_option("-D,--duration", p.duration_ms,
                "run for a time instead of a count")
      ->transform(Seconds())
      ->type_name("SECONDS")
      ->excludes(iters);
  c->add_option("-q,--depth", p.depth,
                "WRs in flight per client QP (16; lat: 1)")
      ->transform(Count(1, kMaxDepth))
      ->type_name("N");
  c->add_option("-P,--peers", p.peers,
                "server QPs to spread over (1); RC: one client QP per peer, "
                "UET: one client QP for all")
      ->transform(Count(1, kMaxPeers))
      ->type_name("N");
  c->add_option("--job", p.job, "UET job id (required for rud and rod)")
      ->transform(Count(0, kMaxJob))
      ->type_name("ID");
  AddFlag(c, "--verify", &p.verify, "check the data that arrived");
}

// The words sub set aside: "unknown option", or an operand too many; and
// an option of the client's given to the server.
std::string CommandLine::CheckLeftovers(const CLI::App& sub) const {
  const cli11::Leftovers left = cli11::SortLeftovers(sub.remaining());
  if (!left.options.empty()) {
    const std::string& word = left.options.front();
    const std::string name =
        word.substr(0, word.starts_with("--") ? word.find('=') : 2);
    const CLI::Option* theirs = client_->get_option_no_throw(name);
    if (&sub == server_ && theirs)
      return theirs->get_name() + ": the server takes this from the client";
    return "unknown option " + name + " (see 'rueperf help')";
  }
  if (left.arguments.empty()) return "";
  const std::string& word = left.arguments.front();
  if (&sub == server_) return "server: unexpected argument '" + word + "'";
  if (&sub == client_) return "client: one HOST only, got '" + word + "' too";
  return "unknown command '" + word + "': server, client or help";
}

std::string CommandLine::Check() {
  if (std::string e = CheckLeftovers(app_); !e.empty()) return e;
  if (help_->parsed()) {
    options.action = Action::kHelp;
    return "";
  }
  if (!server_->parsed() && !client_->parsed())
    return "a command is required: server, client or help";
  CLI::App* sub = server_->parsed() ? server_ : client_;
  if (std::string e = CheckLeftovers(*sub); !e.empty()) return e;
  options.role = sub == server_ ? Role::kServer : Role::kClient;
  if (options.device.empty()) return "-d DEVICE is required";
  options.json = options.json || options.pretty;
  return options.role == Role::kClient ? CheckClient() : "";
}

// The rules on the client's values that CLI11 cannot say.
std::string CommandLine::CheckClient() {
  Params& p = options.params;
  const bool have_iters = client_->get_option("--iters")->count() > 0;
  const bool have_job = client_->get_option("--job")->count() > 0;
  const bool have_depth = client_->get_option("--depth")->count() > 0;
  if (!have_iters && p.duration_ms == 0) p.iters = kDefaultIters;
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
  return std::string(ParamsError(p));
}

std::string CommandLine::Help() const {
  for (const CLI::App* sub : {server_, client_})
    if (sub->parsed()) return sub->help(app_.get_name());
  // Every command's options.  Through the formatter: once "help" is
  // parsed, app_.help() would print that command's own.
  return app_.get_formatter()->make_help(&app_, app_.get_name(),
                                         CLI::AppFormatMode::All);
}

}  // namespace

ParseResult ParseArgs(std::span<const std::string_view> args) {
  CommandLine cl;
  std::vector<std::string> words(args.rbegin(), args.rend());  // reversed
  try {
    cl.app().parse(std::move(words));
  } catch (const CLI::CallForHelp&) {
    cl.options.action = Action::kHelp;
    return {cl.options, "", cl.Help()};
  } catch (const CLI::CallForVersion&) {
    cl.options.action = Action::kVersion;
    return {cl.options, "", ""};
  } catch (const CLI::ParseError& e) {
    return {std::nullopt, e.what(), ""};
  }
  std::string error = cl.Check();
  if (!error.empty()) return {std::nullopt, error, ""};
  if (cl.options.action == Action::kHelp) return {cl.options, "", cl.Help()};
  return {cl.options, "", ""};
}

std::string Usage() {
  CommandLine cl;
  return cl.Help();
}

}  // namespace rue::perf
