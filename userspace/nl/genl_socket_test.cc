// SPDX-License-Identifier: GPL-2.0
//
// GenlSocket against the running kernel's generic netlink controller,
// which every Linux has: no rue module needed.  Skipped where netlink
// sockets cannot be opened.
#include "nl/genl_socket.h"

#include <gtest/gtest.h>
#include <linux/genetlink.h>

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

namespace rue::nl {
namespace {

class GenlSocketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<GenlSocket> opened = GenlSocket::Open();
    if (!opened.ok()) GTEST_SKIP() << opened.error().ToString();
    socket_.emplace(std::move(opened).value());
  }

  std::optional<GenlSocket> socket_;
};

TEST_F(GenlSocketTest, ResolvesTheController) {
  Result<Family> f = socket_->ResolveFamily("nlctrl");
  ASSERT_TRUE(f.ok()) << f.error().ToString();
  EXPECT_EQ(f->id, GENL_ID_CTRL);
  EXPECT_EQ(f->name, "nlctrl");
}

TEST_F(GenlSocketTest, MissingFamilyIsENOENT) {
  Result<Family> f = socket_->ResolveFamily("rue-nosuch");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, ENOENT);
  EXPECT_EQ(f.error().message,
            "generic netlink family \"rue-nosuch\" not found");
}

TEST_F(GenlSocketTest, ExtendedAckMessageComesBack) {
  // Family names are at most 15 characters: the controller's policy
  // rejects a longer one and says why in the extended ACK.
  Result<Family> f = socket_->ResolveFamily("a-name-too-long-for-genl");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, EINVAL);
  EXPECT_FALSE(f.error().message.empty());
}

TEST_F(GenlSocketTest, DumpsFamilies) {
  MessageBuilder request = GenlRequest(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 2);
  std::vector<std::string> names;
  Status s = socket_->Dump(request, [&](const GenlMessage& m) -> Status {
    Result<Family> f = ParseFamily(m.attrs);
    if (!f.ok()) return f.error();
    names.push_back(f->name);
    return Ok();
  });
  ASSERT_TRUE(s.ok()) << s.error().ToString();
  EXPECT_NE(std::find(names.begin(), names.end(), "nlctrl"), names.end());
}

TEST_F(GenlSocketTest, SocketStaysUsableAfterHandlerError) {
  MessageBuilder dump = GenlRequest(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 2);
  Status s = socket_->Dump(dump, [](const GenlMessage&) -> Status {
    return Error{ECANCELED, "enough"};
  });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ECANCELED);
  EXPECT_TRUE(socket_->ResolveFamily("nlctrl").ok());
}

TEST_F(GenlSocketTest, KernelRejectionComesBack) {
  MessageBuilder request = GenlRequest(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 2);
  // A do request with neither a family id nor a name: EINVAL.
  Status s = socket_->Do(request, [](const GenlMessage&) { return Ok(); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EINVAL);
}

TEST_F(GenlSocketTest, OversizedRequestIsRefused) {
  MessageBuilder request = GenlRequest(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 2);
  request.PutString(CTRL_ATTR_FAMILY_NAME, std::string(5000, 'x'));
  Status s = socket_->Do(request, [](const GenlMessage&) { return Ok(); });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, EMSGSIZE);
}

}  // namespace
}  // namespace rue::nl
