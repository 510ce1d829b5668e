// SPDX-License-Identifier: GPL-2.0
#include "nl/message.h"

#include <libmnl/libmnl.h>

#include <algorithm>
#include <limits>
#include <string>

namespace rue::nl {
namespace {

constexpr size_t kNoNest = std::numeric_limits<size_t>::max();

}  // namespace

MessageBuilder::MessageBuilder(uint16_t type, uint16_t flags, size_t capacity)
    : buffer_(std::max(capacity, size_t{MNL_NLMSG_HDRLEN})) {
  nlmsghdr* nlh = mnl_nlmsg_put_header(buffer_.data());
  nlh->nlmsg_type = type;
  nlh->nlmsg_flags = flags;
}

nlmsghdr* MessageBuilder::header() {
  return reinterpret_cast<nlmsghdr*>(buffer_.data());
}

const nlmsghdr* MessageBuilder::header() const {
  return reinterpret_cast<const nlmsghdr*>(buffer_.data());
}

void* MessageBuilder::PutExtraHeader(size_t size) {
  if (header()->nlmsg_len + MNL_ALIGN(size) > buffer_.size()) {
    overflow_ = true;
    return nullptr;
  }
  return mnl_nlmsg_put_extra_header(header(), size);
}

MessageBuilder& MessageBuilder::PutU8(uint16_t type, uint8_t value) {
  if (!mnl_attr_put_u8_check(header(), buffer_.size(), type, value))
    overflow_ = true;
  return *this;
}

MessageBuilder& MessageBuilder::PutU16(uint16_t type, uint16_t value) {
  if (!mnl_attr_put_u16_check(header(), buffer_.size(), type, value))
    overflow_ = true;
  return *this;
}

MessageBuilder& MessageBuilder::PutU32(uint16_t type, uint32_t value) {
  if (!mnl_attr_put_u32_check(header(), buffer_.size(), type, value))
    overflow_ = true;
  return *this;
}

MessageBuilder& MessageBuilder::PutU64(uint16_t type, uint64_t value) {
  if (!mnl_attr_put_u64_check(header(), buffer_.size(), type, value))
    overflow_ = true;
  return *this;
}

MessageBuilder& MessageBuilder::PutString(uint16_t type,
                                          std::string_view value) {
  std::string terminated(value);
  if (!mnl_attr_put_check(header(), buffer_.size(), type, terminated.size() + 1,
                          terminated.c_str()))
    overflow_ = true;
  return *this;
}

MessageBuilder& MessageBuilder::PutBytes(uint16_t type, Bytes value) {
  if (!mnl_attr_put_check(header(), buffer_.size(), type, value.size(),
                          value.data()))
    overflow_ = true;
  return *this;
}

MessageBuilder::Nest MessageBuilder::BeginNest(uint16_t type) {
  nlattr* start = mnl_attr_nest_start_check(header(), buffer_.size(), type);
  if (!start) {
    overflow_ = true;
    return Nest{kNoNest};
  }
  return Nest{static_cast<size_t>(reinterpret_cast<std::byte*>(start) -
                                  buffer_.data())};
}

void MessageBuilder::EndNest(Nest nest) {
  if (nest.offset != kNoNest) mnl_attr_nest_end(header(), NestAt(nest));
}

nlattr* MessageBuilder::NestAt(Nest nest) {
  return reinterpret_cast<nlattr*>(buffer_.data() + nest.offset);
}

Bytes MessageBuilder::bytes() const {
  return Bytes(buffer_.data(), header()->nlmsg_len);
}

}  // namespace rue::nl
