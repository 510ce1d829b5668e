// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// From a captured packet to what ruedump prints about it: which protocol it
// is (by UDP destination port), whether it parses, its ICRC verdict, and
// the Record of its fields.
#ifndef RUE_RUEDUMP_PACKET_DECODER_H_
#define RUE_RUEDUMP_PACKET_DECODER_H_

#include <cstdint>

#include "ruedump/link_layer.h"
#include "ruedump/packet.h"
#include "ruedump/record.h"

namespace rue::dump {

// Which protocols to decode (-F); the others count as "other".
struct Selection {
  bool roce = true;
  bool uet = true;
};

enum class Verdict : uint8_t {
  kOther,        // not IP/UDP, another port, or not selected: not printed
  kRoceOk,       // RoCEv2, parsed, ICRC verified
  kRoceBadIcrc,  // RoCEv2, parsed, ICRC wrong
  kUet,          // UET, parsed
  kMalformed,    // RoCEv2 or UET that does not parse (a "malformed" cell says
                 // why)
};

struct Decoded {
  Verdict verdict = Verdict::kOther;
  Record record;  // empty for kOther
};

Decoded DecodePacket(const Packet& packet, LinkType link_type,
                     Selection selection);

}  // namespace rue::dump

#endif  // RUE_RUEDUMP_PACKET_DECODER_H_
