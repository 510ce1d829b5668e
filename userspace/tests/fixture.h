// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The fixture of every suite parametrised over topologies.
#ifndef RUE_TESTS_FIXTURE_H_
#define RUE_TESTS_FIXTURE_H_

#include <gtest/gtest.h>

#include <string>

#include "tests/conn.h"

namespace rue::test {

class TopologyTest : public ::testing::TestWithParam<Topology> {
 protected:
  void SetUp() override {
    std::string why;
    if (!ResolveTopology(GetParam(), &a_, &b_, &why)) GTEST_SKIP() << why;
  }

  Endpoint a_;
  Endpoint b_;
};

inline std::string TopologyParamName(
    const ::testing::TestParamInfo<Topology>& info) {
  return TopologyName(info.param);
}

// Two devices and loopback; the IPv6 variant too where it is listed.
#define RUE_TOPOLOGIES(suite)                                        \
  INSTANTIATE_TEST_SUITE_P(                                          \
      Verbs, suite,                                                  \
      ::testing::Values(Topology::kTwoDevices, Topology::kLoopback), \
      TopologyParamName)
#define RUE_TOPOLOGIES_WITH_IPV6(suite)                             \
  INSTANTIATE_TEST_SUITE_P(                                         \
      Verbs, suite,                                                 \
      ::testing::Values(Topology::kTwoDevices, Topology::kLoopback, \
                        Topology::kTwoDevicesIpv6),                 \
      TopologyParamName)

// Completion deadlines: a few seconds, more for big transfers on a slow
// emulated guest.
inline milliseconds Deadline(size_t bytes = 0) {
  return milliseconds(5000 + bytes / 500);
}

}  // namespace rue::test

#endif  // RUE_TESTS_FIXTURE_H_
