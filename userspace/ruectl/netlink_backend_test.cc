// SPDX-License-Identifier: GPL-2.0
//
// NetlinkBackend against the running kernel.  Without the rue module it
// must say so; with it (in the test guests), list what is there.
// Skipped where netlink sockets cannot be opened.
#include "ruectl/netlink_backend.h"

#include <gtest/gtest.h>
#include <linux/rue_netlink.h>

#include <cerrno>
#include <string>

namespace rue::cli {
namespace {

bool RueLoaded() {
  nl::Result<nl::GenlSocket> socket = nl::GenlSocket::Open();
  return socket.ok() && socket->ResolveFamily(RUE_GENL_NAME).ok();
}

class NetlinkBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    nl::Result<nl::GenlSocket> socket = nl::GenlSocket::Open();
    if (!socket.ok()) GTEST_SKIP() << socket.error().ToString();
  }

  NetlinkBackend backend_;
};

TEST_F(NetlinkBackendTest, ListsOrSaysModuleNotLoaded) {
  nl::Result<std::vector<Device>> devices = backend_.ListDevices();
  if (RueLoaded()) {
    ASSERT_TRUE(devices.ok()) << devices.error().ToString();
    return;
  }
  ASSERT_FALSE(devices.ok());
  EXPECT_EQ(devices.error().code, ENOENT);
  EXPECT_EQ(devices.error().message, kModuleNotLoaded);
}

TEST_F(NetlinkBackendTest, UnknownDeviceIsENODEV) {
  if (!RueLoaded()) GTEST_SKIP() << "rue module not loaded";
  nl::Result<Device> device = backend_.GetDevice("no-such-rue-device");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error().code, ENODEV);
}

TEST_F(NetlinkBackendTest, OverlongNameIsENODEVWithoutAsking) {
  std::string overlong(64, 'r');
  nl::Result<Device> device = backend_.GetDevice(overlong);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error().code, ENODEV);
  EXPECT_EQ(backend_.GetCc(overlong, std::nullopt).error().code, ENODEV);
  EXPECT_EQ(backend_.SetCc(overlong, CcConfig{}).error().code, ENODEV);
  EXPECT_EQ(backend_.ListQps(overlong).error().code, ENODEV);
  EXPECT_EQ(backend_.ListJobs(overlong).error().code, ENODEV);
  EXPECT_EQ(backend_.GetJob(overlong, 1).error().code, ENODEV);
  EXPECT_EQ(backend_.AddJob(overlong, JobGrant{1, std::nullopt, std::nullopt}).error().code, ENODEV);
  EXPECT_EQ(backend_.DelJob(overlong, 1).error().code, ENODEV);
}

TEST_F(NetlinkBackendTest, CcAndQpsOrModuleNotLoaded) {
  nl::Result<std::vector<DeviceCc>> ccs = backend_.ListCc();
  if (RueLoaded()) {
    // Before the kernel has RUE_CMD_CC_GET, genetlink says EOPNOTSUPP.
    if (!ccs.ok()) {
      EXPECT_EQ(ccs.error().code, EOPNOTSUPP);
    }
    return;
  }
  ASSERT_FALSE(ccs.ok());
  EXPECT_EQ(ccs.error().message, kModuleNotLoaded);
  nl::Result<std::vector<Qp>> qps = backend_.ListQps("rue0");
  ASSERT_FALSE(qps.ok());
  EXPECT_EQ(qps.error().message, kModuleNotLoaded);
}

TEST_F(NetlinkBackendTest, UnknownDeviceHasNoCcOrQps) {
  if (!RueLoaded()) GTEST_SKIP() << "rue module not loaded";
  nl::Result<DeviceCc> cc = backend_.GetCc("no-such-rue-device", std::nullopt);
  ASSERT_FALSE(cc.ok());
  if (cc.error().code == EOPNOTSUPP) GTEST_SKIP() << "no RUE_CMD_CC_GET yet";
  EXPECT_EQ(cc.error().code, ENODEV);
  nl::Result<std::vector<Qp>> qps = backend_.ListQps("no-such-rue-device");
  ASSERT_FALSE(qps.ok());
  EXPECT_EQ(qps.error().code, ENODEV);
}

TEST_F(NetlinkBackendTest, UnknownDeviceHasNoJobs) {
  if (!RueLoaded()) GTEST_SKIP() << "rue module not loaded";
  nl::Result<std::vector<Job>> jobs = backend_.ListJobs("no-such-rue-device");
  ASSERT_FALSE(jobs.ok());
  if (jobs.error().code == EOPNOTSUPP) GTEST_SKIP() << "no RUE_CMD_JOB_GET yet";
  EXPECT_EQ(jobs.error().code, ENODEV);
  EXPECT_EQ(backend_.GetJob("no-such-rue-device", 1).error().code, ENODEV);
  // Every device's jobs: however many there are, the dump works.
  nl::Result<std::vector<Job>> all = backend_.ListJobs(std::nullopt);
  EXPECT_TRUE(all.ok()) << all.error().ToString();
}

}  // namespace
}  // namespace rue::cli
