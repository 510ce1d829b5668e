// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/uet_decoder.h"

namespace rue::dump {
namespace {

struct UetPayload {
  std::size_t length = 0;
};

constexpr Field<UetPayload> kUetPayloadFields[] = {
    {"length", "len", Style::kAssign, Level::kBrief,
     [](const UetPayload& p) { return Number(p.length); }},
};

}  // namespace

wire::Result<std::vector<Section>> DecodeUet(
    std::span<const std::byte> udp_payload) {
  // The hook: PDS/SES header parsing goes here.
  std::vector<Section> sections;
  sections.push_back(MakeSection(UetPayload{udp_payload.size()},
                                 {"uet", "UET", false}, kUetPayloadFields));
  return sections;
}

}  // namespace rue::dump
