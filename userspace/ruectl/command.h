// SPDX-License-Identifier: GPL-2.0
//
// The OBJECT COMMAND grammar.  An object is a table of {name, handler}
// rows; its first row runs when no command is given (show, by
// convention).  The top level is a table of the same kind, whose rows are
// the objects.  Adding an object or a command is adding a row.
#ifndef RUE_RUECTL_COMMAND_H_
#define RUE_RUECTL_COMMAND_H_

#include <ostream>
#include <span>
#include <string_view>

#include "nl/result.h"
#include "ruectl/args.h"
#include "ruectl/backend.h"
#include "ruectl/options.h"

namespace rue::cli {

// What a handler works with.  Errors go back as the Status, and the
// caller reports them on stderr.
struct Context {
  const Options& options;
  Backend& backend;
  std::ostream& out;
};

using Handler = nl::Status (*)(Context& context, Args& args);

struct Command {
  std::string_view name;
  Handler run;
};

struct CommandTable {
  std::string_view what;  // "object" or "command", for errors
  std::string_view help;  // the command that explains the table
  std::span<const Command> rows;
};

// Takes the next word of `args` as a row name (a unique prefix will do)
// and runs that row with the rest; runs the first row if no word is left.
nl::Status RunCommand(const CommandTable& table, Context& context, Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_COMMAND_H_
