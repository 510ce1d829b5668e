// SPDX-License-Identifier: GPL-2.0
//
// The "job" object: ruectl job { show [DEV [ID]] | add DEV ID [uid U]
// [gid G] | del DEV ID | help }.  A UET job as RUE_CMD_JOB_GET reports it
// (enum rue_job_attr in uapi/linux/rue_netlink.h), and what "job add"
// grants: the messages, the arguments, the field list "job show" prints,
// and the commands.  Arguments are checked before any request, and every
// error names the word at fault.
#ifndef RUE_RUECTL_JOB_H_
#define RUE_RUECTL_JOB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/print.h"

namespace rue::cli {

class Args;
class Cli;

struct Job {
  uint32_t dev_index = 0;  // ib_device index
  std::string dev;
  uint32_t id = 0;                // 24-bit JobID
  std::optional<uint32_t> uid;    // the user it admits, if any
  std::optional<uint32_t> gid;    // the group it admits, if any
  std::optional<uint32_t> bound;  // QPs bound to it

  bool operator==(const Job&) const = default;
};

// A job to grant: its ID, and whom it admits besides CAP_NET_ADMIN.
struct JobGrant {
  uint32_t id = 0;
  std::optional<uint32_t> uid;
  std::optional<uint32_t> gid;

  bool operator==(const JobGrant&) const = default;
};

// A RUE_CMD_JOB_GET reply; `attrs`: the attributes after the genlmsghdr.
// It needs the device's index and name, the RUE_A_DEV_JOB nest and the
// job ID in it; the rest may be absent (a job that admits no user has no
// UID), and attributes this code does not know are skipped.  EBADMSG,
// naming the attribute, when one is missing or malformed.
nl::Result<Job> ParseJob(nl::Bytes attrs);

// RUE_CMD_JOB_NEW: grant `grant` on device `name`.
nl::MessageBuilder JobNewRequest(uint16_t family_id, std::string_view name,
                                 const JobGrant& grant);
// RUE_CMD_JOB_DEL: revoke job `id` of device `name`.
nl::MessageBuilder JobDelRequest(uint16_t family_id, std::string_view name,
                                 uint32_t id);
// RUE_CMD_JOB_GET as a do: job `id` of device `name`.
nl::MessageBuilder JobGetRequest(uint16_t family_id, std::string_view name,
                                 uint32_t id);
// RUE_CMD_JOB_GET as a dump: the jobs of device `name`, or of every device.
nl::MessageBuilder JobDumpRequest(uint16_t family_id,
                                  std::optional<std::string_view> name);

// The largest UID or GID: (uid_t)-1 means "none" to the kernel.
inline constexpr uint32_t kMaxId = 4294967294u;

// A job ID: a decimal number from 1 to 16777215 (24 bits; 0 is
// reserved).  EINVAL otherwise.
nl::Result<uint32_t> ParseJobId(std::string_view text);

// A user: a decimal number from 0 to kMaxId, or a name in the user
// database (getpwnam_r(3)).  A word of digits is always a number.  EINVAL
// otherwise.
nl::Result<uint32_t> ParseUid(std::string_view text);
// A group, likewise (getgrnam_r(3)).
nl::Result<uint32_t> ParseGid(std::string_view text);

// Takes every word left in `args`: ID, then "uid U" and "gid G" in any
// order, each at most once.  ("job add" gives --uid U and --gid G to
// CLI11, and passes them on here as "uid U" and "gid G" after the rest.)
nl::Result<JobGrant> ParseJobGrant(Args& args);

// What "job show" prints of `job`: one line.
Record JobRecord(const Job& job);

void AddJobObject(Cli& cli);

}  // namespace rue::cli

#endif  // RUE_RUECTL_JOB_H_
