// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "tools/cli_getopt.h"

#include <algorithm>
#include <string_view>

namespace rue::cli11 {
namespace {

// The long names (without "--") of app's options and of its option groups'
// (nameless subcommands), which parse the same command line.  A name may
// come twice: an option group has a --help of its own.
void CollectLongNames(const CLI::App& app, std::vector<std::string>* names) {
  for (const CLI::Option* option : app.get_options()) {
    const std::vector<std::string>& long_names = option->get_lnames();
    names->insert(names->end(), long_names.begin(), long_names.end());
  }
  const auto groups = app.get_subcommands(
      [](const CLI::App* sub) { return sub->get_name().empty(); });
  for (const CLI::App* group : groups) CollectLongNames(*group, names);
}

// The whole name prefix stands for; "" if it is one already, or stands for
// none or several.
std::string Complete(const std::vector<std::string>& names,
                     std::string_view prefix) {
  if (prefix.empty()) return "";
  if (std::find(names.begin(), names.end(), prefix) != names.end()) return "";
  std::string match;
  for (const std::string& name : names) {
    if (!name.starts_with(prefix) || name == match) continue;
    if (!match.empty()) return "";
    match = name;
  }
  return match;
}

}  // namespace

void ExpandLongPrefixes(const CLI::App& app, std::vector<std::string>* args) {
  std::vector<std::string> names;
  CollectLongNames(app, &names);
  for (std::string& arg : *args) {
    if (arg == "--") return;
    if (arg.size() <= 2 || !arg.starts_with("--")) continue;
    const std::size_t end = std::min(arg.find('='), arg.size());
    const std::string whole = Complete(names, arg.substr(2, end - 2));
    if (!whole.empty()) arg = "--" + whole + arg.substr(end);
  }
}

void ParseLikeGetopt(CLI::App* app, int argc, const char* const argv[]) {
  std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
  ExpandLongPrefixes(*app, &args);
  std::reverse(args.begin(), args.end());  // parse() takes them reversed
  app->parse(std::move(args));
}

}  // namespace rue::cli11
