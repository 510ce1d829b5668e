// SPDX-License-Identifier: GPL-2.0
//
// Test helpers: sample devices and a Backend that serves them.
#ifndef RUE_RUECTL_TEST_DEVICES_H_
#define RUE_RUECTL_TEST_DEVICES_H_

#include <optional>
#include <string_view>
#include <vector>

#include "nl/result.h"
#include "ruectl/backend.h"
#include "ruectl/device.h"

namespace rue::cli::testing {

// rue0: up on eth0, with a link-local GID (RoCEv1 and v2) and an
// IPv4-mapped one; rue1: down on eth1, with no GIDs.
std::vector<Device> SampleDevices();

class FakeBackend : public Backend {
 public:
  explicit FakeBackend(std::vector<Device> devices = SampleDevices())
      : devices_(std::move(devices)) {}

  // Makes every request fail with `error`.
  void FailWith(nl::Error error) { failure_ = std::move(error); }

  nl::Result<std::vector<Device>> ListDevices() override;
  nl::Result<Device> GetDevice(std::string_view name) override;

  int requests() const { return requests_; }

 private:
  std::vector<Device> devices_;
  std::optional<nl::Error> failure_;
  int requests_ = 0;
};

}  // namespace rue::cli::testing

#endif  // RUE_RUECTL_TEST_DEVICES_H_
