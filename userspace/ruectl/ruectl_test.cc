// SPDX-License-Identifier: GPL-2.0
//
// Whole command lines through Run(), with a fake backend: what lands on
// stdout and stderr, and the exit status.
#include "ruectl/ruectl.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

#include "ruectl/test_argv.h"
#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

using testing::Argv;

class RuectlTest : public ::testing::Test {
 protected:
  int Run(Argv&& args) {
    return cli::Run(args.argc(), args.argv(), out_, err_, backend_);
  }

  testing::FakeBackend backend_;
  std::ostringstream out_;
  std::ostringstream err_;
};

constexpr char kRue1Text[] =
    "1: rue1: netdev eth1 port-state DOWN phys-state DISABLED "
    "active-mtu 4096 netdev-mtu 9000 node-guid 5254:00ff:fe65:4321\n";

TEST_F(RuectlTest, PrefixesSelectDevShow) {
  EXPECT_EQ(Run({"d", "s", "rue1"}), 0);
  EXPECT_EQ(out_.str(), kRue1Text);
  EXPECT_EQ(err_.str(), "");
}

TEST_F(RuectlTest, ObjectAloneRunsShow) {
  EXPECT_EQ(Run({"dev"}), 0);
  EXPECT_NE(out_.str().find("    2: gid ::ffff:192.0.2.1 type RoCEv2\n"),
            std::string::npos);
}

TEST_F(RuectlTest, JsonPrettyDetails) {
  EXPECT_EQ(Run({"-jpd", "dev", "show", "rue1"}), 0);
  EXPECT_TRUE(out_.str().starts_with("[\n    {\n        \"index\": 1,\n  "))
      << out_.str();
  EXPECT_NE(out_.str().find("\"netdev-index\": 3"), std::string::npos);
}

TEST_F(RuectlTest, Version) {
  EXPECT_EQ(Run({"-V"}), 0);
  EXPECT_TRUE(out_.str().starts_with("ruectl utility, rue-")) << out_.str();
}

TEST_F(RuectlTest, HelpOptionAndObject) {
  EXPECT_EQ(Run({"-h"}), 0);
  std::string by_option = out_.str();
  out_.str("");
  EXPECT_EQ(Run({"help"}), 0);
  EXPECT_EQ(out_.str(), by_option);
  EXPECT_TRUE(by_option.starts_with(
      "Usage: ruectl [ OPTIONS ] OBJECT { COMMAND | help }"))
      << by_option;
  EXPECT_NE(by_option.find("\nExamples:\n"), std::string::npos);
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(RuectlTest, ObjectHelp) {
  EXPECT_EQ(Run({"dev", "help"}), 0);
  EXPECT_NE(out_.str().find("ruectl dev show rue0\n"), std::string::npos);
}

struct BadInput {
  const char* name;
  std::vector<const char*> words;
  const char* message;
};

void PrintTo(const BadInput& bad, std::ostream* os) {
  *os << "ruectl";
  for (const char* word : bad.words) *os << " " << word;
}

class RuectlBadInputTest : public RuectlTest,
                           public ::testing::WithParamInterface<BadInput> {};

TEST_P(RuectlBadInputTest, FailsWithMessage) {
  const BadInput& bad = GetParam();
  EXPECT_EQ(Run(Argv(bad.words)), 1);
  EXPECT_EQ(err_.str(), std::string("ruectl: ") + bad.message + "\n");
  EXPECT_EQ(out_.str(), "");
}

INSTANTIATE_TEST_SUITE_P(
    Inputs, RuectlBadInputTest,
    ::testing::Values(
        BadInput{"NoObject", {}, "missing OBJECT; try \"ruectl help\""},
        BadInput{"UnknownObject",
                 {"frob"},
                 "unknown object \"frob\"; try \"ruectl help\""},
        BadInput{"UnknownCommand",
                 {"dev", "frob"},
                 "unknown command \"frob\"; try \"ruectl dev help\""},
        BadInput{"UnknownOption",
                 {"-x", "dev"},
                 "invalid option \"-x\"; try \"ruectl -h\""},
        BadInput{"UnknownLongOption",
                 {"--jsn", "dev"},
                 "invalid option \"--jsn\"; try \"ruectl -h\""},
        BadInput{"DeviceNotFound",
                 {"dev", "show", "rue9"},
                 "device \"rue9\" not found"},
        BadInput{"ExtraArgument",
                 {"dev", "show", "rue0", "x"},
                 "unexpected argument \"x\""},
        BadInput{
            "HelpWithArgument", {"help", "me"}, "unexpected argument \"me\""},
        BadInput{"OptionAfterObject",
                 {"dev", "-j"},
                 "unknown command \"-j\"; try \"ruectl dev help\""}),
    [](const ::testing::TestParamInfo<BadInput>& info) {
      return std::string(info.param.name);
    });

TEST_F(RuectlTest, ModuleNotLoaded) {
  backend_.FailWith({ENOENT, std::string(kModuleNotLoaded)});
  EXPECT_EQ(Run({"dev"}), 1);
  EXPECT_EQ(err_.str(),
            "ruectl: rue kernel module not loaded (modprobe rue)\n");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(RuectlTest, KernelErrorWithoutMessage) {
  backend_.FailWith({EPERM, ""});
  EXPECT_EQ(Run({"dev"}), 1);
  EXPECT_EQ(err_.str(), "ruectl: Operation not permitted\n");
}

}  // namespace
}  // namespace rue::cli
