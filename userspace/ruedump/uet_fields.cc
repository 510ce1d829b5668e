// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/uet_fields.h"

#include <cstddef>
#include <string>
#include <string_view>

#include "ruedump/hex_dump.h"

namespace rue::dump {
namespace {

using wire::PdsAck;
using wire::PdsCtrl;
using wire::PdsNack;
using wire::PdsPrologue;
using wire::PdsRequest;
using wire::PdsRudi;
using wire::PdsUud;
using wire::SesAtomicExt;
using wire::SesRequest;
using wire::SesResponse;
namespace pf = wire::pds_flags;
namespace sf = wire::ses_flags;

// A name, or the number when the code point has none ("UNKNOWN(0x1b)").
Value Named(std::string_view name, uint64_t value) {
  if (!name.empty()) return Text(std::string(name));
  return Text("UNKNOWN(" + Hex(value).text + ")");
}

Value SesOpcodeValue(uint8_t opcode) {
  if (opcode >= 0x30 && opcode <= 0x3E)
    return Text("VENDOR_" + std::to_string(opcode - 0x30));
  return Named(wire::SesOpcodeName(opcode), opcode);
}

// The fields every PDS header starts with: its prologue.  A macro-free way
// to share them: each list begins with these three entries, spelled for
// its own type by this template.
template <typename T>
constexpr Field<T> kTypeField = {
    "type", "", Style::kBare, Level::kBrief,
    [](const T& h) {
      return Named(wire::PdsTypeName(h.prologue.type), h.prologue.type);
    }};
template <typename T>
constexpr Field<T> kTypeValueField = {
    "type-value", "", Style::kLabel, Level::kDetail,
    [](const T& h) { return Number(h.prologue.type); }};
template <typename T>
constexpr Field<T> kNextField = {
    "next-hdr", "next", Style::kAssign, Level::kBrief,
    [](const T& h) {
      return Named(wire::NextHeaderName(h.prologue.next_hdr),
                   h.prologue.next_hdr);
    }};
template <typename T>
constexpr Field<T> kFlagsField = {
    "flags", "", Style::kLabel, Level::kDetail,
    [](const T& h) { return Hex(h.prologue.flags, 2); }};

template <typename T, uint8_t kMask>
constexpr Value FlagValue(const T& h) {
  return Bool(h.prologue.Has(kMask));
}

bool IsSyn(const PdsRequest& h) { return h.syn(); }
bool NotSyn(const PdsRequest& h) { return !h.syn(); }

constexpr Field<PdsRequest> kRequestFields[] = {
    kTypeField<PdsRequest>,
    kNextField<PdsRequest>,
    {"psn", "", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) { return Hex(h.psn); }},
    {"spdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) { return Hex(h.spdcid); }},
    {"dpdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) { return Hex(h.dpdcid); }, NotSyn},
    {"pdc-info", "", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) {
       return Hex(wire::PdcIdOrSyn::PdcInfo(h.dpdcid));
     },
     IsSyn},
    {"psn-offset", "", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) {
       return Hex(wire::PdcIdOrSyn::PsnOffset(h.dpdcid));
     },
     IsSyn},
    {"clear-psn-offset", "clear", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) { return Signed(h.clear_psn_offset); }},
    {"retx", "", Style::kFlag, Level::kBrief, FlagValue<PdsRequest, pf::kRetx>},
    {"ar", "", Style::kFlag, Level::kBrief, FlagValue<PdsRequest, pf::kAr>},
    {"syn", "", Style::kFlag, Level::kBrief, FlagValue<PdsRequest, pf::kSyn>},
    {"ccc-id", "ccc", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) { return Hex(h.cc ? h.cc->ccc_id : 0); },
     [](const PdsRequest& h) { return h.cc.has_value(); }},
    {"credit-target", "", Style::kAssign, Level::kBrief,
     [](const PdsRequest& h) { return Number(h.cc ? h.cc->credit_target : 0); },
     [](const PdsRequest& h) { return h.cc.has_value(); }},
    kTypeValueField<PdsRequest>,
    kFlagsField<PdsRequest>,
};

