// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job.h"

#include <grp.h>
#include <linux/rue_netlink.h>
#include <pwd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "nl/genl.h"
#include "ruectl/backend.h"
#include "ruectl/cc_value.h"
#include "ruectl/cli.h"

namespace rue::cli {
namespace {

// The messages.

using nl::AttrKind;
using nl::AttrPolicy;

constexpr AttrPolicy kDeviceJobPolicy[] = {
    {RUE_A_DEV_INDEX, AttrKind::kU32, "dev-index", true},
    {RUE_A_DEV_NAME, AttrKind::kString, "dev-name", true},
    {RUE_A_DEV_JOB, AttrKind::kNested, "dev-job", true},
};

constexpr AttrPolicy kJobPolicy[] = {
    {RUE_A_JOB_ID, AttrKind::kU32, "job-id", true},
    {RUE_A_JOB_UID, AttrKind::kU32, "job-uid"},
    {RUE_A_JOB_GID, AttrKind::kU32, "job-gid"},
    {RUE_A_JOB_BOUND, AttrKind::kU32, "job-bound"},
};

std::optional<uint32_t> GetU32(const nl::AttrTable& table, uint16_t type) {
  std::optional<nl::Attr> attr = table.Find(type);
  if (!attr) return std::nullopt;
  return attr->U32();
}

// A request about device `name`, with a job nest when `fill` is given.
template <typename Fill>
nl::MessageBuilder JobRequest(uint16_t family_id, uint8_t cmd,
                              std::string_view name, Fill fill) {
  nl::MessageBuilder request =
      nl::GenlRequest(family_id, cmd, RUE_GENL_VERSION);
  request.PutString(RUE_A_DEV_NAME, name);
  nl::MessageBuilder::Nest nest = request.BeginNest(RUE_A_DEV_JOB);
  fill(request);
  request.EndNest(nest);
  return request;
}

// The arguments.

nl::Error Invalid(std::string message) {
  return nl::Error{EINVAL, std::move(message)};
}

std::string Quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

bool AllDigits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
}

// The ID of user or group `name` through a getpwnam_r(3)-style call
// `lookup`, or nullopt when the database has no such entry.  The buffer
// grows while the call says ERANGE.
template <typename Entry, typename Lookup, typename Id>
std::optional<uint32_t> LookUp(std::string_view name, Lookup lookup, Id id) {
  std::string key(name);
  std::vector<char> buffer(1024);
  for (;;) {
    Entry entry;
    Entry* found = nullptr;
    int err = lookup(key.c_str(), &entry, buffer.data(), buffer.size(), &found);
    if (err == ERANGE && buffer.size() < (1u << 20)) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (err || !found) return std::nullopt;
    return static_cast<uint32_t>(found->*id);
  }
}

// A UID or GID: `what` ("uid", "gid") and `kind` ("user", "group") name it
// in errors.
template <typename Entry, typename Lookup, typename Id>
nl::Result<uint32_t> ParseOwner(std::string_view text, std::string_view what,
                                std::string_view kind, Lookup lookup, Id id) {
  if (AllDigits(text)) {
    nl::Result<uint32_t> number = ParseNumber(text, kMaxId);
    if (!number.ok())
      return Invalid("bad " + std::string(what) + " " + Quoted(text) +
                     ": a number from 0 to " + std::to_string(kMaxId) +
                     " or a " + std::string(kind) + " name");
    return number;
  }
  std::optional<uint32_t> found;
  if (!text.empty()) found = LookUp<Entry>(text, lookup, id);
  if (!found)
    return Invalid("bad " + std::string(what) + " " + Quoted(text) + ": no " +
                   std::string(kind) + " of that name");
  return *found;
}

// The fields: one line of text per job.  A job that admits no user (or no
// group) has no uid (gid) field: only CAP_NET_ADMIN gets in that way.

constexpr Field<Job> kJobFields[] = {
    {"dev", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Value(j.dev); }},
    {"dev-index", Text::kKeyValue, Level::kDetail,
     [](const Job& j) { return Value(uint64_t{j.dev_index}); }},
    {"job", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Value(uint64_t{j.id}); }},
    {"uid", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Optional(j.uid); }},
    {"gid", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Optional(j.gid); }},
    {"bound", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Optional(j.bound); }},
};

// The commands.

const std::string kJobId = "job ID";

constexpr char kUsage[] =
    "Usage: ruectl job [ show [ DEV [ ID ] ] ]\n"
    "       ruectl job add DEV ID [ uid USER ] [ gid GROUP ]\n"
    "       ruectl job del DEV ID\n"
    "       ruectl job help\n";

