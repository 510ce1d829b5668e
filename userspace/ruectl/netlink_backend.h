// SPDX-License-Identifier: GPL-2.0
//
// NetlinkBackend: the Backend that talks to the rue module over its
// generic netlink family.  It connects (opens the socket and resolves the
// family) on the first request, so that "ruectl help" needs no kernel.
#ifndef RUE_RUECTL_NETLINK_BACKEND_H_
#define RUE_RUECTL_NETLINK_BACKEND_H_

#include <optional>

#include "nl/genl.h"
#include "nl/genl_socket.h"
#include "ruectl/backend.h"

namespace rue::cli {

class NetlinkBackend : public Backend {
 public:
  nl::Result<std::vector<Device>> ListDevices() override;
  nl::Result<Device> GetDevice(std::string_view name) override;
  nl::Result<std::vector<DeviceCc>> ListCc() override;
  nl::Result<DeviceCc> GetCc(std::string_view name,
                             std::optional<uint32_t> prio) override;
  nl::Status SetCc(std::string_view name, const CcConfig& changes) override;
  nl::Result<std::vector<Qp>> ListQps(std::string_view name) override;
  nl::Result<std::vector<Job>> ListJobs(
      std::optional<std::string_view> name) override;
  nl::Result<Job> GetJob(std::string_view name, uint32_t id) override;
  nl::Status AddJob(std::string_view name, const JobGrant& grant) override;
  nl::Status DelJob(std::string_view name, uint32_t id) override;

 private:
  nl::Status Connect();
  nl::MessageBuilder Request(uint8_t cmd) const;

  std::optional<nl::GenlSocket> socket_;
  nl::Family family_;
};

}  // namespace rue::cli

#endif  // RUE_RUECTL_NETLINK_BACKEND_H_
