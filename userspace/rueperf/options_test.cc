// SPDX-License-Identifier: GPL-2.0
#include "rueperf/options.h"

#include <gtest/gtest.h>

#include <vector>

namespace rue::perf {
namespace {

ParseResult Parse(std::vector<std::string_view> args) { return ParseArgs(args); }

std::string Error(std::vector<std::string_view> args) {
  ParseResult r = ParseArgs(args);
  EXPECT_FALSE(r.options) << "parsed";
  return r.error;
}

TEST(Options, ClientDefaults) {
  ParseResult r = Parse({"client", "-d", "rue0", "10.0.0.1"});
  ASSERT_TRUE(r.options) << r.error;
  const Options& o = *r.options;
  EXPECT_EQ(o.role, Role::kClient);
  EXPECT_EQ(o.device, "rue0");
  EXPECT_EQ(o.host, "10.0.0.1");
  EXPECT_EQ(o.port, kDefaultPort);
  EXPECT_EQ(o.gid_index, -1);
  EXPECT_EQ(o.params.transport, Transport::kRc);
  EXPECT_EQ(o.params.op, Op::kWrite);
  EXPECT_EQ(o.params.test, perf::Test::kBw);
  EXPECT_EQ(o.params.iters, kDefaultIters);
  EXPECT_EQ(o.params.duration_ms, 0u);
  EXPECT_EQ(o.params.size, 65536u);
  EXPECT_EQ(o.params.depth, 16u);
  EXPECT_EQ(o.params.peers, 1);
  EXPECT_EQ(o.params.job, 0u);
  EXPECT_FALSE(o.params.verify);
  EXPECT_EQ(o.ib_port, 1);
  EXPECT_FALSE(o.json);
  EXPECT_FALSE(o.pretty);
  EXPECT_EQ(o.action, Action::kRun);
}

TEST(Options, ClientEverything) {
  ParseResult r = Parse({"client", "--device=rue1", "h", "--port", "2000",
                         "-x", "3", "--transport", "rud", "--op", "read",
                         "--test", "rate", "--size", "4K", "--duration",
                         "1.5", "--depth", "32", "--peers", "4", "--job",
                         "7", "--verify", "-p"});
  ASSERT_TRUE(r.options) << r.error;
  const Options& o = *r.options;
  EXPECT_EQ(o.device, "rue1");
  EXPECT_EQ(o.port, 2000);
  EXPECT_EQ(o.gid_index, 3);
  EXPECT_EQ(o.params.transport, Transport::kRud);
  EXPECT_EQ(o.params.op, Op::kRead);
  EXPECT_EQ(o.params.test, perf::Test::kRate);
  EXPECT_EQ(o.params.size, 4096u);
  EXPECT_EQ(o.params.duration_ms, 1500u);
  EXPECT_EQ(o.params.iters, 0u);
  EXPECT_EQ(o.params.depth, 32u);
  EXPECT_EQ(o.params.peers, 4);
  EXPECT_EQ(o.params.job, 7u);
  EXPECT_TRUE(o.params.verify);
  EXPECT_TRUE(o.json);
  EXPECT_TRUE(o.pretty);
}

TEST(Options, Server) {
  ParseResult r = Parse({"server", "-d", "rue0", "--port", "99", "-j"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->role, Role::kServer);
  EXPECT_EQ(r.options->port, 99);
}

TEST(Options, LatencyDepthIsOne) {
  ParseResult r = Parse({"client", "-d", "d", "h", "--test", "lat"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->params.depth, 1u);
}

TEST(Options, HelpAndVersion) {
  EXPECT_EQ(Parse({"help"}).options->action, Action::kHelp);
  EXPECT_EQ(Parse({"client", "--help"}).options->action, Action::kHelp);
  EXPECT_EQ(Parse({"-V"}).options->action, Action::kVersion);
}

TEST(Options, BadCommandLines) {
  EXPECT_EQ(Error({}), "a command is required: server, client or help");
  EXPECT_EQ(Error({"frob"}), "unknown command 'frob': server, client or help");
  EXPECT_EQ(Error({"client", "h"}), "-d DEVICE is required");
  EXPECT_EQ(Error({"client", "-d", "d"}), "HOST is required");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "h2"}),
            "client: one HOST only, got 'h2' too");
  EXPECT_EQ(Error({"server", "-d", "d", "h"}),
            "server: unexpected argument 'h'");
  EXPECT_EQ(Error({"server", "-d", "d", "--size", "1"}),
            "--size: the server takes this from the client");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--frob"}),
            "unknown option --frob (see 'rueperf help')");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--size"}),
            "--size: 1 required BYTES missing");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-s", "1", "--size", "2"}),
            "--size: At Most 1 required but received 2");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-j", "--json"}),
            "--json: At Most 1 required but received 2");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--size", "abc"}),
            "--size: 'abc' is not a number");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--size", "0"}),
            "--size: 0 is out of range 1..1073741824");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--depth", "2000"}),
            "--depth: 2000 is out of range 1..1024");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--peers", "0"}),
            "--peers: 0 is out of range 1..64");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--port", "70000"}),
            "--port: 70000 is out of range 1..65535");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--transport", "ud"}),
            "--transport: 'ud' is not one of rc, rud, rod");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--op", "atomic"}),
            "--op: 'atomic' is not one of send, write, read");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--test", "x"}),
            "--test: 'x' is not one of bw, lat, rate");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--verify=yes"}),
            "verify was given a disallowed flag override");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-n", "5", "-D", "1"}),
            "--iters excludes --duration");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-D", "0"}),
            "--duration: 0 is out of range 0.001..3600 seconds");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-D", "1.2345"}),
            "--duration: '1.2345' is not a number of seconds");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-t", "rod"}),
            "--transport rod needs --job ID (a job granted with 'ruectl job "
            "add')");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--job", "3"}),
            "--job: jobs are for the UET transports (rud, rod), not rc");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-t", "rud", "--job", "16777216"}),
            "--job: 16777216 is out of range 0..16777215");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--test", "lat", "-q", "4"}),
            "--depth: a latency test keeps one message in flight; leave "
            "--depth out or give 1");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--test", "lat", "--verify"}),
            "--verify: the write latency test ping-pongs on the data itself "
            "and cannot verify it");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-s", "1G", "-q", "2"}),
            "size times depth is over 1 GiB");
  EXPECT_EQ(Error({"client", "-d", "", "h"}),
            "--device: the device name is empty");
  // Numbers are decimal, as before CLI11 (whose own conversion takes hex).
  EXPECT_EQ(Error({"client", "-d", "d", "h", "--port", "0x10"}),
            "--port: '0x10' is not a number");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-q", "+4"}),
            "--depth: '+4' is not a number");
  EXPECT_EQ(Error({"--frob"}), "unknown option --frob (see 'rueperf help')");
  EXPECT_EQ(Error({"server", "-d", "d", "-jq4"}),
            "--depth: the server takes this from the client");
  EXPECT_EQ(Error({"server", "-d", "d", "--op=read"}),
            "--op: the server takes this from the client");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "server"}),
            "client: one HOST only, got 'server' too");
  EXPECT_EQ(Error({"client", "-d", "d", "h", "-V"}),
            "unknown option -V (see 'rueperf help')");
}

