// SPDX-License-Identifier: GPL-2.0
//
// The command line, as CLI11 parses it, and what every object's commands
// share.  ruectl [OPTIONS] OBJECT [COMMAND [ARGS...]]: the global options
// belong to the root app, each object is a subcommand of it, each command
// a subcommand of its object, and a command's arguments are CLI11
// positionals and options of that command.
//
// rdma(8)'s grammar has three things CLI11 2.1.2 lacks, which the glue
// here adds around CLI11 rather than beside it:
//  - an object or command may be shortened to a unique prefix: each unique
//    prefix is an alias of its subcommand, so CLI11 itself matches "d s";
//  - so may a global long option ("--js"): those words are spelled in full
//    before CLI11 sees them;
//  - errors say what iproute2 says ("unknown command "frob"; try ...")
//    about the words CLI11 could not place (it is told to keep them).
// The words after a command's fixed arguments, rdma(8)'s keywords ("prio
// P", "KEY VALUE ..."), are one positional to CLI11; Args walks them.
#ifndef RUE_RUECTL_CLI_H_
#define RUE_RUECTL_CLI_H_

#include <CLI/CLI.hpp>
#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nl/result.h"
#include "ruectl/print.h"

namespace rue::cli {

class Backend;

// What a command works with.  Errors go back as the Status; the caller
// reports them.
struct Context {
  const Options& options;
  Backend& backend;
  std::ostream& out;
};

// A command, run once CLI11 has parsed the line: `command` is its app, to
// read its arguments from.
using Handler = nl::Status (*)(Context& context, const CLI::App& command);

// The positionals the objects share, named as errors name them ("missing
// DEV").
inline const std::string kDev = "DEV";
inline const std::string kWords = "WORDS";  // the keywords after the rest

class Cli {
 public:
  // The root app, ruectl: the global options, and the help around the
  // generated part (HelpText()): `usage` its first lines, `footer` its
  // last.  -V prints `version`.
  Cli(std::string usage, std::string footer, std::string version);
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  // Object `name`, with the first and last lines of its help.
  CLI::App* AddObject(std::string name, std::string usage, std::string footer);
  // Command `name` of `object`, `help` its row in the object's help (the
  // lines after its name).  An object given alone runs its first command.
  CLI::App* AddCommand(CLI::App* object, std::string name, std::string help,
                       Handler run);

  // Parses `words`, the command line after the program's name, and runs
  // the command they select, the help (-h, help) or the version (-V).
  // Once only.
  nl::Status Execute(std::span<const std::string> words, Backend& backend,
                     std::ostream& out);

 private:
  void Finish();
  nl::Result<std::vector<std::string>> SpellLongOptions(
      std::span<const std::string> words) const;
  nl::Result<const CLI::App*> Parse(std::vector<std::string> words,
                                    std::ostream& out);
  const CLI::App* Selected() const;

  Options options_;
  CLI::App app_;
  std::map<const CLI::App*, Handler> handlers_;
};

// The help of `app`, as rdma(8) lays it out: the app's description (its
// usage lines); for the root app, the objects and the global options; for
// an object, a row per command, its name then its description; then the
// footer.  The help of a command is its object's.
std::string HelpText(const CLI::App& app);

// Positional `name` of `command`, if given.
std::optional<std::string> Arg(const CLI::App& command,
                               const std::string& name);

// Adds kWords to `command`: every word after its other positionals.
void AddWords(CLI::App* command);

class Args;
// The kWords of `command`.
Args WordsOf(const CLI::App& command);

// The words after a command's fixed arguments (kWords), taken from the
// front as its keywords are read.
class Args {
 public:
  explicit Args(std::vector<std::string> words) : words_(std::move(words)) {}

  bool empty() const { return next_ == words_.size(); }
  // The next word ("" when none is left), without taking it.
  std::string_view Peek() const;
  // Takes the next word ("" when none is left).
  std::string_view Next();
  // Takes the next word; EINVAL "missing WHAT" when none is left.
  nl::Result<std::string_view> Require(std::string_view what);
  // EINVAL "unexpected argument" if any word is left.
  nl::Status ExpectEnd() const;

 private:
  std::vector<std::string> words_;
  size_t next_ = 0;
};

// EINVAL `unexpected argument "word"`.
nl::Error UnexpectedArgument(std::string_view word);

// iproute2's way with names: the index in `names` that `word` selects, the
// name it equals or else the only one it is a prefix of ("d" for "dev").
// EINVAL otherwise, with `unknown WHAT "word"` or `ambiguous WHAT "word":
// name, name`.
nl::Result<size_t> MatchName(std::span<const std::string_view> names,
                             std::string_view word, std::string_view what);

// What a failed request about `device` (nullopt: about every device) means
// to the user, where the kernel's errno alone would not say it.  ENODEV is
// `device "NAME" not found`; EOPNOTSUPP without a message, the answer of a
// module that predates the request, says the module is too old; anything
// else is passed on as it is.
nl::Error RequestError(const nl::Error& error,
                       std::optional<std::string_view> device);

}  // namespace rue::cli

#endif  // RUE_RUECTL_CLI_H_
