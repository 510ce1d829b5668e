// SPDX-License-Identifier: GPL-2.0
#include "ruectl/netlink_backend.h"

#include <linux/rue_netlink.h>

#include <cerrno>
#include <string>

#include "ruectl/cc.h"
#include "ruectl/dev.h"
#include "ruectl/job.h"
#include "ruectl/pdc.h"
#include "ruectl/qp.h"
#include "ruectl/uet.h"

namespace rue::cli {
namespace {

// The kernel refuses longer names (IB_DEVICE_NAME_MAX - 1): no device can
// have one.
constexpr size_t kMaxDeviceName = 63;

nl::Error BadReply(std::string_view what, const nl::Error& error) {
  return nl::Error{error.code,
                   "bad " + std::string(what) +
                       " message from the kernel: " + error.message};
}

// A handler that parses each reply with `parse` and passes the result on;
// `what` names the replies in errors.
template <typename T>
nl::GenlHandler Collect(nl::Result<T> (*parse)(nl::Bytes),
                        std::string_view what, std::vector<T>& out) {
  return [parse, what, &out](const nl::GenlMessage& message) -> nl::Status {
    nl::Result<T> item = parse(message.attrs);
    if (!item.ok()) return BadReply(what, item.error());
    out.push_back(std::move(item).value());
    return nl::Ok();
  };
}

nl::GenlHandler CollectDevices(std::vector<Device>& devices) {
  return Collect(ParseDevice, "device", devices);
}

// The one reply a do request was to bring.
template <typename T>
nl::Result<T> OnlyReply(nl::Status done, std::vector<T>& replies,
                        std::string_view what) {
  if (!done.ok()) return done.error();
  if (replies.size() != 1)
    return nl::Error{
        EPROTO, "expected one " + std::string(what) + " in the kernel's reply"};
  return std::move(replies.front());
}

nl::Status IgnoreReply(const nl::GenlMessage&) { return nl::Ok(); }

}  // namespace

nl::Status NetlinkBackend::Connect() {
  if (socket_) return nl::Ok();
  nl::Result<nl::GenlSocket> socket = nl::GenlSocket::Open();
  if (!socket.ok()) return socket.error();
  nl::Result<nl::Family> family = socket->ResolveFamily(RUE_GENL_NAME);
  if (!family.ok() && family.error().code == ENOENT)
    return nl::Error{ENOENT, std::string(kModuleNotLoaded)};
  if (!family.ok()) return family.error();
  family_ = std::move(family).value();
  socket_.emplace(std::move(socket).value());
  return nl::Ok();
}

nl::MessageBuilder NetlinkBackend::Request(uint8_t cmd) const {
  return nl::GenlRequest(family_.id, cmd, RUE_GENL_VERSION);
}

nl::Result<std::vector<Device>> NetlinkBackend::ListDevices() {
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Device> devices;
  nl::MessageBuilder request = Request(RUE_CMD_DEV_GET);
  nl::Status dumped = socket_->Dump(request, CollectDevices(devices));
  if (!dumped.ok()) return dumped.error();
  return devices;
}

nl::Result<Device> NetlinkBackend::GetDevice(std::string_view name) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Device> devices;
  nl::MessageBuilder request = Request(RUE_CMD_DEV_GET);
  request.PutString(RUE_A_DEV_NAME, name);
  nl::Status done = socket_->Do(request, CollectDevices(devices));
  return OnlyReply(std::move(done), devices, "device");
}

nl::Result<std::vector<DeviceCc>> NetlinkBackend::ListCc() {
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<DeviceCc> ccs;
  nl::MessageBuilder request = Request(RUE_CMD_CC_GET);
  nl::Status dumped =
      socket_->Dump(request, Collect(ParseDeviceCc, "congestion control", ccs));
  if (!dumped.ok()) return dumped.error();
  return ccs;
}

nl::Result<DeviceCc> NetlinkBackend::GetCc(std::string_view name,
                                           std::optional<uint32_t> prio) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<DeviceCc> ccs;
  nl::MessageBuilder request = CcGetRequest(family_.id, name, prio);
  nl::Status done =
      socket_->Do(request, Collect(ParseDeviceCc, "congestion control", ccs));
  return OnlyReply(std::move(done), ccs, "device");
}

nl::Status NetlinkBackend::SetCc(std::string_view name,
                                 const CcConfig& changes) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected;
  nl::MessageBuilder request = CcSetRequest(family_.id, name, changes);
  return socket_->Do(request, IgnoreReply);
}

nl::Result<std::vector<Qp>> NetlinkBackend::ListQps(std::string_view name) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Qp> qps;
  nl::MessageBuilder request = Request(RUE_CMD_QP_GET);
  request.PutString(RUE_A_DEV_NAME, name);
  nl::Status dumped = socket_->Dump(request, Collect(ParseQp, "QP", qps));
  if (!dumped.ok()) return dumped.error();
  return qps;
}

nl::Result<std::vector<Job>> NetlinkBackend::ListJobs(
    std::optional<std::string_view> name) {
  if (name && name->size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Job> jobs;
  nl::MessageBuilder request = JobDumpRequest(family_.id, name);
  nl::Status dumped = socket_->Dump(request, Collect(ParseJob, "job", jobs));
  if (!dumped.ok()) return dumped.error();
  return jobs;
}

nl::Result<Job> NetlinkBackend::GetJob(std::string_view name, uint32_t id) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Job> jobs;
  nl::MessageBuilder request = JobGetRequest(family_.id, name, id);
  nl::Status done = socket_->Do(request, Collect(ParseJob, "job", jobs));
  return OnlyReply(std::move(done), jobs, "job");
}

nl::Status NetlinkBackend::AddJob(std::string_view name,
                                  const JobGrant& grant) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected;
  nl::MessageBuilder request = JobNewRequest(family_.id, name, grant);
  return socket_->Do(request, IgnoreReply);
}

nl::Status NetlinkBackend::DelJob(std::string_view name, uint32_t id) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected;
  nl::MessageBuilder request = JobDelRequest(family_.id, name, id);
  return socket_->Do(request, IgnoreReply);
}

nl::Result<std::vector<Pdc>> NetlinkBackend::ListPdcs(
    std::optional<std::string_view> name) {
  if (name && name->size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<Pdc> pdcs;
  nl::MessageBuilder request = PdcDumpRequest(family_.id, name);
  nl::Status dumped = socket_->Dump(request, Collect(ParsePdc, "PDC", pdcs));
  if (!dumped.ok()) return dumped.error();
  return pdcs;
}

nl::Result<std::vector<UetStats>> NetlinkBackend::ListUetStats() {
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<UetStats> stats;
  nl::MessageBuilder request = UetStatsRequest(family_.id, std::nullopt);
  nl::Status dumped =
      socket_->Dump(request, Collect(ParseUetStats, "UET counters", stats));
  if (!dumped.ok()) return dumped.error();
  return stats;
}

nl::Result<UetStats> NetlinkBackend::GetUetStats(std::string_view name) {
  if (name.size() > kMaxDeviceName) return nl::Error{ENODEV, ""};
  nl::Status connected = Connect();
  if (!connected.ok()) return connected.error();
  std::vector<UetStats> stats;
  nl::MessageBuilder request = UetStatsRequest(family_.id, name);
  nl::Status done =
      socket_->Do(request, Collect(ParseUetStats, "UET counters", stats));
  return OnlyReply(std::move(done), stats, "device");
}

}  // namespace rue::cli