bool HasCc(const PdsAck& h) { return h.cc.has_value(); }
bool IsAckCc(const PdsAck& h) {
  return h.prologue.type == static_cast<uint8_t>(wire::PdsType::kAckCc);
}
bool IsNscc(const PdsAck& h) {
  return IsAckCc(h) && h.cc->cc_type == static_cast<uint8_t>(wire::CcType::kNscc);
}
bool IsCredit(const PdsAck& h) {
  return IsAckCc(h) &&
         h.cc->cc_type == static_cast<uint8_t>(wire::CcType::kCredit);
}
// ACK_CCX, or ACK_CC with a cc_type this decoder does not know.
bool RawCcState(const PdsAck& h) {
  return HasCc(h) && !IsNscc(h) && !IsCredit(h);
}
const wire::PdsAckCc& Cc(const PdsAck& h) { return *h.cc; }

std::string AckRequestName(const PdsAck& h) {
  switch (h.request()) {
    case wire::AckRequest::kNone: return "none";
    case wire::AckRequest::kClear: return "clear";
    case wire::AckRequest::kClose: return "close";
  }
  return "UNKNOWN(3)";
}

constexpr Field<PdsAck> kAckFields[] = {
    kTypeField<PdsAck>,
    kNextField<PdsAck>,
    {"cack-psn", "cack", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Hex(h.cack_psn); }},
    {"ack-psn-offset", "ack-off", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) {
       return Signed(static_cast<int16_t>(h.ack_psn_offset));
     },
     [](const PdsAck& h) { return !h.prologue.Has(pf::kP); }},
    {"probe-opaque", "probe", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Hex(h.ack_psn_offset, 4); },
     [](const PdsAck& h) { return h.prologue.Has(pf::kP); }},
    {"spdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Hex(h.spdcid); }},
    {"dpdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Hex(h.dpdcid); }},
    {"ecn-marked", "m", Style::kFlag, Level::kBrief, FlagValue<PdsAck, pf::kM>},
    {"retx", "", Style::kFlag, Level::kBrief, FlagValue<PdsAck, pf::kRetx>},
    {"probe", "p", Style::kFlag, Level::kBrief, FlagValue<PdsAck, pf::kP>},
    {"request", "req", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Text(AckRequestName(h)); }},
    {"cc-type", "cc", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) {
       if (IsNscc(h)) return Text("NSCC");
       if (IsCredit(h)) return Text("CREDIT");
       return Hex(Cc(h).cc_type);
     },
     HasCc},
    {"cc-flags", "", Style::kLabel, Level::kDetail,
     [](const PdsAck& h) { return Hex(Cc(h).cc_flags); }, HasCc},
    {"mpr", "", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Number(Cc(h).mpr); }, HasCc},
    {"sack-psn-offset", "sack-off", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Signed(Cc(h).sack_psn_offset); }, HasCc},
    {"sack-bitmap", "sack", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Hex(Cc(h).sack_bitmap, 16); }, HasCc},
    {"service-time", "", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Number(Cc(h).service_time()); }, IsNscc},
    {"restore-cwnd", "", Style::kFlag, Level::kBrief,
     [](const PdsAck& h) { return Bool(Cc(h).restore_cwnd()); }, IsNscc},
    {"rcv-cwnd-pend", "pend", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Number(Cc(h).rcv_cwnd_pend()); }, IsNscc},
    {"rcvd-bytes", "", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Number(Cc(h).rcvd_bytes()); }, IsNscc},
    {"credit", "", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Number(Cc(h).credit()); }, IsCredit},
    {"credit-rsvd", "", Style::kLabel, Level::kDetail,
     [](const PdsAck& h) { return Hex(Cc(h).credit_rsvd()); }, IsCredit},
    {"ooo-count", "ooo", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Number(Cc(h).ooo_count()); },
     [](const PdsAck& h) { return IsNscc(h) || IsCredit(h); }},
    {"cc-state", "state", Style::kAssign, Level::kBrief,
     [](const PdsAck& h) { return Hex(Cc(h).cc_state, 16); }, RawCcState},
    kTypeValueField<PdsAck>,
    kFlagsField<PdsAck>,
};