constexpr char kShowHelp[] =
    "the UET jobs granted on every rue device, on DEV, or job ID of\n"
    "DEV, one a line: device, job ID, the user and the group it\n"
    "admits, and the number of QPs bound to it; -d adds the device\n"
    "index";

constexpr char kAddHelp[] =
    "grant job ID (1-16777215) on DEV (needs CAP_NET_ADMIN): UET QPs\n"
    "of DEV may then bind to it if their creator is USER, is in\n"
    "GROUP, or has CAP_NET_ADMIN.  USER and GROUP are names or\n"
    "numbers; --uid and --gid may stand for uid and gid";

constexpr char kDelHelp[] =
    "revoke job ID on DEV (needs CAP_NET_ADMIN); refused while QPs\n"
    "are bound to it";

constexpr char kFooter[] =
    "\n"
    "Examples:\n"
    "  ruectl job add rue0 42 uid alice\n"
    "  ruectl job add rue0 43 uid 1000 gid 100\n"
    "  ruectl job\n"
    "  ruectl job show rue0\n"
    "  ruectl -j job show rue0 42\n"
    "  ruectl job del rue0 42\n";

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

// Every device's jobs, DEV's, or job ID of DEV.
nl::Result<std::vector<Job>> Select(Backend& backend,
                                    std::optional<std::string> dev,
                                    std::optional<std::string> word) {
  if (!dev) {
    nl::Result<std::vector<Job>> all = backend.ListJobs(std::nullopt);
    if (!all.ok()) return RequestError(all.error(), std::nullopt);
    return all;
  }
  if (!word) {
    nl::Result<std::vector<Job>> jobs = backend.ListJobs(*dev);
    if (!jobs.ok()) return RequestError(jobs.error(), *dev);
    return jobs;
  }
  nl::Result<uint32_t> id = ParseJobId(*word);
  if (!id.ok()) return id.error();
  nl::Result<Job> job = backend.GetJob(*dev, *id);
  if (!job.ok()) return JobError(job.error(), *dev, *id, "reading a job");
  return std::vector<Job>{std::move(job).value()};
}

nl::Status JobShow(Context& context, const CLI::App& command) {
  nl::Result<std::vector<Job>> jobs =
      Select(context.backend, Arg(command, kDev), Arg(command, kJobId));
  if (!jobs.ok()) return jobs.error();
  std::vector<Record> records;
  for (const Job& job : *jobs) records.push_back(JobRecord(job));
  Print(context.out, records, context.options);
  return nl::Ok();
}

// ID and the words after it, then --uid U and --gid G as "uid U" and
// "gid G", for ParseJobGrant().
Args GrantWords(const CLI::App& command) {
  std::vector<std::string> words{*Arg(command, kJobId)};
  for (const std::string& word : command.get_option(kWords)->results())
    words.push_back(word);
  for (const char* key : {"uid", "gid"}) {
    for (const std::string& value :
         command.get_option(std::string("--") + key)->results()) {
      words.push_back(key);
      words.push_back(value);
    }
  }
  return Args(std::move(words));
}

nl::Status JobAdd(Context& context, const CLI::App& command) {
  std::string dev = *Arg(command, kDev);
  Args words = GrantWords(command);
  nl::Result<JobGrant> grant = ParseJobGrant(words);
  if (!grant.ok()) return grant.error();
  nl::Status added = context.backend.AddJob(dev, *grant);
  if (!added.ok())
    return JobError(added.error(), dev, grant->id, "adding a job");
  return nl::Ok();
}

nl::Status JobDel(Context& context, const CLI::App& command) {
  std::string dev = *Arg(command, kDev);
  nl::Result<uint32_t> id = ParseJobId(*Arg(command, kJobId));
  if (!id.ok()) return id.error();
  nl::Status deleted = context.backend.DelJob(dev, *id);
  if (!deleted.ok())
    return JobError(deleted.error(), dev, *id, "deleting a job");
  return nl::Ok();
}

}  // namespace

nl::Result<Job> ParseJob(nl::Bytes attrs) {
  nl::Result<nl::AttrTable> outer =
      nl::AttrTable::Parse(attrs, kDeviceJobPolicy);
  if (!outer.ok()) return outer.error();
  nl::Result<nl::AttrTable> inner =
      nl::AttrTable::Parse(outer->Payload(RUE_A_DEV_JOB), kJobPolicy);
  if (!inner.ok()) return inner.error();
  Job job;
  job.dev_index = outer->U32(RUE_A_DEV_INDEX);
  job.dev = outer->Str(RUE_A_DEV_NAME);
  job.id = inner->U32(RUE_A_JOB_ID);
  job.uid = GetU32(*inner, RUE_A_JOB_UID);
  job.gid = GetU32(*inner, RUE_A_JOB_GID);
  job.bound = GetU32(*inner, RUE_A_JOB_BOUND);
  return job;
}

