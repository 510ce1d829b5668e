// SPDX-License-Identifier: GPL-2.0
//
// Whole command lines through Run(), with a fake backend: what lands on
// stdout and stderr, and the exit status.
#include "ruectl/ruectl.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <sstream>

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

TEST_F(RuectlTest, CcShow) {
  EXPECT_EQ(Run({"cc", "show", "rue1"}), 0);
  EXPECT_EQ(out_.str(), "1: rue1:\n    ecn off\n    link-speed 10000\n");
  EXPECT_EQ(err_.str(), "");
}

TEST_F(RuectlTest, CcShowJsonDetails) {
  EXPECT_EQ(Run({"-jd", "cc", "sh", "rue0"}), 0);
  EXPECT_TRUE(out_.str().starts_with(
      "[{\"index\":0,\"name\":\"rue0\",\"ecn\":\"ect0\","))
      << out_.str();
  EXPECT_NE(out_.str().find(",\"dscp-prio\":[0,0,"), std::string::npos);
}

TEST_F(RuectlTest, CcShowPrio) {
  EXPECT_EQ(Run({"-j", "cc", "show", "rue0", "prio", "3"}), 0);
  EXPECT_NE(out_.str().find("\"dcqcn-differ\":[3],\"prio\":3,"),
            std::string::npos)
      << out_.str();
  EXPECT_EQ(err_.str(), "");
}

TEST_F(RuectlTest, CcSetPrio) {
  EXPECT_EQ(Run({"cc", "set", "rue0", "prio", "3", "rpg-ai-rate", "10",
                 "rpg-hai-rate", "100"}),
            0);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), "");
  ASSERT_EQ(backend_.sets().size(), 1u);
  EXPECT_EQ(backend_.sets()[0].second.prio, 3u);
  EXPECT_EQ(backend_.sets()[0].second.rpg_hai_rate, 100u);
}

TEST_F(RuectlTest, CcSet) {
  EXPECT_EQ(Run({"cc", "set", "rue0", "ecn", "ect0", "cnp-dscp", "46"}), 0);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), "");
  ASSERT_EQ(backend_.sets().size(), 1u);
  EXPECT_EQ(backend_.sets()[0].second.cnp_dscp, 46u);
}

TEST_F(RuectlTest, CcSetWithoutPermission) {
  backend_.FailSetWith({EPERM, ""});
  EXPECT_EQ(Run({"cc", "set", "rue0", "ecn", "off"}), 1);
  EXPECT_EQ(err_.str(),
            "ruectl: Operation not permitted (changing congestion control "
            "needs CAP_NET_ADMIN)\n");
}

TEST_F(RuectlTest, CcSetRefusedWithExtack) {
  backend_.FailSetWith({ERANGE, "rpg-max-rate above the link speed"});
  EXPECT_EQ(Run({"cc", "set", "rue0", "rpg-max-rate", "400000"}), 1);
  EXPECT_EQ(err_.str(), "ruectl: rpg-max-rate above the link speed\n");
}

TEST_F(RuectlTest, CcSetEtsWeightsRefusedWithExtack) {
  backend_.FailSetWith({EINVAL, "ETS weights add up to 90, not 100"});
  EXPECT_EQ(Run({"cc", "set", "rue0", "ets-tsa", "2:ets", "ets-weight",
                 "2:50,3:0,4:40"}),
            1);
  EXPECT_EQ(err_.str(), "ruectl: ETS weights add up to 90, not 100\n");
}

TEST_F(RuectlTest, QpShow) {
  EXPECT_EQ(Run({"qp", "show", "rue0"}), 0);
  EXPECT_TRUE(out_.str().starts_with("dev rue0 qpn 1 type GSI state RTS "))
      << out_.str();
  EXPECT_NE(out_.str().find("\ndev rue0 qpn 17 type RC "), std::string::npos);
}

// The global options, as getopt_long(3) took them before CLI11.