constexpr Field<PdsNack> kNackFields[] = {
    kTypeField<PdsNack>,
    kNextField<PdsNack>,
    {"nack-code", "code", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) {
       return Named(wire::NackCodeName(h.nack_code), h.nack_code);
     }},
    {"nack-psn", "psn", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.nack_psn); },
     [](const PdsNack& h) { return !h.prologue.Has(pf::kNt); }},
    {"pkt-id", "", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.nack_psn); },
     [](const PdsNack& h) { return h.prologue.Has(pf::kNt); }},
    {"spdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.spdcid); }},
    {"dpdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.dpdcid); }},
    {"ecn-marked", "m", Style::kFlag, Level::kBrief, FlagValue<PdsNack, pf::kM>},
    {"retx", "", Style::kFlag, Level::kBrief, FlagValue<PdsNack, pf::kRetx>},
    {"rudi", "nt", Style::kFlag, Level::kBrief, FlagValue<PdsNack, pf::kNt>},
    {"vendor-code", "vendor", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.vendor_code, 2); }},
    {"payload", "nack-payload", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.payload); }},
    {"nack-ccx-state", "ccx", Style::kAssign, Level::kBrief,
     [](const PdsNack& h) { return Hex(h.ccx.value_or(0), 16); },
     [](const PdsNack& h) { return h.ccx.has_value(); }},
    kTypeValueField<PdsNack>,
    kFlagsField<PdsNack>,
};

constexpr Field<PdsCtrl> kCtrlFields[] = {
    kTypeField<PdsCtrl>,
    {"ctl-type", "", Style::kBare, Level::kBrief,
     [](const PdsCtrl& h) {
       return Named(wire::CtlTypeName(h.prologue.next_hdr),
                    h.prologue.next_hdr);
     }},
    {"psn", "", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) { return Hex(h.psn); }},
    {"spdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) { return Hex(h.spdcid); }},
    {"dpdcid", "", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) { return Hex(h.dpdcid); },
     [](const PdsCtrl& h) { return !h.syn(); }},
    {"pdc-info", "", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) { return Hex(wire::PdcIdOrSyn::PdcInfo(h.dpdcid)); },
     [](const PdsCtrl& h) { return h.syn(); }},
    {"psn-offset", "", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) {
       return Hex(wire::PdcIdOrSyn::PsnOffset(h.dpdcid));
     },
     [](const PdsCtrl& h) { return h.syn(); }},
    {"probe-opaque", "probe", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) { return Hex(h.probe_opaque, 4); }},
    {"payload", "ctl-payload", Style::kAssign, Level::kBrief,
     [](const PdsCtrl& h) { return Hex(h.payload); }},
    {"isrod", "", Style::kFlag, Level::kBrief, FlagValue<PdsCtrl, pf::kIsRod>},
    {"retx", "", Style::kFlag, Level::kBrief, FlagValue<PdsCtrl, pf::kRetx>},
    {"ar", "", Style::kFlag, Level::kBrief, FlagValue<PdsCtrl, pf::kAr>},
    {"syn", "", Style::kFlag, Level::kBrief, FlagValue<PdsCtrl, pf::kSyn>},
    kTypeValueField<PdsCtrl>,
    kFlagsField<PdsCtrl>,
};

constexpr Field<PdsRudi> kRudiFields[] = {
    kTypeField<PdsRudi>,
    kNextField<PdsRudi>,
    {"pkt-id", "", Style::kAssign, Level::kBrief,
     [](const PdsRudi& h) { return Hex(h.pkt_id); }},
    {"ecn-marked", "m", Style::kFlag, Level::kBrief, FlagValue<PdsRudi, pf::kM>},
    {"retx", "", Style::kFlag, Level::kBrief, FlagValue<PdsRudi, pf::kRetx>},
    {"rsvd", "", Style::kLabel, Level::kDetail,
     [](const PdsRudi& h) { return Hex(h.rsvd, 4); }},
    kTypeValueField<PdsRudi>,
    kFlagsField<PdsRudi>,
};

