// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CLI11, taking what getopt_long(3) took before (see options.h).  Unknown
// options and operands beyond FILE are set aside by CLI11 (allow_extras)
// and reported here in ruedump's words, which its tests and callers read.
#include "ruedump/options.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <string_view>
#include <vector>

#include "tools/cli_getopt.h"
#include "tools/cli_leftovers.h"
#include "tools/cli_synopsis.h"

namespace rue::dump {
namespace {

constexpr char kSynopsis[] =
    "ruedump [-j] [-x] [-v] [-c COUNT] [-F roce|uet|all] [--check] FILE\n"
    "Decode RoCEv2 (UDP 4791) and UET (UDP 4793) packets in a pcap file (- "
    "for standard input).";

constexpr char kFooter[] =
    "Exit status: 0 ok, 1 bad command line or unreadable file, 2 --check "
    "found\n"
    "malformed packets or bad ICRCs.";

// -c: a positive decimal number, rewritten without leading zeros for
// CLI11's conversion, which would read "010" as octal (and take "0x10" and
// "+5").
CLI::Validator PositiveCount() {
  return CLI::Validator([](std::string& text) -> std::string {
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || value == 0)
      return "COUNT must be a positive integer, not '" + text + "'";
    text = std::to_string(value);
    return "";
  }, "");
}

Selection SelectionOf(const std::string& word) {
  if (word == "roce") return Selection{true, false};
  if (word == "uet") return Selection{false, true};
  return Selection{true, true};
}

void Describe(CLI::App* app, Options* o) {
  cli11::SetSynopsis(app, kSynopsis);
  app->footer(kFooter);
  cli11::LikeGetopt(app);
  app->set_version_flag("-V,--version", "", "the version");
  app->add_flag("-j,--json", o->json, "one JSON object per packet (JSON lines)");
  app->add_flag("-x,--hex", o->hex, "add a hex dump of each packet");
  app->add_flag("-v,--verbose", o->verbose,
                "every field, one a line (with -j: every field)");
  app->add_option("-c,--count", o->count, "stop after COUNT packets shown")
      ->transform(PositiveCount())
      ->type_name("COUNT");
  app->add_option_function<std::string>(
         "-F,--filter",
         [o](const std::string& word) { o->selection = SelectionOf(word); },
         "decode roce, uet or all (default all)")
      ->check(CLI::IsMember({"roce", "uet", "all"}))
      ->type_name("PROTO");
  app->add_flag("--check", o->check,
                "exit 0 only if every packet parsed and every ICRC verified");
  app->add_option("FILE", o->file, "the capture file, - for standard input")
      ->type_name("");
}

// What CLI11 set aside, and the file it needs: "" or the error.
std::string Check(const CLI::App& app, const Options& o) {
  const cli11::Leftovers left = cli11::SortLeftovers(app.remaining());
  if (!left.options.empty())
    return "unknown option '" + left.options.front() + "'";
  if (!left.arguments.empty()) {
    return "one capture file only, not '" + o.file + "' and '" +
           left.arguments.front() + "'";
  }
  if (app.get_option("FILE")->count() == 0)
    return "no capture file given (use - for standard input)";
  return "";
}

}  // namespace

std::optional<Options> ParseOptions(int argc, char* argv[],
                                    std::string* error) {
  Options options;
  CLI::App app("", "ruedump");
  Describe(&app, &options);
  try {
    cli11::ParseLikeGetopt(&app, argc, argv);
  } catch (const CLI::CallForHelp&) {
    options.help = true;
    return options;
  } catch (const CLI::CallForVersion&) {
    options.version = true;
    return options;
  } catch (const CLI::ParseError& e) {
    *error = e.what();
    return std::nullopt;
  }
  *error = Check(app, options);
  if (!error->empty()) return std::nullopt;
  return options;
}

std::string Usage() {
  Options options;
  CLI::App app("", "ruedump");
  Describe(&app, &options);
  return app.help();
}

}  // namespace rue::dump
