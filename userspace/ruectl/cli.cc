// SPDX-License-Identifier: GPL-2.0
#include "ruectl/cli.h"

#include <algorithm>
#include <cerrno>
#include <memory>

namespace rue::cli {
namespace {

constexpr char kHelp[] = "help";
constexpr size_t kOptionColumn = 16;  // "-d, --details" and a gap
constexpr size_t kRowGap = 2;         // between a command and its text

std::string Quoted(std::string_view word) {
  return "\"" + std::string(word) + "\"";
}

// Every subcommand of `app`, parsed or not, in the order added.
std::vector<const CLI::App*> Subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

std::vector<std::string_view> Names(const CLI::App& app) {
  std::vector<std::string_view> names;
  for (const CLI::App* sub : Subcommands(app)) names.push_back(sub->get_name());
  return names;
}

// "ruectl", "ruectl dev": how a help command of `app` is spelled.
std::string Path(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent ? Path(*parent) + " " + app.get_name() : app.get_name();
}

// `text` with every line but the first indented by `indent`.
std::string Indented(const std::string& text, size_t indent) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out += std::string(indent, ' ');
  }
  return out;
}

// "OBJECT := { dev | cc }" and a row per global option.
std::string ObjectsAndOptions(const CLI::App& root) {
  std::string objects;
  for (std::string_view name : Names(root)) {
    if (name != kHelp) objects += std::string(objects.empty() ? "" : " | ") +
                                  std::string(name);
  }
  std::string text = "OBJECT := { " + objects + " }\nOPTIONS:\n";
  for (const CLI::Option* option : root.get_options()) {
    std::string names = "-" + option->get_snames().front() + ", --" +
                        option->get_lnames().front();
    names.resize(std::max(names.size(), kOptionColumn), ' ');
    text += "  " + names + option->get_description() + "\n";
  }
  return text;
}

// A row per command but help, the names in a column of their own.
std::string CommandRows(const CLI::App& object) {
  std::vector<const CLI::App*> commands = Subcommands(object);
  std::erase_if(commands, [](auto c) { return c->get_name() == kHelp; });
  size_t width = 0;
  for (const CLI::App* command : commands)
    width = std::max(width, command->get_name().size());
  width += kRowGap;
  std::string text;
  for (const CLI::App* command : commands) {
    std::string name = command->get_name();
    name.resize(width, ' ');
    text += name + Indented(command->get_description(), width) + "\n";
  }
  return text;
}

// CLI11's help (-h, --help) in our layout.
class HelpFormatter : public CLI::FormatterBase {
 public:
  std::string make_help(const CLI::App* app, std::string,
                        CLI::AppFormatMode) const override {
    return HelpText(*app);
  }
};

nl::Status ShowHelp(Context& context, const CLI::App& command) {
  context.out << HelpText(command);
  return nl::Ok();
}

// Every unique prefix of the name of a subcommand of `app`, and so on
// down, as an alias of it: CLI11 then takes "d" for "dev", and "sh" for
// "show" where "s" could also be "set".
void AddPrefixAliases(CLI::App& app) {
  std::vector<std::string_view> names = Names(app);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    const std::string& name = sub->get_name();
    for (size_t length = 1; length < name.size(); ++length) {
      std::string_view prefix = std::string_view(name).substr(0, length);
      if (std::count_if(names.begin(), names.end(), [prefix](auto other) {
            return other.starts_with(prefix);
          }) == 1)
        sub->alias(std::string(prefix));
    }
    AddPrefixAliases(*sub);
  }
}

nl::Error InvalidOption(std::string_view word, const CLI::App& root) {
  return nl::Error{EINVAL, "invalid option " + Quoted(word) + "; try \"" +
                               Path(root) + " -h\""};
}

// `word` where `app` wants the name of one of its subcommands.
nl::Error NotASubcommand(const CLI::App& app, std::string_view word) {
  nl::Result<size_t> name =
      MatchName(Names(app), word, app.get_parent() ? "command" : "object");
  if (name.ok()) return UnexpectedArgument(word);  // one too many
  return nl::Error{EINVAL, name.error().message + "; try \"" + Path(app) +
                               " " + kHelp + "\""};
}

// The word `app` could not place, in iproute2's words.  A word the root app
// could not place is an option it does not have, or an object; one an
// object could not, a command; one a command could not, an argument too
// many.
nl::Error Misplaced(const CLI::App& app, std::string_view word) {
  if (!app.get_parent() && word.size() > 1 && word.starts_with("-")) {
    // getopt_long(3) names the first of a bundle it does not know ("-x"
    // of "-xj"); CLI11 leaves the rest of the bundle unread.
    if (!word.starts_with("--")) word = word.substr(0, 2);
    return InvalidOption(word, app);
  }
  if (Subcommands(app).empty()) return UnexpectedArgument(word);
  return NotASubcommand(app, word);
}

