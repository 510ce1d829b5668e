// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_cmd.h"

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "ruectl/errors.h"
#include "ruectl/job_args.h"
#include "ruectl/job_fields.h"
#include "ruectl/print.h"

namespace rue::cli {
namespace {

constexpr std::string_view kJobHelp =
    "Usage: ruectl job [ show [ DEV [ ID ] ] ]\n"
    "       ruectl job add DEV ID [ uid USER ] [ gid GROUP ]\n"
    "       ruectl job del DEV ID\n"
    "       ruectl job help\n"
    "\n"
    "show  the UET jobs granted on every rue device, on DEV, or job ID of\n"
    "      DEV, one a line: device, job ID, the user and the group it\n"
    "      admits, and the number of QPs bound to it; -d adds the device\n"
    "      index\n"
    "add   grant job ID (1-16777215) on DEV (needs CAP_NET_ADMIN): UET QPs\n"
    "      of DEV may then bind to it if their creator is USER, is in\n"
    "      GROUP, or has CAP_NET_ADMIN.  USER and GROUP are names or\n"
    "      numbers; --uid and --gid may stand for uid and gid\n"
    "del   revoke job ID on DEV (needs CAP_NET_ADMIN); refused while QPs\n"
    "      are bound to it\n"
    "\n"
    "Examples:\n"
    "  ruectl job add rue0 42 uid alice\n"
    "  ruectl job add rue0 43 uid 1000 gid 100\n"
    "  ruectl job\n"
    "  ruectl job show rue0\n"
    "  ruectl -j job show rue0 42\n"
    "  ruectl job del rue0 42\n";

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

// The kernel's refusal of a request about job `id` of device `dev`, in
// words; `doing` says what was asked ("adding a job").  ENOENT is also
// what every request fails with when the module is not loaded: that one
// says so already.
nl::Error JobError(const nl::Error& error, std::string_view dev, uint32_t id,
                   std::string_view doing) {
  std::string job = "job " + std::to_string(id);
  switch (error.code) {
    case EPERM:
      return nl::Error{EPERM, error.ToString() + " (" + std::string(doing) +
                                  " needs CAP_NET_ADMIN)"};
    case EEXIST:
      return nl::Error{EEXIST,
                       "device " + Quoted(dev) + " has " + job + " already"};
    case EBUSY:
      return nl::Error{EBUSY, job + " on device " + Quoted(dev) +
                                  " is in use: QPs are bound to it"};
    case ENOENT:
      if (error.message == kModuleNotLoaded) return error;
      return nl::Error{ENOENT, "no " + job + " on device " + Quoted(dev)};
    default:
      return RequestError(error, dev);
  }
}

// "DEV ID" of add and del, and of show when given.
struct Target {
  std::string_view dev;
  uint32_t id;
};

nl::Result<Target> TakeTarget(Args& args) {
  nl::Result<std::string_view> dev = args.Require("DEV");
  if (!dev.ok()) return dev.error();
  nl::Result<std::string_view> word = args.Require("job ID");
  if (!word.ok()) return word.error();
  nl::Result<uint32_t> id = ParseJobId(*word);
  if (!id.ok()) return id.error();
  return Target{*dev, *id};
}

// Every device's jobs, DEV's, or job ID of DEV, as the words left say.
nl::Result<std::vector<Job>> Select(Backend& backend, Args& args) {
  if (args.empty()) {
    nl::Result<std::vector<Job>> all = backend.ListJobs(std::nullopt);
    if (!all.ok()) return RequestError(all.error(), std::nullopt);
    return all;
  }
  std::string_view dev = args.Next();
  if (args.empty()) {
    nl::Result<std::vector<Job>> jobs = backend.ListJobs(dev);
    if (!jobs.ok()) return RequestError(jobs.error(), dev);
    return jobs;
  }
  nl::Result<uint32_t> id = ParseJobId(args.Next());
  if (!id.ok()) return id.error();
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end.error();
  nl::Result<Job> job = backend.GetJob(dev, *id);
  if (!job.ok()) return JobError(job.error(), dev, *id, "reading a job");
  return std::vector<Job>{std::move(job).value()};
}

nl::Status JobShow(Context& context, Args& args) {
  nl::Result<std::vector<Job>> jobs = Select(context.backend, args);
  if (!jobs.ok()) return jobs.error();
  std::vector<Record> records;
  for (const Job& job : *jobs) records.push_back(JobRecord(job));
  Print(context.out, records, context.options);
  return nl::Ok();
}

nl::Status JobAdd(Context& context, Args& args) {
  nl::Result<std::string_view> dev = args.Require("DEV");
  if (!dev.ok()) return dev.error();
  nl::Result<JobGrant> grant = ParseJobGrant(args);
  if (!grant.ok()) return grant.error();
  nl::Status added = context.backend.AddJob(*dev, *grant);
  if (!added.ok())
    return JobError(added.error(), *dev, grant->id, "adding a job");
  return nl::Ok();
}

nl::Status JobDel(Context& context, Args& args) {
  nl::Result<Target> target = TakeTarget(args);
  if (!target.ok()) return target.error();
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  nl::Status deleted = context.backend.DelJob(target->dev, target->id);
  if (!deleted.ok())
    return JobError(deleted.error(), target->dev, target->id, "deleting a job");
  return nl::Ok();
}

nl::Status JobHelp(Context& context, Args& args) {
  nl::Status end = args.ExpectEnd();
  if (!end.ok()) return end;
  context.out << kJobHelp;
  return nl::Ok();
}

constexpr Command kJobCommands[] = {
    {"show", JobShow},
    {"add", JobAdd},
    {"del", JobDel},
    {"help", JobHelp},
};

constexpr CommandTable kJobTable = {"command", "ruectl job help", kJobCommands};

}  // namespace

nl::Status RunJob(Context& context, Args& args) {
  return RunCommand(kJobTable, context, args);
}

}  // namespace rue::cli
