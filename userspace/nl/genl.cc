// SPDX-License-Identifier: GPL-2.0
#include "nl/genl.h"

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include <cerrno>
#include <cstring>

namespace rue::nl {
namespace {

constexpr size_t kHeaders = MNL_NLMSG_HDRLEN + MNL_ALIGN(GENL_HDRLEN);

constexpr AttrPolicy kFamilyPolicy[] = {
    {CTRL_ATTR_FAMILY_ID, AttrKind::kU16, "family-id", true},
    {CTRL_ATTR_FAMILY_NAME, AttrKind::kString, "family-name", true},
    {CTRL_ATTR_VERSION, AttrKind::kU32, "version"},
    {CTRL_ATTR_MAXATTR, AttrKind::kU32, "max-attr"},
};

}  // namespace

Result<GenlMessage> ParseGenl(Bytes message) {
  if (message.size() < kHeaders)
    return Error{EBADMSG, "truncated generic netlink message"};
  nlmsghdr nlh;
  genlmsghdr genl;
  std::memcpy(&nlh, message.data(), sizeof(nlh));
  std::memcpy(&genl, message.data() + MNL_NLMSG_HDRLEN, sizeof(genl));
  GenlMessage parsed;
  parsed.family = nlh.nlmsg_type;
  parsed.flags = nlh.nlmsg_flags;
  parsed.cmd = genl.cmd;
  parsed.version = genl.version;
  parsed.attrs = message.subspan(kHeaders);
  return parsed;
}

MessageBuilder GenlRequest(uint16_t family_id, uint8_t cmd, uint8_t version) {
  MessageBuilder request(family_id, NLM_F_REQUEST);
  auto* genl = request.PutExtraHeader<genlmsghdr>();
  genl->cmd = cmd;
  genl->version = version;
  return request;
}

Result<Family> ParseFamily(Bytes attrs) {
  Result<AttrTable> table = AttrTable::Parse(attrs, kFamilyPolicy);
  if (!table.ok()) return table.error();
  Family family;
  family.id = table->U16(CTRL_ATTR_FAMILY_ID);
  family.name = table->Str(CTRL_ATTR_FAMILY_NAME);
  family.version = table->U32(CTRL_ATTR_VERSION);
  family.max_attr = table->U32(CTRL_ATTR_MAXATTR);
  return family;
}

}  // namespace rue::nl