nl::MessageBuilder JobNewRequest(uint16_t family_id, std::string_view name,
                                 const JobGrant& grant) {
  return JobRequest(family_id, RUE_CMD_JOB_NEW, name,
                    [&grant](nl::MessageBuilder& m) {
                      m.PutU32(RUE_A_JOB_ID, grant.id);
                      if (grant.uid) m.PutU32(RUE_A_JOB_UID, *grant.uid);
                      if (grant.gid) m.PutU32(RUE_A_JOB_GID, *grant.gid);
                    });
}

nl::MessageBuilder JobDelRequest(uint16_t family_id, std::string_view name,
                                 uint32_t id) {
  return JobRequest(
      family_id, RUE_CMD_JOB_DEL, name,
      [id](nl::MessageBuilder& m) { m.PutU32(RUE_A_JOB_ID, id); });
}

nl::MessageBuilder JobGetRequest(uint16_t family_id, std::string_view name,
                                 uint32_t id) {
  return JobRequest(
      family_id, RUE_CMD_JOB_GET, name,
      [id](nl::MessageBuilder& m) { m.PutU32(RUE_A_JOB_ID, id); });
}

nl::MessageBuilder JobDumpRequest(uint16_t family_id,
                                  std::optional<std::string_view> name) {
  nl::MessageBuilder request =
      nl::GenlRequest(family_id, RUE_CMD_JOB_GET, RUE_GENL_VERSION);
  if (name) request.PutString(RUE_A_DEV_NAME, *name);
  return request;
}

nl::Result<uint32_t> ParseJobId(std::string_view text) {
  nl::Result<uint32_t> id = ParseNumber(text, 1, RUE_JOB_ID_MAX);
  if (!id.ok())
    return Invalid("bad job ID " + Quoted(text) + ": job IDs are 1 to " +
                   std::to_string(RUE_JOB_ID_MAX) + " (24 bits)");
  return id;
}

nl::Result<uint32_t> ParseUid(std::string_view text) {
  return ParseOwner<passwd>(text, "uid", "user", getpwnam_r, &passwd::pw_uid);
}

nl::Result<uint32_t> ParseGid(std::string_view text) {
  return ParseOwner<group>(text, "gid", "group", getgrnam_r, &group::gr_gid);
}

nl::Result<JobGrant> ParseJobGrant(Args& args) {
  nl::Result<std::string_view> word = args.Require("job ID");
  if (!word.ok()) return word.error();
  nl::Result<uint32_t> id = ParseJobId(*word);
  if (!id.ok()) return id.error();
  JobGrant grant{*id, std::nullopt, std::nullopt};
  while (!args.empty()) {
    std::string_view key = args.Next();
    if (key != "uid" && key != "gid")
      return Invalid("unexpected argument " + Quoted(key) +
                     "; expected uid or gid");
    std::optional<uint32_t>& slot = key == "uid" ? grant.uid : grant.gid;
    if (slot) return Invalid(std::string(key) + " given twice");
    nl::Result<std::string_view> value =
        args.Require(std::string(key) + " value");
    if (!value.ok()) return value.error();
    nl::Result<uint32_t> number =
        key == "uid" ? ParseUid(*value) : ParseGid(*value);
    if (!number.ok()) return number.error();
    slot = *number;
  }
  return grant;
}

Record JobRecord(const Job& job) { return MakeRecord(job, kJobFields); }

void AddJobObject(Cli& cli) {
  CLI::App* job = cli.AddObject("job", kUsage, kFooter);
  CLI::App* show = cli.AddCommand(job, "show", kShowHelp, JobShow);
  show->add_option(kDev);
  show->add_option(kJobId);
  CLI::App* add = cli.AddCommand(job, "add", kAddHelp, JobAdd);
  add->add_option(kDev)->required();
  add->add_option(kJobId)->required();
  AddWords(add);
  add->add_option("--uid")->type_name("USER")->multi_option_policy(
      CLI::MultiOptionPolicy::TakeAll);
  add->add_option("--gid")->type_name("GROUP")->multi_option_policy(
      CLI::MultiOptionPolicy::TakeAll);
  CLI::App* del = cli.AddCommand(job, "del", kDelHelp, JobDel);
  del->add_option(kDev)->required();
  del->add_option(kJobId)->required();
}

}  // namespace rue::cli
