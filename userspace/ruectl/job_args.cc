// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_args.h"

#include <grp.h>
#include <linux/rue_netlink.h>
#include <pwd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "ruectl/cc_value.h"

namespace rue::cli {
namespace {

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

}  // namespace

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
    std::string_view given = args.Next();
    std::string_view key = given;
    if (key.starts_with("--")) key.remove_prefix(2);
    if (key != "uid" && key != "gid")
      return Invalid("unexpected argument " + Quoted(given) +
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

}  // namespace rue::cli