// The first word CLI11 left over in `app` or a subcommand of it that was
// given.
nl::Status CheckLeftovers(const CLI::App& app) {
  std::vector<std::string> left = app.remaining();
  if (!left.empty()) return Misplaced(app, left.front());
  for (const CLI::App* sub : app.get_subcommands()) {
    nl::Status checked = CheckLeftovers(*sub);
    if (!checked.ok()) return checked;
  }
  return nl::Ok();
}

// The app whose help -h asks for: ruectl's before the object, else that
// of the last app given (HelpText() shows a command's object's).
const CLI::App& HelpAsked(const CLI::App& root) {
  const CLI::App* app = &root;
  while (!root.get_help_ptr()->count() && !app->get_subcommands().empty())
    app = app->get_subcommands().front();
  return *app;
}

// CLI11's own errors, in its words but one: a required positional
// missing is "missing DEV".
nl::Error ParseFailure(const CLI::ParseError& error) {
  std::string_view message = error.what();
  constexpr std::string_view kRequired = " is required";
  if (!dynamic_cast<const CLI::RequiredError*>(&error) ||
      !message.ends_with(kRequired))
    return nl::Error{EINVAL, std::string(message)};
  message.remove_suffix(kRequired.size());
  return nl::Error{EINVAL, "missing " + std::string(message)};
}

}  // namespace

Cli::Cli(std::string usage, std::string footer, std::string version)
    : app_(std::move(usage), "ruectl") {
  app_.footer(std::move(footer));
  app_.formatter(std::make_shared<HelpFormatter>());
  // Left-over words get iproute2's errors (CheckLeftovers()), not CLI11's.
  app_.allow_extras();
  // One object, and in it one command: after that, a word is an argument
  // even where it spells an object or a command ("dev show d").
  app_.require_subcommand(0, 1);
  app_.set_help_flag();  // removed here, added last: listed last
  app_.add_flag("-j,--json", options_.json, "print JSON");
  app_.add_flag("-p,--pretty", options_.pretty, "indent the JSON");
  app_.add_flag("-d,--details", options_.details, "print more fields");
  app_.set_version_flag("-V,--version", std::move(version),
                        "print the version");
  app_.set_help_flag("-h,--help", "print this help");
}

CLI::App* Cli::AddObject(std::string name, std::string usage,
                         std::string footer) {
  CLI::App* object = app_.add_subcommand(std::move(name), std::move(usage));
  object->footer(std::move(footer));
  return object;
}

CLI::App* Cli::AddCommand(CLI::App* object, std::string name, std::string help,
                          Handler run) {
  CLI::App* command = object->add_subcommand(std::move(name), std::move(help));
  handlers_[command] = run;
  return command;
}

// The help command of every object, and the help object, come last, as
// in rdma(8); then the prefixes, once every name is known.
void Cli::Finish() {
  for (const CLI::App* object : Subcommands(app_))
    AddCommand(app_.get_subcommand(object), kHelp, "", ShowHelp);
  handlers_[app_.add_subcommand(kHelp)] = ShowHelp;
  AddPrefixAliases(app_);
}

// getopt_long(3), which rdma(8) uses, takes a long option shortened to a
// unique prefix ("--js"); CLI11 2.1.2 does not.  The global options come
// before the object: each of those words is spelled in full here.  None
// takes a value ("--json=yes" is refused, as getopt_long(3) refuses it),
// and "--" ends them: the next word is the object, whatever it looks like.
nl::Result<std::vector<std::string>> Cli::SpellLongOptions(
    std::span<const std::string> words) const {
  std::vector<std::string_view> names;
  for (const CLI::Option* option : app_.get_options())
    names.push_back(option->get_lnames().front());
  std::vector<std::string> spelled(words.begin(), words.end());
  for (auto word = spelled.begin(); word != spelled.end(); ++word) {
    if (*word == "--") {
      word = spelled.erase(word);
      if (word != spelled.end() && word->starts_with("-"))
        return NotASubcommand(app_, *word);  // CLI11 would take an option
      break;
    }
    if (!word->starts_with("-") || *word == "-") break;  // the object
    if (!word->starts_with("--")) continue;  // short ones, maybe bundled
    std::string_view name = std::string_view(*word).substr(2);
    if (name.find('=') != name.npos) return InvalidOption(*word, app_);
    nl::Result<size_t> full = MatchName(names, name, "option");
    if (full.ok()) *word = "--" + std::string(names[*full]);
  }
  return spelled;
}

