// SPDX-License-Identifier: GPL-2.0
#include "nl/reply_reader.h"

#include <gtest/gtest.h>
#include <linux/netlink.h>

#include <cerrno>
#include <vector>

#include "nl/test_messages.h"

namespace rue::nl {
namespace {

using testing::Concat;
using testing::MakeAck;
using testing::MakeDone;
using testing::MakeGenl;

constexpr uint32_t kSeq = 100;
constexpr uint32_t kPort = 0;  // 0: libmnl skips the port check
constexpr uint16_t kFamily = 0x20;

class ReplyReaderTest : public ::testing::Test {
 protected:
  ReplyReader Reader() {
    return ReplyReader(kSeq, kPort, [this](Bytes message) -> Status {
      seen_.push_back(message.size());
      if (fail_) return Error{EBADMSG, "handler refused"};
      return Ok();
    });
  }

  std::vector<size_t> seen_;
  bool fail_ = false;
};

TEST_F(ReplyReaderTest, ReplyThenAckInOneBuffer) {
  MessageBuilder reply = MakeGenl(kFamily, 1, kSeq);
  reply.PutU32(1, 5);
  std::vector<std::byte> buffer =
      Concat({reply.bytes(), MakeAck(0, kSeq).bytes()});
  ReplyReader reader = Reader();
  EXPECT_TRUE(reader.Feed(buffer));
  EXPECT_TRUE(reader.status().ok());
  EXPECT_EQ(seen_, std::vector<size_t>{reply.bytes().size()});
}

TEST_F(ReplyReaderTest, ReplyAndAckInTwoBuffers) {
  std::vector<std::byte> reply =
      testing::Copy(MakeGenl(kFamily, 1, kSeq).bytes());
  std::vector<std::byte> ack = testing::Copy(MakeAck(0, kSeq).bytes());
  ReplyReader reader = Reader();
  EXPECT_FALSE(reader.Feed(reply));
  EXPECT_FALSE(reader.done());
  EXPECT_TRUE(reader.Feed(ack));
  EXPECT_TRUE(reader.status().ok());
  EXPECT_EQ(seen_.size(), 1u);
}

TEST_F(ReplyReaderTest, DumpEndsAtDone) {
  MessageBuilder a = MakeGenl(kFamily, 1, kSeq, NLM_F_MULTI);
  MessageBuilder b = MakeGenl(kFamily, 1, kSeq, NLM_F_MULTI);
  std::vector<std::byte> first = Concat({a.bytes(), b.bytes()});
  std::vector<std::byte> last = Concat({MakeDone(0, kSeq).bytes()});
  ReplyReader reader = Reader();
  EXPECT_FALSE(reader.Feed(first));
  EXPECT_TRUE(reader.Feed(last));
  EXPECT_TRUE(reader.status().ok());
  EXPECT_EQ(seen_.size(), 2u);
}

TEST_F(ReplyReaderTest, KernelErrorWithExtack) {
  std::vector<std::byte> buffer =
      testing::Copy(MakeAck(-ENODEV, kSeq, "no such rue device").bytes());
  ReplyReader reader = Reader();
  EXPECT_TRUE(reader.Feed(buffer));
  ASSERT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().error().code, ENODEV);
  EXPECT_EQ(reader.status().error().message, "no such rue device");
}

TEST_F(ReplyReaderTest, DumpErrorInDone) {
  std::vector<std::byte> buffer =
      testing::Copy(MakeDone(-EMSGSIZE, kSeq).bytes());
  ReplyReader reader = Reader();
  EXPECT_TRUE(reader.Feed(buffer));
  ASSERT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().error().code, EMSGSIZE);
}

TEST_F(ReplyReaderTest, HandlerErrorDrainsToTheEnd) {
  fail_ = true;
  MessageBuilder a = MakeGenl(kFamily, 1, kSeq, NLM_F_MULTI);
  MessageBuilder b = MakeGenl(kFamily, 1, kSeq, NLM_F_MULTI);
  std::vector<std::byte> first = Concat({a.bytes(), b.bytes()});
  std::vector<std::byte> last = testing::Copy(MakeDone(0, kSeq).bytes());
  ReplyReader reader = Reader();
  EXPECT_FALSE(reader.Feed(first));  // keeps reading: DONE is still due
  EXPECT_TRUE(reader.Feed(last));
  ASSERT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().error().message, "handler refused");
  EXPECT_EQ(seen_.size(), 1u);  // not called again after the error
}

TEST_F(ReplyReaderTest, RejectsWrongSequence) {
  std::vector<std::byte> buffer =
      testing::Copy(MakeGenl(kFamily, 1, kSeq + 1).bytes());
  ReplyReader reader = Reader();
  EXPECT_TRUE(reader.Feed(buffer));
  ASSERT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().error().code, EPROTO);
  EXPECT_TRUE(seen_.empty());
}

TEST_F(ReplyReaderTest, ReportsInterruptedDump) {
  std::vector<std::byte> buffer = testing::Copy(
      MakeGenl(kFamily, 1, kSeq, NLM_F_MULTI | NLM_F_DUMP_INTR).bytes());
  ReplyReader reader = Reader();
  EXPECT_TRUE(reader.Feed(buffer));
  ASSERT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().error().code, EINTR);
}

TEST_F(ReplyReaderTest, IgnoresFeedAfterDone) {
  std::vector<std::byte> ack = testing::Copy(MakeAck(0, kSeq).bytes());
  std::vector<std::byte> stray =
      testing::Copy(MakeGenl(kFamily, 1, kSeq).bytes());
  ReplyReader reader = Reader();
  EXPECT_TRUE(reader.Feed(ack));
  EXPECT_TRUE(reader.Feed(stray));
  EXPECT_TRUE(seen_.empty());
}

}  // namespace
}  // namespace rue::nl
