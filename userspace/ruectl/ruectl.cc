// SPDX-License-Identifier: GPL-2.0
#include "ruectl/ruectl.h"

#include <cerrno>

#include "ruectl/cc.h"
#include "ruectl/command.h"
#include "ruectl/dev.h"
#include "ruectl/job.h"
#include "ruectl/options.h"
#include "ruectl/pdc.h"
#include "ruectl/qp.h"
#include "ruectl/uet.h"

#ifndef RUE_VERSION
#define RUE_VERSION "unknown"
#endif

namespace rue::cli {
namespace {

// OBJECT lists the rows of kObjects but help.
constexpr std::string_view kUsage =
    "Usage: ruectl [ OPTIONS ] OBJECT { COMMAND | help }\n"
    "       ruectl help\n"
    "\n"
    "OBJECT := { dev | cc | qp | job | pdc | uet }\n"
    "OPTIONS:\n"
    "  -j, --json      print JSON\n"
    "  -p, --pretty    indent the JSON\n"
    "  -d, --details   print more fields\n"
    "  -V, --version   print the version\n"
    "  -h, --help      print this help\n"
    "\n"
    "Objects and commands may be shortened to a unique prefix; an object\n"
    "alone runs its show command.  \"ruectl OBJECT help\" lists its commands.\n"
    "\n"
    "Examples:\n"
    "  ruectl dev\n"
    "  ruectl d s rue0\n"
    "  ruectl -j -p dev show rue0\n"
    "  ruectl cc show rue0\n"
    "  ruectl cc set rue0 ecn ect0\n"
    "  ruectl qp show rue0\n"
    "  ruectl job add rue0 42 uid alice\n"
    "  ruectl pdc show rue0\n"
    "  ruectl -j uet stats rue0\n";

constexpr std::string_view kVersion = "ruectl utility, rue-" RUE_VERSION "\n";

nl::Status Help(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kUsage;
  return nl::Ok();
}

constexpr Command kObjects[] = {
    {"dev", RunDev},
    {"cc", RunCc},
    {"qp", RunQp},
    {"job", RunJob},
    {"pdc", RunPdc},
    {"uet", RunUet},
    {"help", Help},
};

constexpr CommandTable kObjectTable = {"object", "ruectl help", kObjects};

nl::Status RunLine(const CommandLine& line, std::ostream& out,
                   Backend& backend) {
  if (line.options.help) {
    out << kUsage;
    return nl::Ok();
  }
  if (line.options.version) {
    out << kVersion;
    return nl::Ok();
  }
  if (line.words.empty())
    return nl::Error{EINVAL, "missing OBJECT; try \"ruectl help\""};
  Context context{line.options, backend, out};
  Args args(line.words);
  return RunCommand(kObjectTable, context, args);
}

}  // namespace

int Run(int argc, char* argv[], std::ostream& out, std::ostream& err,
        Backend& backend) {
  nl::Result<CommandLine> line = ParseCommandLine(argc, argv);
  nl::Status status =
      line.ok() ? RunLine(*line, out, backend) : nl::Status(line.error());
  if (status.ok()) return 0;
  err << "ruectl: " << status.error().ToString() << "\n";
  return 1;
}

}  // namespace rue::cli
