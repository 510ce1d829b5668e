// SPDX-License-Identifier: GPL-2.0
#include "ruectl/ruectl.h"

#include <vector>

#include "ruectl/cc.h"
#include "ruectl/cli.h"
#include "ruectl/dev.h"
#include "ruectl/job.h"
#include "ruectl/pdc.h"
#include "ruectl/qp.h"
#include "ruectl/uet.h"

#ifndef RUE_VERSION
#define RUE_VERSION "unknown"
#endif

namespace rue::cli {
namespace {

// The objects and the options between these are CLI11's (HelpText()).
constexpr char kUsage[] =
    "Usage: ruectl [ OPTIONS ] OBJECT { COMMAND | help }\n"
    "       ruectl help\n";

constexpr char kFooter[] =
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

constexpr char kVersion[] = "ruectl utility, rue-" RUE_VERSION;

}  // namespace

nl::Status Execute(std::span<const std::string> words, Backend& backend,
                   std::ostream& out) {
  Cli cli(kUsage, kFooter, kVersion);
  AddDevObject(cli);
  AddCcObject(cli);
  AddQpObject(cli);
  AddJobObject(cli);
  AddPdcObject(cli);
  AddUetObject(cli);
  return cli.Execute(words, backend, out);
}

int Run(int argc, char* argv[], std::ostream& out, std::ostream& err,
        Backend& backend) {
  std::vector<std::string> words(argv + 1, argv + argc);
  nl::Status status = Execute(words, backend, out);
  if (status.ok()) return 0;
  err << "ruectl: " << status.error().ToString() << "\n";
  return 1;
}

}  // namespace rue::cli
