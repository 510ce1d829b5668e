// SPDX-License-Identifier: GPL-2.0
//
// Backend: what ruectl asks of the rue kernel module.  NetlinkBackend
// asks the "rue" generic netlink family; tests give their own.  Each new
// object (jobs, congestion control, QPs, statistics) adds its requests
// here.
#ifndef RUE_RUECTL_BACKEND_H_
#define RUE_RUECTL_BACKEND_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "nl/result.h"
#include "ruectl/cc.h"
#include "ruectl/dev.h"
#include "ruectl/job.h"
#include "ruectl/pdc.h"
#include "ruectl/qp.h"
#include "ruectl/uet.h"

namespace rue::cli {

// The message of the ENOENT every request fails with when the "rue"
// family is not registered.
inline constexpr std::string_view kModuleNotLoaded =
    "rue kernel module not loaded (modprobe rue)";

class Backend {
 public:
  virtual ~Backend() = default;

  // Every rue device, in the kernel's order.
  virtual nl::Result<std::vector<Device>> ListDevices() = 0;
  // The device named `name`; ENODEV when there is none.
  virtual nl::Result<Device> GetDevice(std::string_view name) = 0;

  // The congestion control of every device, in the kernel's order.
  virtual nl::Result<std::vector<DeviceCc>> ListCc() = 0;
  // That of the device named `name`; ENODEV when there is none.  Its
  // DCQCN parameters are those of priority `prio`, or without it of
  // priority 0; CcConfig::prio says which the kernel reported (an older
  // kernel reports none).
  virtual nl::Result<DeviceCc> GetCc(std::string_view name,
                                     std::optional<uint32_t> prio) = 0;
  // Changes what `changes` sets on the device named `name`, and nothing
  // else; ENODEV when there is none, EPERM without CAP_NET_ADMIN.
  virtual nl::Status SetCc(std::string_view name, const CcConfig& changes) = 0;

  // The QPs of the device named `name`; ENODEV when there is none.
  virtual nl::Result<std::vector<Qp>> ListQps(std::string_view name) = 0;

  // The UET jobs of the device named `name`, or without it of every
  // device, in the kernel's order; ENODEV when there is no such device.
  virtual nl::Result<std::vector<Job>> ListJobs(
      std::optional<std::string_view> name) = 0;
  // Job `id` of the device named `name`; ENODEV when there is no such
  // device, ENOENT when it has no such job.
  virtual nl::Result<Job> GetJob(std::string_view name, uint32_t id) = 0;
  // Grants `grant` on the device named `name`; ENODEV, EEXIST when it has
  // the job, EPERM without CAP_NET_ADMIN.
  virtual nl::Status AddJob(std::string_view name, const JobGrant& grant) = 0;
  // Revokes job `id`; ENODEV, ENOENT, EBUSY while QPs are bound to it,
  // EPERM without CAP_NET_ADMIN.
  virtual nl::Status DelJob(std::string_view name, uint32_t id) = 0;

  // The UET PDCs of the device named `name`, or without it of every
  // device, in the kernel's order; ENODEV when there is no such device.
  virtual nl::Result<std::vector<Pdc>> ListPdcs(
      std::optional<std::string_view> name) = 0;

  // The UET counters of every device, in the kernel's order.
  virtual nl::Result<std::vector<UetStats>> ListUetStats() = 0;
  // Those of the device named `name`; ENODEV when there is none.
  virtual nl::Result<UetStats> GetUetStats(std::string_view name) = 0;
};

}  // namespace rue::cli

#endif  // RUE_RUECTL_BACKEND_H_
