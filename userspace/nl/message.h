// SPDX-License-Identifier: GPL-2.0
//
// MessageBuilder: one netlink message in a fixed-size buffer, built with
// libmnl's put helpers.  Requests use it, and so do tests that play the
// kernel's part.
#ifndef RUE_NL_MESSAGE_H_
#define RUE_NL_MESSAGE_H_

#include <linux/netlink.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "nl/attr.h"

namespace rue::nl {

class MessageBuilder {
 public:
  static constexpr size_t kDefaultCapacity = 4096;

  // An open nest: where its attribute header sits in the buffer.
  struct Nest {
    size_t offset;
  };

  MessageBuilder(uint16_t type, uint16_t flags,
                 size_t capacity = kDefaultCapacity);

  nlmsghdr* header();
  const nlmsghdr* header() const;

  // Reserves a zeroed family header (struct genlmsghdr, struct nlmsgerr)
  // right after the netlink header; call it before any attribute.
  void* PutExtraHeader(size_t size);
  template <typename T>
  T* PutExtraHeader() {
    return static_cast<T*>(PutExtraHeader(sizeof(T)));
  }

  MessageBuilder& PutU8(uint16_t type, uint8_t value);
  MessageBuilder& PutU16(uint16_t type, uint16_t value);
  MessageBuilder& PutU32(uint16_t type, uint32_t value);
  MessageBuilder& PutU64(uint16_t type, uint64_t value);
  MessageBuilder& PutString(uint16_t type, std::string_view value);  // + NUL
  MessageBuilder& PutBytes(uint16_t type, Bytes value);

  Nest BeginNest(uint16_t type);
  void EndNest(Nest nest);

  // False once anything did not fit in the buffer.
  bool ok() const { return !overflow_; }
  // The message as built (nlmsg_len bytes).
  Bytes bytes() const;

 private:
  nlattr* NestAt(Nest nest);

  std::vector<std::byte> buffer_;
  bool overflow_ = false;
};

}  // namespace rue::nl

#endif  // RUE_NL_MESSAGE_H_
