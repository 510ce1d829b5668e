// SPDX-License-Identifier: GPL-2.0
//
// The shared parts of the command line: names and their prefixes, the
// keyword words, request errors, and a toy object run through Cli.
#include "ruectl/cli.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ruectl/test_devices.h"

namespace rue::cli {
namespace {

// Names.

constexpr std::string_view kNames[] = {"show", "set", "stat", "statistics",
                                       "help"};

TEST(MatchNameTest, Exact) {
  EXPECT_EQ(*MatchName(kNames, "set", "command"), 1u);
}

TEST(MatchNameTest, UniquePrefix) {
  EXPECT_EQ(*MatchName(kNames, "sh", "command"), 0u);
  EXPECT_EQ(*MatchName(kNames, "h", "command"), 4u);
  EXPECT_EQ(*MatchName(kNames, "stati", "command"), 3u);
}

TEST(MatchNameTest, ExactBeatsLongerNames) {
  EXPECT_EQ(*MatchName(kNames, "stat", "command"), 2u);
}

TEST(MatchNameTest, AmbiguousListsCandidates) {
  nl::Result<size_t> hit = MatchName(kNames, "s", "command");
  ASSERT_FALSE(hit.ok());
  EXPECT_EQ(hit.error().code, EINVAL);
  EXPECT_EQ(hit.error().message,
            "ambiguous command \"s\": show, set, stat, statistics");
  EXPECT_EQ(MatchName(kNames, "sta", "command").error().message,
            "ambiguous command \"sta\": stat, statistics");
}

TEST(MatchNameTest, Unknown) {
  nl::Result<size_t> hit = MatchName(kNames, "shows", "command");
  ASSERT_FALSE(hit.ok());
  EXPECT_EQ(hit.error().message, "unknown command \"shows\"");
}

TEST(MatchNameTest, EmptyWordMatchesNothing) {
  EXPECT_EQ(MatchName(kNames, "", "object").error().message,
            "unknown object \"\"");
}

// Keyword words.

TEST(ArgsTest, TakesWordsInOrder) {
  Args args({"show", "rue0"});
  EXPECT_FALSE(args.empty());
  EXPECT_EQ(args.Peek(), "show");
  EXPECT_EQ(args.Next(), "show");
  EXPECT_EQ(args.Next(), "rue0");
  EXPECT_TRUE(args.empty());
  EXPECT_EQ(args.Next(), "");
  EXPECT_EQ(args.Peek(), "");
}

TEST(ArgsTest, RequireNamesWhatIsMissing) {
  Args args({"rue0"});
  nl::Result<std::string_view> dev = args.Require("DEV");
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(*dev, "rue0");
  nl::Result<std::string_view> mtu = args.Require("MTU");
  ASSERT_FALSE(mtu.ok());
  EXPECT_EQ(mtu.error().code, EINVAL);
  EXPECT_EQ(mtu.error().message, "missing MTU");
}

TEST(ArgsTest, ExpectEnd) {
  Args args({"rue0", "extra"});
  args.Next();
  nl::Status end = args.ExpectEnd();
  ASSERT_FALSE(end.ok());
  EXPECT_EQ(end.error().message, "unexpected argument \"extra\"");
  args.Next();
  EXPECT_TRUE(args.ExpectEnd().ok());
}

// Request errors.

TEST(RequestErrorTest, NoSuchDevice) {
  nl::Error e = RequestError({ENODEV, "no such rue device"}, "rue9");
  EXPECT_EQ(e.code, ENODEV);
  EXPECT_EQ(e.message, "device \"rue9\" not found");
}

TEST(RequestErrorTest, NoDeviceNamedKeepsTheKernelsWords) {
  nl::Error e = RequestError({ENODEV, "gone"}, std::nullopt);
  EXPECT_EQ(e.message, "gone");
}

TEST(RequestErrorTest, UnknownCommandMeansOldModule) {
  nl::Error e = RequestError({EOPNOTSUPP, ""}, "rue0");
  EXPECT_EQ(e.code, EOPNOTSUPP);
  EXPECT_EQ(e.message,
            "rue kernel module too old for this command; load a newer one");
  // With a reason, the kernel knew the command: its reason stands.
  EXPECT_EQ(RequestError({EOPNOTSUPP, "not on this link"}, "rue0").message,
            "not on this link");
}

TEST(RequestErrorTest, OthersPass) {
  nl::Error e = RequestError({EINVAL, "bad"}, "rue0");
  EXPECT_EQ(e.code, EINVAL);
  EXPECT_EQ(e.message, "bad");
}

// Objects and commands: a toy "thing" through Cli, as ruectl's own go.

nl::Status Show(Context& c, const CLI::App& command) {
  c.out << "show";
  if (std::optional<std::string> dev = Arg(command, kDev)) c.out << " " << *dev;
  Args words = WordsOf(command);
  while (!words.empty()) c.out << " " << words.Next();
  if (c.options.json) c.out << " json";
  return nl::Ok();
}

nl::Status Set(Context& c, const CLI::App& command) {
  c.out << "set " << *Arg(command, kDev);
  return nl::Ok();
}

nl::Status Broken(Context&, const CLI::App&) {
  return nl::Error{EIO, "broken"};
}

class CliTest : public ::testing::Test {
 protected:
  nl::Status Run(std::vector<std::string> words) {
    Cli cli("Usage: ruectl [ OPTIONS ] OBJECT\n", "\nThe end.\n", "v1");
    CLI::App* thing = cli.AddObject("thing", "Usage: ruectl thing\n",
                                    "\nExamples:\n  ruectl thing\n");
    CLI::App* show = cli.AddCommand(thing, "show", "shows\nthings", Show);
    show->add_option(kDev);
    AddWords(show);
    cli.AddCommand(thing, "set", "sets", Set)->add_option(kDev)->required();
    cli.AddCommand(thing, "break", "fails", Broken);
    cli.AddObject("other", "Usage: ruectl other\n", "");
    return cli.Execute(words, backend_, out_);
  }

