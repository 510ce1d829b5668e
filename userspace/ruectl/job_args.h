// SPDX-License-Identifier: GPL-2.0
//
// The arguments of "ruectl job": job IDs, users and groups, and the words
// of "job add DEV" after DEV.  Everything is checked here, before any
// request, and every error names the word at fault.
#ifndef RUE_RUECTL_JOB_ARGS_H_
#define RUE_RUECTL_JOB_ARGS_H_

#include <cstdint>
#include <string_view>

#include "nl/result.h"
#include "ruectl/args.h"
#include "ruectl/job.h"

namespace rue::cli {

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
// order, each at most once.  "--uid" and "--gid" are taken for "uid" and
// "gid".
nl::Result<JobGrant> ParseJobGrant(Args& args);

}  // namespace rue::cli

#endif  // RUE_RUECTL_JOB_ARGS_H_
