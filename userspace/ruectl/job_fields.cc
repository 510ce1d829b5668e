// SPDX-License-Identifier: GPL-2.0
#include "ruectl/job_fields.h"

namespace rue::cli {
namespace {

Value Number(const std::optional<uint32_t>& value) {
  if (!value) return Absent{};
  return uint64_t{*value};
}

// One line of text per job.  A job that admits no user (or no group) has
// no uid (gid) field: only CAP_NET_ADMIN gets in that way.
constexpr Field<Job> kJobFields[] = {
    {"dev", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Value(j.dev); }},
    {"dev-index", Text::kKeyValue, Level::kDetail,
     [](const Job& j) { return Value(uint64_t{j.dev_index}); }},
    {"job", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Value(uint64_t{j.id}); }},
    {"uid", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Number(j.uid); }},
    {"gid", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Number(j.gid); }},
    {"bound", Text::kKeyValue, Level::kBrief,
     [](const Job& j) { return Number(j.bound); }},
};

}  // namespace

Record JobRecord(const Job& job) { return MakeRecord(job, kJobFields); }

}  // namespace rue::cli