constexpr Field<PdsUud> kUudFields[] = {
    kTypeField<PdsUud>,
    kNextField<PdsUud>,
    {"rsvd", "", Style::kLabel, Level::kDetail,
     [](const PdsUud& h) { return Hex(h.rsvd, 4); }},
    kTypeValueField<PdsUud>,
    kFlagsField<PdsUud>,
};

// SES request.  Which meaning a field has depends on the kind, the opcode
// and SOM/HD, as uet_ses.h describes.
bool IsStd(const SesRequest& h) { return h.kind == wire::SesRequestKind::kStd; }
bool NotSmall(const SesRequest& h) {
  return h.kind != wire::SesRequestKind::kSmall;
}
bool IsOp(const SesRequest& h, wire::SesOpcode op) {
  return h.opcode == static_cast<uint8_t>(op);
}
// Deferrable sends carry restart tokens in place of the buffer offset.
bool TokensInOffset(const SesRequest& h) {
  return IsStd(h) && (IsOp(h, wire::SesOpcode::kDeferrableSend) ||
                      IsOp(h, wire::SesOpcode::kDeferrableTsend));
}
// DEFERRABLE_RTR carries them in place of the memory key.
bool TokensInKey(const SesRequest& h) {
  return IsStd(h) && IsOp(h, wire::SesOpcode::kDeferrableRtr);
}
bool ShowsBufferOffset(const SesRequest& h) {
  if (h.kind == wire::SesRequestKind::kMedium) return !h.Has(sf::kHd);
  return !TokensInOffset(h);
}
bool ShowsHeaderData(const SesRequest& h) {
  if (h.kind == wire::SesRequestKind::kMedium) return h.Has(sf::kHd);
  return IsStd(h) && h.Has(sf::kSom);
}
bool NotSom(const SesRequest& h) { return IsStd(h) && !h.Has(sf::kSom); }

template <uint8_t kMask>
Value SesFlag(const SesRequest& h) {
  return Bool(h.Has(kMask));
}

