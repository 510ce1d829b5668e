// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_attrs.h"

#include <linux/rue_netlink.h>

#include "nl/genl.h"

namespace rue::cli {
namespace {

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

}  // namespace rue::cli
