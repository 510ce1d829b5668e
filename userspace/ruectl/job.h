// SPDX-License-Identifier: GPL-2.0
//
// A UET job as RUE_CMD_JOB_GET reports it (enum rue_job_attr in
// uapi/linux/rue_netlink.h), and what "ruectl job add" grants.
#ifndef RUE_RUECTL_JOB_H_
#define RUE_RUECTL_JOB_H_

#include <cstdint>
#include <optional>
#include <string>

namespace rue::cli {

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

}  // namespace rue::cli

#endif  // RUE_RUECTL_JOB_H_