constexpr Field<SesRequest> kSesRequestFields[] = {
    {"opcode", "", Style::kBare, Level::kBrief,
     [](const SesRequest& h) { return SesOpcodeValue(h.opcode); }},
    {"opcode-value", "", Style::kLabel, Level::kDetail,
     [](const SesRequest& h) { return Hex(h.opcode, 2); }},
    {"header", "hdr", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) {
       switch (h.kind) {
         case wire::SesRequestKind::kSmall: return Text("small");
         case wire::SesRequestKind::kMedium: return Text("medium");
         case wire::SesRequestKind::kStd: break;
       }
       return Text("std");
     }},
    {"message-id", "msg", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.message_id); }, IsStd},
    {"request-length", "rlen", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) {
       return Number(IsStd(h) ? h.request_length : h.short_request_length());
     }},
    {"job-id", "job", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.job_id); }},
    {"pid-on-fep", "pid", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.pid()); }},
    {"resource-index", "ri", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.ri()); }},
    {"ri-generation", "gen", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Number(h.ri_generation); }},
    {"som", "", Style::kFlag, Level::kBrief, SesFlag<sf::kSom>},
    {"eom", "", Style::kFlag, Level::kBrief, SesFlag<sf::kEom>},
    {"hd", "", Style::kFlag, Level::kBrief, SesFlag<sf::kHd>},
    {"rel", "", Style::kFlag, Level::kBrief, SesFlag<sf::kRel>},
    {"ie", "", Style::kFlag, Level::kBrief, SesFlag<sf::kIe>},
    {"dc", "", Style::kFlag, Level::kBrief, SesFlag<sf::kDc>},
    {"buffer-offset", "offset", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.buffer_offset); },
     ShowsBufferOffset},
    {"initiator-restart-token", "irt", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) {
       return Hex(static_cast<uint32_t>(
           (TokensInKey(h) ? h.memory_key : h.buffer_offset) >> 32));
     },
     [](const SesRequest& h) { return TokensInOffset(h) || TokensInKey(h); }},
    {"target-restart-token", "trt", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) {
       return Hex(static_cast<uint32_t>(TokensInKey(h) ? h.memory_key
                                                        : h.buffer_offset));
     },
     [](const SesRequest& h) { return TokensInOffset(h) || TokensInKey(h); }},
    {"initiator", "init", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.initiator); }, NotSmall},
    {"memory-key", "key", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.memory_key); },
     [](const SesRequest& h) { return NotSmall(h) && !TokensInKey(h); }},
    {"header-data", "hdata", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.header_data); }, ShowsHeaderData},
    {"payload-length", "plen", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Number(h.payload_length()); }, NotSom},
    {"message-offset", "moff", Style::kAssign, Level::kBrief,
     [](const SesRequest& h) { return Hex(h.message_offset()); }, NotSom},
    {"header-data-rsvd", "", Style::kLabel, Level::kDetail,
     [](const SesRequest& h) { return Hex(h.header_data_rsvd()); }, NotSom},
    {"version", "", Style::kLabel, Level::kDetail,
     [](const SesRequest& h) { return Number(h.version); }},
    {"flags", "", Style::kLabel, Level::kDetail,
     [](const SesRequest& h) { return Hex(h.flags, 2); }},
    {"rsvd", "", Style::kLabel, Level::kDetail,
     [](const SesRequest& h) {
       // The reserved bits of bytes 0, 2-3 (small/medium), 8 and 10.
       const uint32_t short_rsvd = IsStd(h) ? 0 : h.message_id >> 14;
       return Hex(static_cast<uint32_t>(h.rsvd_opcode) << 12 |
                  short_rsvd << 8 | (h.pid_on_fep >> 12) << 4 |
                  (h.resource_index >> 12));
     }},
};

bool IsRspData(const SesResponse& h) {
  return h.kind == wire::SesResponseKind::kRspData;
}
bool IsRspDataSmall(const SesResponse& h) {
  return h.kind == wire::SesResponseKind::kRspDataSmall;
}
bool HasPayloadLength(const SesResponse& h) {
  return IsRspData(h) || IsRspDataSmall(h);
}

constexpr Field<SesResponse> kSesResponseFields[] = {
    {"opcode", "", Style::kBare, Level::kBrief,
     [](const SesResponse& h) {
       return Named(wire::SesRspOpcodeName(h.opcode), h.opcode);
     }},
    {"header", "hdr", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) {
       return Text(IsRspData(h)        ? "data"
                   : IsRspDataSmall(h) ? "data-small"
                                       : "rsp");
     }},
    {"return-code", "rc", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) {
       return Named(wire::SesReturnCodeName(h.return_code), h.return_code);
     }},
    {"message-id", "msg", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Hex(h.message_id); },
     [](const SesResponse& h) { return !IsRspDataSmall(h); }},
    {"job-id", "job", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Hex(h.job_id); }},
    {"ri-generation", "gen", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Number(h.ri_generation); },
     [](const SesResponse& h) {
       return h.kind == wire::SesResponseKind::kRsp;
     }},
    {"list", "", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Number(h.list); }},
    {"modified-length", "mlen", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Number(h.modified_length); },
     [](const SesResponse& h) { return !IsRspDataSmall(h); }},
    {"read-request-message-id", "rmsg", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Hex(h.read_request_message_id); },
     IsRspData},
    {"payload-length", "plen", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Number(h.payload_len()); },
     HasPayloadLength},
    {"message-offset", "moff", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Hex(h.message_offset); }, IsRspData},
    {"original-request-psn", "opsn", Style::kAssign, Level::kBrief,
     [](const SesResponse& h) { return Hex(h.original_request_psn); },
     IsRspDataSmall},
    {"version", "", Style::kLabel, Level::kDetail,
     [](const SesResponse& h) { return Number(h.version); }},
    {"rsvd", "", Style::kLabel, Level::kDetail,
     [](const SesResponse& h) {
       const uint32_t len_rsvd = HasPayloadLength(h) ? h.payload_length >> 14
                                                     : 0;
       const uint32_t byte_rsvd = h.kind == wire::SesResponseKind::kRsp
                                      ? 0
                                      : h.ri_generation;
       return Hex(byte_rsvd << 2 | len_rsvd);
     }},
};