TEST(Options, UsageHasExamples) {
  EXPECT_NE(Usage().find("Examples:"), std::string::npos);
}

// CLI11 writes the help: all of it for "help" and -h, a command's for
// that command's -h.
TEST(Options, Help) {
  const std::string all = Usage();
  EXPECT_TRUE(all.starts_with(
      "Usage: rueperf server -d DEV [--port P] [-x GID_INDEX] [-i IB_PORT] "
      "[-j]\n       rueperf client -d DEV HOST [OPTIONS]\n"))
      << all;
  for (const char* text : {"-t,--transport rc|rud|rod", "-D,--duration SECONDS",
                           "Excludes: --iters", "-V,--version", "Examples:"})
    EXPECT_NE(all.find(text), std::string::npos) << text << "\n" << all;
  EXPECT_EQ(Parse({"help"}).help, all);
  EXPECT_EQ(Parse({"-h"}).help, all);

  const std::string client = Parse({"client", "-h"}).help;
  EXPECT_NE(client.find("Usage: rueperf client [OPTIONS] HOST\n"),
            std::string::npos) << client;
  EXPECT_NE(client.find("--verify"), std::string::npos) << client;
  const std::string server = Parse({"server", "--help"}).help;
  EXPECT_NE(server.find("Usage: rueperf server [OPTIONS]\n"),
            std::string::npos) << server;
  EXPECT_EQ(server.find("--verify"), std::string::npos) << server;
}

TEST(Options, NumbersAreDecimal) {
  ParseResult r = Parse({"client", "-d", "d", "h", "-q", "010", "-s", "2k"});
  ASSERT_TRUE(r.options) << r.error;
  EXPECT_EQ(r.options->params.depth, 10u);
  EXPECT_EQ(r.options->params.size, 2048u);
}

}  // namespace
}  // namespace rue::perf
