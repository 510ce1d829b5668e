// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The frame pfc_inject sends: a PFC frame built by the wire library from
// the options and then, if asked, broken on purpose; or --raw-hex as is.
#ifndef RUE_WIRE_TOOLS_PFC_INJECT_FRAME_H_
#define RUE_WIRE_TOOLS_PFC_INJECT_FRAME_H_

#include <cstddef>
#include <string>
#include <vector>

#include "rue/wire/ethernet.h"
#include "rue/wire/pfc.h"
#include "tools/pfc_inject_options.h"

namespace rue::pfc_inject {

// The frame the options describe, from src: a bit and a time for every
// priority given, then --opcode, --ethertype and --reserved-bits.
wire::PfcFrame FrameFor(const Options& options, const wire::MacAddress& src);

// The bytes to send: --raw-hex as given, or FrameFor() cut to --truncate.
std::vector<std::byte> BuildFrame(const Options& options,
                                  const wire::MacAddress& src);

// The frame's fields for the summary line: "PFC enable 0x0008
// time[3]=65535", with ", EtherType 0x..." and ", opcode 0x..." when they
// are not PFC's; "raw" for --raw-hex.
std::string Describe(const Options& options);

}  // namespace rue::pfc_inject

#endif  // RUE_WIRE_TOOLS_PFC_INJECT_FRAME_H_