TEST_F(RuectlTest, ShortOptions) {
  EXPECT_EQ(Run({"-j", "-p", "-d", "dev", "show", "rue1"}), 0);
  EXPECT_NE(out_.str().find("\n        \"netdev-index\": 3,\n"),
            std::string::npos)
      << out_.str();
}

TEST_F(RuectlTest, LongOptionsAndPrefixes) {
  EXPECT_EQ(Run({"--json", "--pre", "--det", "dev", "show", "rue1"}), 0);
  EXPECT_NE(out_.str().find("\n        \"netdev-index\": 3,\n"),
            std::string::npos)
      << out_.str();
  out_.str("");
  EXPECT_EQ(Run({"--vers"}), 0);
  EXPECT_TRUE(out_.str().starts_with("ruectl utility, rue-")) << out_.str();
  out_.str("");
  EXPECT_EQ(Run({"--he"}), 0);
  EXPECT_TRUE(out_.str().starts_with("Usage: ruectl ")) << out_.str();
}

TEST_F(RuectlTest, RepeatedOptions) {
  EXPECT_EQ(Run({"-jj", "-d", "--details", "dev", "show", "rue1"}), 0);
  EXPECT_TRUE(out_.str().starts_with("[{\"index\":1,")) << out_.str();
  EXPECT_NE(out_.str().find("\"netdev-index\":3,"), std::string::npos);
}

// Options come before the object; after it, "-d" is no option.
TEST_F(RuectlTest, OptionsStopAtTheObject) {
  EXPECT_EQ(Run({"-j", "dev", "show", "-d"}), 1);
  EXPECT_EQ(err_.str(), "ruectl: unexpected argument \"-d\"\n");
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(backend_.requests(), 0);
}

// "--" ends the options: the next word is the object.
TEST_F(RuectlTest, DoubleDashEndsOptions) {
  EXPECT_EQ(Run({"-j", "--", "dev", "show", "rue1"}), 0);
  EXPECT_TRUE(out_.str().starts_with("[{\"index\":1,")) << out_.str();
  EXPECT_EQ(Run({"--", "-j"}), 1);
  EXPECT_EQ(err_.str(), "ruectl: unknown object \"-j\"; try \"ruectl help\"\n");
}

