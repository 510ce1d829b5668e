// SPDX-License-Identifier: GPL-2.0
#include "nl/result.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <string>

namespace rue::nl {
namespace {

Result<int> Half(int n) {
  if (n % 2) return Error{EINVAL, "odd"};
  return n / 2;
}

TEST(ResultTest, HoldsValue) {
  Result<int> r = Half(8);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 4);
}

TEST(ResultTest, HoldsError) {
  Result<int> r = Half(3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, EINVAL);
  EXPECT_EQ(r.error().message, "odd");
}

TEST(ResultTest, MovesValueOut) {
  Result<std::string> r = std::string("rue0");
  std::string name = std::move(r).value();
  EXPECT_EQ(name, "rue0");
}

TEST(StatusTest, DefaultIsOk) {
  EXPECT_TRUE(Ok().ok());
  Status failed = Error{ENODEV, ""};
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ENODEV);
}

TEST(ErrorTest, ToStringPrefersMessage) {
  EXPECT_EQ((Error{ENODEV, "no such rue device"}).ToString(),
            "no such rue device");
  EXPECT_EQ((Error{ENODEV, ""}).ToString(), "No such device");
}

TEST(ErrorTest, SystemErrorTakesErrno) {
  errno = EPERM;
  Error e = SystemError("netlink send");
  EXPECT_EQ(e.code, EPERM);
  EXPECT_EQ(e.message, "netlink send: Operation not permitted");
}

}  // namespace
}  // namespace rue::nl