nl::Result<const CLI::App*> Cli::Parse(std::vector<std::string> words,
                                       std::ostream& out) {
  std::reverse(words.begin(), words.end());  // CLI11 takes them so
  try {
    app_.parse(words);
  } catch (const CLI::CallForHelp&) {
    out << HelpText(HelpAsked(app_));
    return nullptr;
  } catch (const CLI::CallForVersion& version) {
    // -h before the object wins, as it did with getopt_long(3).
    if (app_.get_help_ptr()->count())
      out << HelpText(app_);
    else
      out << version.what() << "\n";
    return nullptr;
  } catch (const CLI::ParseError& error) {
    return ParseFailure(error);
  }
  nl::Status placed = CheckLeftovers(app_);
  if (!placed.ok()) return placed.error();
  const CLI::App* command = Selected();
  if (!command)
    return nl::Error{EINVAL, "missing OBJECT; try \"" + Path(app_) + " " +
                                 kHelp + "\""};
  return command;
}

// The command given, or else the first of the object given; the help
// object is a command of its own.
const CLI::App* Cli::Selected() const {
  std::vector<CLI::App*> objects = app_.get_subcommands();
  if (objects.empty()) return nullptr;
  const CLI::App* object = objects.front();
  std::vector<CLI::App*> commands = object->get_subcommands();
  if (!commands.empty()) return commands.front();
  std::vector<const CLI::App*> all = Subcommands(*object);
  return all.empty() ? object : all.front();
}

nl::Status Cli::Execute(std::span<const std::string> words, Backend& backend,
                        std::ostream& out) {
  Finish();
  nl::Result<std::vector<std::string>> spelled = SpellLongOptions(words);
  if (!spelled.ok()) return spelled.error();
  nl::Result<const CLI::App*> command = Parse(std::move(*spelled), out);
  if (!command.ok()) return command.error();
  if (!*command) return nl::Ok();
  Context context{options_, backend, out};
  return handlers_.at(*command)(context, **command);
}

std::string HelpText(const CLI::App& app) {
  const CLI::App* shown = &app;
  if (Subcommands(app).empty() && app.get_parent()) shown = app.get_parent();
  std::string text = shown->get_description() + "\n";
  text += shown->get_parent() ? CommandRows(*shown) : ObjectsAndOptions(*shown);
  return text + shown->get_footer();
}

std::optional<std::string> Arg(const CLI::App& command,
                               const std::string& name) {
  const CLI::Option* option = command.get_option(name);
  if (option->results().empty()) return std::nullopt;
  return option->results().front();
}

void AddWords(CLI::App* command) {
  command->add_option(kWords)->expected(0, -1)->allow_extra_args();
}

Args WordsOf(const CLI::App& command) {
  return Args(command.get_option(kWords)->results());
}

std::string_view Args::Peek() const {
  return empty() ? std::string_view() : words_[next_];
}

std::string_view Args::Next() {
  std::string_view word = Peek();
  if (!empty()) ++next_;
  return word;
}

nl::Result<std::string_view> Args::Require(std::string_view what) {
  if (empty()) return nl::Error{EINVAL, "missing " + std::string(what)};
  return Next();
}

nl::Status Args::ExpectEnd() const {
  if (empty()) return nl::Ok();
  return UnexpectedArgument(Peek());
}

nl::Error UnexpectedArgument(std::string_view word) {
  return nl::Error{EINVAL, "unexpected argument " + Quoted(word)};
}

nl::Result<size_t> MatchName(std::span<const std::string_view> names,
                             std::string_view word, std::string_view what) {
  std::vector<size_t> hits;
  for (size_t i = 0; i < names.size() && !word.empty(); ++i) {
    if (names[i] == word) return i;
    if (names[i].starts_with(word)) hits.push_back(i);
  }
  std::string message = std::string(what) + " " + Quoted(word);
  if (hits.size() == 1) return hits[0];
  if (hits.empty()) return nl::Error{EINVAL, "unknown " + message};
  message = "ambiguous " + message + ":";
  for (size_t i = 0; i < hits.size(); ++i)
    message += (i ? ", " : " ") + std::string(names[hits[i]]);
  return nl::Error{EINVAL, message};
}

nl::Error RequestError(const nl::Error& error,
                       std::optional<std::string_view> device) {
  if (error.code == ENODEV && device)
    return nl::Error{ENODEV, "device " + Quoted(*device) + " not found"};
  // genetlink's answer to a command the family does not have.
  if (error.code == EOPNOTSUPP && error.message.empty())
    return nl::Error{EOPNOTSUPP,
                     "rue kernel module too old for this command; load a "
                     "newer one"};
  return error;
}

}  // namespace rue::cli