  testing::FakeBackend backend_;
  std::ostringstream out_;
};

TEST_F(CliTest, FirstCommandIsTheDefault) {
  ASSERT_TRUE(Run({"thing"}).ok());
  EXPECT_EQ(out_.str(), "show");
}

TEST_F(CliTest, PrefixesSelectObjectAndCommandAndPassTheRest) {
  ASSERT_TRUE(Run({"t", "sh", "rue0", "x", "prio"}).ok());
  EXPECT_EQ(out_.str(), "show rue0 x prio");
}

TEST_F(CliTest, ExactName) {
  ASSERT_TRUE(Run({"thing", "set", "rue0"}).ok());
  EXPECT_EQ(out_.str(), "set rue0");
}

// After its command, a word is an argument, even one naming a command or
// an object, or a prefix of one.
TEST_F(CliTest, ArgumentsSpellingNames) {
  ASSERT_TRUE(Run({"thing", "show", "set", "t", "other", "-1"}).ok());
  EXPECT_EQ(out_.str(), "show set t other -1");
}

TEST_F(CliTest, GlobalOptionsBundledAndShortened) {
  ASSERT_TRUE(Run({"-jp", "--js", "--", "thing"}).ok());
  EXPECT_EQ(out_.str(), "show json");
}

TEST_F(CliTest, AmbiguousPrefixPointsAtHelp) {
  nl::Status s = Run({"thing", "s"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
  EXPECT_EQ(s.error().message,
            "ambiguous command \"s\": show, set; try \"ruectl thing help\"");
  EXPECT_EQ(out_.str(), "");
}

TEST_F(CliTest, UnknownPointsAtHelp) {
  nl::Status s = Run({"thing", "frob"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "unknown command \"frob\"; try \"ruectl thing help\"");
  EXPECT_EQ(Run({"thingy"}).error().message,
            "unknown object \"thingy\"; try \"ruectl help\"");
  EXPECT_EQ(Run({"thing", "-j"}).error().message,
            "unknown command \"-j\"; try \"ruectl thing help\"");
}

TEST_F(CliTest, HandlerErrorComesBack) {
  nl::Status s = Run({"thing", "b"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EIO);
}

TEST_F(CliTest, CommandLineErrors) {
  for (auto [words, message] : {
           std::pair{std::vector<std::string>{}, "missing OBJECT; try "
                                                 "\"ruectl help\""},
           std::pair{std::vector<std::string>{"-j"},
                     "missing OBJECT; try \"ruectl help\""},
           std::pair{std::vector<std::string>{"thing", "set"}, "missing DEV"},
           std::pair{std::vector<std::string>{"thing", "set", "a", "b"},
                     "unexpected argument \"b\""},
           std::pair{std::vector<std::string>{"thing", "break", "-x"},
                     "unexpected argument \"-x\""},
           std::pair{std::vector<std::string>{"help", "thing"},
                     "unexpected argument \"thing\""},
           std::pair{std::vector<std::string>{"-q", "thing"},
                     "invalid option \"-q\"; try \"ruectl -h\""},
           std::pair{std::vector<std::string>{"-jq", "thing"},
                     "invalid option \"-q\"; try \"ruectl -h\""},
           std::pair{std::vector<std::string>{"--jsonx", "thing"},
                     "invalid option \"--jsonx\"; try \"ruectl -h\""},
           std::pair{std::vector<std::string>{"--json=1", "thing"},
                     "invalid option \"--json=1\"; try \"ruectl -h\""},
           std::pair{std::vector<std::string>{"--", "-j"},
                     "unknown object \"-j\"; try \"ruectl help\""},
       }) {
    nl::Status s = Run(words);
    ASSERT_FALSE(s.ok()) << message;
    EXPECT_EQ(s.error().code, EINVAL);
    EXPECT_EQ(s.error().message, message);
  }
  EXPECT_EQ(out_.str(), "");
}

constexpr char kRootHelp[] =
    "Usage: ruectl [ OPTIONS ] OBJECT\n"
    "\n"
    "OBJECT := { thing | other }\n"
    "OPTIONS:\n"
    "  -j, --json      print JSON\n"
    "  -p, --pretty    indent the JSON\n"
    "  -d, --details   print more fields\n"
    "  -V, --version   print the version\n"
    "  -h, --help      print this help\n"
    "\n"
    "The end.\n";

constexpr char kThingHelp[] =
    "Usage: ruectl thing\n"
    "\n"
    "show   shows\n"
    "       things\n"
    "set    sets\n"
    "break  fails\n"
    "\n"
    "Examples:\n"
    "  ruectl thing\n";

TEST_F(CliTest, RootHelp) {
  for (std::vector<std::string> words :
       {std::vector<std::string>{"help"}, {"-h"}, {"--he"}, {"-h", "frob"},
        {"-h", "thing"}, {"h"}}) {
    out_.str("");
    ASSERT_TRUE(Run(words).ok()) << words.front();
    EXPECT_EQ(out_.str(), kRootHelp) << words.front();
  }
  EXPECT_EQ(backend_.requests(), 0);
}

TEST_F(CliTest, ObjectHelp) {
  for (std::vector<std::string> words :
       {std::vector<std::string>{"thing", "help"}, {"thing", "h"},
        {"thing", "-h"}, {"thing", "set", "--help"}}) {
    out_.str("");
    ASSERT_TRUE(Run(words).ok()) << words.back();
    EXPECT_EQ(out_.str(), kThingHelp) << words.back();
  }
}

TEST_F(CliTest, Version) {
  ASSERT_TRUE(Run({"-V", "frob"}).ok());
  EXPECT_EQ(out_.str(), "v1\n");
}

}  // namespace
}  // namespace rue::cli
