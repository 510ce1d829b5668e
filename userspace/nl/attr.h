// SPDX-License-Identifier: GPL-2.0
//
// Reading netlink attributes (struct nlattr TLVs) out of a byte span.
//
// Attr is one attribute; ForEachAttr walks a run of them (for nests that
// hold a list, such as RUE_A_DEV_GIDS); AttrTable indexes a run by type
// after checking every attribute its policy knows, the way the kernel's
// nla_parse() checks requests.  The spans must stay valid while these
// views are used, and must start 4-byte aligned, as every netlink buffer
// and attribute does.
#ifndef RUE_NL_ATTR_H_
#define RUE_NL_ATTR_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "nl/result.h"

namespace rue::nl {

using Bytes = std::span<const std::byte>;

// One attribute: its type (flags such as NLA_F_NESTED masked off) and its
// payload.  The typed getters read what is there, zero-extending a short
// payload; AttrTable is what checks lengths.
class Attr {
 public:
  Attr(uint16_t type, Bytes payload) : type_(type), payload_(payload) {}

  uint16_t type() const { return type_; }
  Bytes payload() const { return payload_; }

  uint8_t U8() const { return Read<uint8_t>(); }
  uint16_t U16() const { return Read<uint16_t>(); }
  uint32_t U32() const { return Read<uint32_t>(); }
  uint64_t U64() const { return Read<uint64_t>(); }
  // Up to the first NUL, or the whole payload if there is none.
  std::string_view Str() const;

 private:
  template <typename T>
  T Read() const;

  uint16_t type_;
  Bytes payload_;
};

// Calls visit() for each attribute in data, in order, and stops at the
// first error visit() returns.  A truncated attribute (a header or a
// length running past the end) is EBADMSG.
Status ForEachAttr(Bytes data, const std::function<Status(const Attr&)>& visit);

enum class AttrKind : uint8_t {
  kU8,
  kU16,
  kU32,
  kU64,
  kString,  // NUL-terminated
  kBinary,  // exactly AttrPolicy::len bytes, or any length if len is 0
  kNested,  // a run of attributes (only its framing is checked here)
};

struct AttrPolicy {
  uint16_t type;
  AttrKind kind;
  std::string_view name;  // for error messages
  bool required = false;
  uint16_t len = 0;  // kBinary: exact payload length (0: any)
};

// Attributes of one message or nest, indexed by type.  Parse() checks
// every attribute whose type the policy lists and skips the others (a
// newer kernel may send attributes this code does not know).  Where a
// type repeats, the last one wins, as in the kernel.
class AttrTable {
 public:
  static Result<AttrTable> Parse(Bytes data,
                                 std::span<const AttrPolicy> policy);

  std::optional<Attr> Find(uint16_t type) const;
  bool Has(uint16_t type) const { return Find(type).has_value(); }

  // The value of an attribute, or `absent` when the message lacks it.
  uint8_t U8(uint16_t type, uint8_t absent = 0) const;
  uint16_t U16(uint16_t type, uint16_t absent = 0) const;
  uint32_t U32(uint16_t type, uint32_t absent = 0) const;
  uint64_t U64(uint16_t type, uint64_t absent = 0) const;
  std::string_view Str(uint16_t type) const;  // empty when absent
  Bytes Payload(uint16_t type) const;         // empty when absent

 private:
  explicit AttrTable(std::vector<std::optional<Attr>> by_type)
      : by_type_(std::move(by_type)) {}

  std::vector<std::optional<Attr>> by_type_;
};

template <typename T>
T Attr::Read() const {
  T value{};
  if (!payload_.empty())
    std::memcpy(&value, payload_.data(), std::min(payload_.size(), sizeof(T)));
  return value;
}

}  // namespace rue::nl

#endif  // RUE_NL_ATTR_H_