constexpr Field<SesAtomicExt> kAtomicFields[] = {
    {"atomic-code", "op", Style::kAssign, Level::kBrief,
     [](const SesAtomicExt& h) { return Hex(h.atomic_code, 2); }},
    {"datatype", "dt", Style::kAssign, Level::kBrief,
     [](const SesAtomicExt& h) { return Hex(h.datatype, 2); }},
    {"semantic-control", "ctl", Style::kAssign, Level::kBrief,
     [](const SesAtomicExt& h) { return Hex(h.semantic_control, 2); }},
    {"compare", "", Style::kAssign, Level::kBrief,
     [](const SesAtomicExt& h) {
       return Text("0x" + HexString(std::as_bytes(std::span(*h.compare))));
     },
     [](const SesAtomicExt& h) { return h.compare.has_value(); }},
    {"swap", "", Style::kAssign, Level::kBrief,
     [](const SesAtomicExt& h) {
       return Text("0x" + HexString(std::as_bytes(std::span(*h.swap))));
     },
     [](const SesAtomicExt& h) { return h.swap.has_value(); }},
    {"rsvd", "", Style::kLabel, Level::kDetail,
     [](const SesAtomicExt& h) { return Hex(h.rsvd, 2); }},
};

struct UetTrailer {
  std::size_t payload_length = 0;
  std::size_t header_length = 0;
};

constexpr Field<UetTrailer> kTrailerFields[] = {
    {"payload-length", "payload", Style::kAssign, Level::kBrief,
     [](const UetTrailer& t) { return Number(t.payload_length); }},
    {"header-length", "", Style::kLabel, Level::kDetail,
     [](const UetTrailer& t) { return Number(t.header_length); }},
};

constexpr SectionName kPdsName = {"pds", "PDS", false};

Section PdsSection(const wire::PdsHeader& pds) {
  struct Visitor {
    Section operator()(const PdsRequest& h) {
      return MakeSection(h, kPdsName, kRequestFields);
    }
    Section operator()(const PdsAck& h) {
      return MakeSection(h, kPdsName, kAckFields);
    }
    Section operator()(const PdsNack& h) {
      return MakeSection(h, kPdsName, kNackFields);
    }
    Section operator()(const PdsCtrl& h) {
      return MakeSection(h, kPdsName, kCtrlFields);
    }
    Section operator()(const PdsRudi& h) {
      return MakeSection(h, kPdsName, kRudiFields);
    }
    Section operator()(const PdsUud& h) {
      return MakeSection(h, kPdsName, kUudFields);
    }
  };
  return std::visit(Visitor{}, pds);
}

}  // namespace

std::vector<Section> UetSections(const wire::UetPacket& packet) {
  const wire::UetHeaders& h = packet.headers;
  std::vector<Section> sections;
  sections.push_back(PdsSection(h.pds));
  if (h.ses_request)
    sections.push_back(
        MakeSection(*h.ses_request, {"ses", "SES", true}, kSesRequestFields));
  if (h.ses_response)
    sections.push_back(MakeSection(*h.ses_response, {"ses", "SES", true},
                                   kSesResponseFields));
  if (h.atomic)
    sections.push_back(
        MakeSection(*h.atomic, {"atomic", "ATOMIC", true}, kAtomicFields));
  sections.push_back(MakeSection(
      UetTrailer{packet.payload.size(), packet.header_size},
      {"", "Payload", false}, kTrailerFields));
  return sections;
}

}  // namespace rue::dump
