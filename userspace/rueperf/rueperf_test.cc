// SPDX-License-Identifier: GPL-2.0
#include "rueperf/rueperf.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

namespace rue::perf {
namespace {

struct Outcome {
  int status;
  std::string out;
  std::string err;
};

Outcome RunWith(std::vector<std::string_view> args) {
  std::ostringstream out, err;
  int status = Run(args, out, err);
  return {status, out.str(), err.str()};
}

TEST(Rueperf, Help) {
  Outcome o = RunWith({"help"});
  EXPECT_EQ(o.status, 0);
  EXPECT_NE(o.out.find("Usage: rueperf server"), std::string::npos);
  EXPECT_EQ(o.err, "");
}

TEST(Rueperf, Version) {
  Outcome o = RunWith({"--version"});
  EXPECT_EQ(o.status, 0);
  EXPECT_EQ(o.out.rfind("rueperf utility, rue-", 0), 0u);
}

TEST(Rueperf, BadFlagFails) {
  Outcome o = RunWith({"client", "-d", "rue0", "host", "--depth", "x"});
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err, "rueperf: --depth: 'x' is not a number\n");
}

// The client reaches its server before it opens the device (so that
// the server hears why a run fails): port 1 on loopback has none.
TEST(Rueperf, NoServerFails) {
  Outcome o = RunWith({"client", "-d", "rue0", "127.0.0.1", "--port", "1"});
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err,
            "rueperf client: connect to 127.0.0.1 port 1: Connection refused\n");
}

}  // namespace
}  // namespace rue::perf