TEST_F(RuectlTest, RunsAgainAfterAnError) {
  EXPECT_EQ(Run({"-x"}), 1);
  out_.str("");
  EXPECT_EQ(Run({"-j", "dev", "show", "rue1"}), 0);
  EXPECT_TRUE(out_.str().starts_with("[{\"index\":1,")) << out_.str();
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

TEST_F(RuectlTest, JobAddShowDel) {
  EXPECT_EQ(Run({"job", "add", "rue1", "9", "--gid", "100"}), 0);
  EXPECT_EQ(Run({"-j", "job", "show", "rue1", "9"}), 0);
  EXPECT_EQ(out_.str(),
            "[{\"dev\":\"rue1\",\"job\":9,\"gid\":100,\"bound\":0}]\n");
  EXPECT_EQ(Run({"job", "del", "rue1", "9"}), 0);
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(Run({"j", "d", "rue1", "9"}), 1);
  EXPECT_EQ(err_.str(), "ruectl: no job 9 on device \"rue1\"\n");
}

TEST_F(RuectlTest, PdcShowAndUetStats) {
  EXPECT_EQ(Run({"p", "s", "rue1"}), 0);
  EXPECT_TRUE(out_.str().starts_with("dev rue1 pdc 3 role initiator "))
      << out_.str();
  out_.str("");
  EXPECT_EQ(Run({"-j", "u", "s", "rue1"}), 0);
  EXPECT_EQ(out_.str(), "[{\"index\":1,\"name\":\"rue1\",\"pdc_opened\":0}]\n");
  EXPECT_EQ(err_.str(), "");
  EXPECT_EQ(Run({"pdc", "show", "rue9"}), 1);
  EXPECT_EQ(err_.str(), "ruectl: device \"rue9\" not found\n");
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
        BadInput{"OtherUnknownLongOption",
                 {"--color", "dev"},
                 "invalid option \"--color\"; try \"ruectl -h\""},
        BadInput{"UnknownShortOptionInBundle",
                 {"--json", "-jx", "dev"},
                 "invalid option \"-x\"; try \"ruectl -h\""},
        BadInput{"LongOptionWithArgument",
                 {"--json=yes", "dev"},
                 "invalid option \"--json=yes\"; try \"ruectl -h\""},
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
                 "unknown command \"-j\"; try \"ruectl dev help\""},
        BadInput{"CcUnknownCommand",
                 {"cc", "frob"},
                 "unknown command \"frob\"; try \"ruectl cc help\""},
        BadInput{"CcDeviceNotFound",
                 {"cc", "show", "rue9"},
                 "device \"rue9\" not found"},
        BadInput{"CcSetNoDevice", {"cc", "set"}, "missing DEV"},
        BadInput{"CcSetNoPairs", {"cc", "set", "rue0"}, "missing KEY VALUE"},
        BadInput{"CcSetNoValue",
                 {"cc", "set", "rue0", "ecn"},
                 "missing value for ecn"},
        BadInput{"CcSetUnknownKey",
                 {"cc", "set", "rue0", "speed", "1"},
                 "unknown cc parameter \"speed\"; try \"ruectl cc help\""},
        BadInput{"CcSetReadOnly",
                 {"cc", "set", "rue0", "link-speed", "1"},
                 "link-speed is read only"},
        BadInput{"CcSetBadEcn",
                 {"cc", "set", "rue0", "ecn", "ce"},
                 "invalid ecn \"ce\": expected off, ect0 or ect1"},
        BadInput{"CcSetBadDscp",
                 {"cc", "set", "rue0", "cnp-dscp", "64"},
                 "invalid cnp-dscp \"64\": out of range 0-63"},
        BadInput{"CcSetBadPrios",
                 {"cc", "set", "rue0", "np-enable", "3,9"},
                 "invalid np-enable \"3,9\": priority \"9\": out of range "
                 "0-7"},
        BadInput{"CcSetBadDscpPrio",
                 {"cc", "set", "rue0", "dscp-prio", "26=3"},
                 "invalid dscp-prio \"26=3\": entry \"26=3\" is not "
                 "DSCP:PRIO"},
        BadInput{"CcShowPrioWithoutDevice",
                 {"cc", "show", "prio", "3"},
                 "missing DEV before \"prio 3\""},
        BadInput{"CcShowPrioOutOfRange",
                 {"cc", "show", "rue0", "prio", "8"},
                 "invalid prio \"8\": out of range 0-7"},
        BadInput{"CcSetPrioOutOfRange",
                 {"cc", "set", "rue0", "prio", "8", "rpg-ai-rate", "10"},
                 "invalid prio \"8\": out of range 0-7"},
        BadInput{"CcSetPrioPerDeviceKey",
                 {"cc", "set", "rue0", "prio", "3", "ecn", "off"},
                 "ecn is per device; prio applies to DCQCN parameters only"},
        BadInput{"CcSetDcqcnDiffer",
                 {"cc", "set", "rue0", "dcqcn-differ", "3"},
                 "dcqcn-differ is read only"},
        BadInput{"CcSetMissingDevice",
                 {"cc", "set", "rue9", "ecn", "off"},
                 "device \"rue9\" not found"},
        BadInput{"QpUnknownCommand",
                 {"qp", "frob"},
                 "unknown command \"frob\"; try \"ruectl qp help\""},
        BadInput{"QpDeviceNotFound",
                 {"qp", "show", "rue9"},
                 "device \"rue9\" not found"},
        BadInput{"QpExtraArgument",
                 {"qp", "show", "rue0", "17"},
                 "unexpected argument \"17\""}),
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
