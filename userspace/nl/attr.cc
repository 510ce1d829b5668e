// SPDX-License-Identifier: GPL-2.0
#include "nl/attr.h"

#include <libmnl/libmnl.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <string>

namespace rue::nl {
namespace {

std::string Describe(const AttrPolicy& policy) {
  return "attribute \"" + std::string(policy.name) + "\" (" +
         std::to_string(policy.type) + ")";
}

Error BadAttr(const AttrPolicy& policy, const std::string& what) {
  return Error{EBADMSG, Describe(policy) + ": " + what};
}

size_t FixedLength(AttrKind kind) {
  switch (kind) {
    case AttrKind::kU8:
      return 1;
    case AttrKind::kU16:
      return 2;
    case AttrKind::kU32:
      return 4;
    case AttrKind::kU64:
      return 8;
    default:
      return 0;
  }
}

Status CheckLength(const AttrPolicy& policy, size_t want, size_t got) {
  if (got == want) return Ok();
  return BadAttr(policy, "length " + std::to_string(got) + ", expected " +
                             std::to_string(want));
}

Status CheckString(const AttrPolicy& policy, Bytes payload) {
  if (std::find(payload.begin(), payload.end(), std::byte{0}) != payload.end())
    return Ok();
  return BadAttr(policy, "string is not NUL-terminated");
}

Status CheckNested(const AttrPolicy& policy, Bytes payload) {
  Status framing = ForEachAttr(payload, [](const Attr&) { return Ok(); });
  if (framing.ok()) return framing;
  return BadAttr(policy, framing.error().message);
}

Status Check(const AttrPolicy& policy, const Attr& attr) {
  switch (policy.kind) {
    case AttrKind::kString:
      return CheckString(policy, attr.payload());
    case AttrKind::kBinary:
      if (policy.len == 0) return Ok();
      return CheckLength(policy, policy.len, attr.payload().size());
    case AttrKind::kNested:
      return CheckNested(policy, attr.payload());
    default:
      return CheckLength(policy, FixedLength(policy.kind),
                         attr.payload().size());
  }
}

// Policy entries indexed by attribute type (null where none).
std::vector<const AttrPolicy*> IndexPolicy(std::span<const AttrPolicy> policy) {
  uint16_t max_type = 0;
  for (const AttrPolicy& p : policy) max_type = std::max(max_type, p.type);
  std::vector<const AttrPolicy*> by_type(max_type + 1, nullptr);
  for (const AttrPolicy& p : policy) by_type[p.type] = &p;
  return by_type;
}

}  // namespace

std::string_view Attr::Str() const {
  const char* chars = reinterpret_cast<const char*>(payload_.data());
  std::string_view all(chars, payload_.size());
  return all.substr(0, all.find('\0'));
}

Status ForEachAttr(Bytes data,
                   const std::function<Status(const Attr&)>& visit) {
  if (reinterpret_cast<uintptr_t>(data.data()) % MNL_ALIGNTO != 0)
    return Error{EINVAL, "attributes are not 4-byte aligned"};
  size_t offset = 0;
  while (offset < data.size()) {
    const auto* nla = reinterpret_cast<const nlattr*>(data.data() + offset);
    size_t left = std::min<size_t>(data.size() - offset, INT_MAX);
    if (!mnl_attr_ok(nla, static_cast<int>(left)))
      return Error{EBADMSG,
                   "truncated attribute at offset " + std::to_string(offset)};
    Bytes payload(static_cast<const std::byte*>(mnl_attr_get_payload(nla)),
                  mnl_attr_get_payload_len(nla));
    Status status = visit(Attr(mnl_attr_get_type(nla), payload));
    if (!status.ok()) return status;
    offset += MNL_ALIGN(nla->nla_len);
  }
  return Ok();
}

Result<AttrTable> AttrTable::Parse(Bytes data,
                                   std::span<const AttrPolicy> policy) {
  std::vector<const AttrPolicy*> policy_of = IndexPolicy(policy);
  std::vector<std::optional<Attr>> by_type(policy_of.size());
  Status walked = ForEachAttr(data, [&](const Attr& attr) -> Status {
    if (attr.type() >= policy_of.size() || !policy_of[attr.type()]) return Ok();
    Status valid = Check(*policy_of[attr.type()], attr);
    if (valid.ok()) by_type[attr.type()] = attr;
    return valid;
  });
  if (!walked.ok()) return walked.error();
  for (const AttrPolicy& p : policy) {
    if (p.required && !by_type[p.type])
      return Error{EBADMSG, "missing " + Describe(p)};
  }
  return AttrTable(std::move(by_type));
}

std::optional<Attr> AttrTable::Find(uint16_t type) const {
  if (type >= by_type_.size()) return std::nullopt;
  return by_type_[type];
}

uint8_t AttrTable::U8(uint16_t type, uint8_t absent) const {
  std::optional<Attr> attr = Find(type);
  return attr ? attr->U8() : absent;
}

uint16_t AttrTable::U16(uint16_t type, uint16_t absent) const {
  std::optional<Attr> attr = Find(type);
  return attr ? attr->U16() : absent;
}

uint32_t AttrTable::U32(uint16_t type, uint32_t absent) const {
  std::optional<Attr> attr = Find(type);
  return attr ? attr->U32() : absent;
}

uint64_t AttrTable::U64(uint16_t type, uint64_t absent) const {
  std::optional<Attr> attr = Find(type);
  return attr ? attr->U64() : absent;
}

std::string_view AttrTable::Str(uint16_t type) const {
  std::optional<Attr> attr = Find(type);
  return attr ? attr->Str() : std::string_view();
}

Bytes AttrTable::Payload(uint16_t type) const {
  std::optional<Attr> attr = Find(type);
  return attr ? attr->payload() : Bytes();
}

}  // namespace rue::nl
