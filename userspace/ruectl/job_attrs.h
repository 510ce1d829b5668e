// SPDX-License-Identifier: GPL-2.0
//
// Jobs on the wire: a RUE_CMD_JOB_GET reply to a Job, and the requests of
// RUE_CMD_JOB_NEW, _DEL and _GET.  A reply needs the device's index and
// name, the RUE_A_DEV_JOB nest and the job ID in it; the rest may be
// absent (a job that admits no user has no UID), and attributes this code
// does not know are skipped.
#ifndef RUE_RUECTL_JOB_ATTRS_H_
#define RUE_RUECTL_JOB_ATTRS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "nl/attr.h"
#include "nl/message.h"
#include "nl/result.h"
#include "ruectl/job.h"

namespace rue::cli {

// `attrs`: the attributes after the genlmsghdr.  EBADMSG, naming the
// attribute, when one is missing or malformed.
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

}  // namespace rue::cli

#endif  // RUE_RUECTL_JOB_ATTRS_H_
