// SPDX-License-Identifier: GPL-2.0
#include "ruectl/errors.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace rue::cli {
namespace {

TEST(RequestErrorTest, NoSuchDevice) {
  nl::Error e = RequestError({ENODEV, "no such rue device"}, "rue9");
  EXPECT_EQ(e.code, ENODEV);
  EXPECT_EQ(e.message, "device \"rue9\" not found");
}

TEST(RequestErrorTest, NoDeviceNamedKeepsTheKernelsWords) {
  nl::Error e = RequestError({ENODEV, "gone"}, std::nullopt);
  EXPECT_EQ(e.message, "gone");
}

TEST(RequestErrorTest, UnknownCommandMeansOldModule) {
  nl::Error e = RequestError({EOPNOTSUPP, ""}, "rue0");
  EXPECT_EQ(e.code, EOPNOTSUPP);
  EXPECT_EQ(e.message,
            "rue kernel module too old for this command; load a newer one");
  // With a reason, the kernel knew the command: its reason stands.
  EXPECT_EQ(RequestError({EOPNOTSUPP, "not on this link"}, "rue0").message,
            "not on this link");
}

TEST(RequestErrorTest, OthersPass) {
  nl::Error e = RequestError({EINVAL, "bad"}, "rue0");
  EXPECT_EQ(e.code, EINVAL);
  EXPECT_EQ(e.message, "bad");
}

}  // namespace
}  // namespace rue::cli
