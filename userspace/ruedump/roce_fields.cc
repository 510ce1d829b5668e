// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/roce_fields.h"

#include <cstddef>
#include <optional>
#include <string>

#include "ruedump/hex_dump.h"

namespace rue::dump {
namespace {

using wire::Aeth;
using wire::AethType;
using wire::AtomicAckEth;
using wire::AtomicEth;
using wire::Bth;
using wire::CnpReserved;
using wire::Deth;
using wire::ExtHeader;
using wire::Ieth;
using wire::ImmDt;
using wire::Reth;

constexpr Field<Bth> kBthFields[] = {
    {"opcode", "", Style::kBare, Level::kBrief,
     [](const Bth& h) {
       return Text(std::string(wire::LookupOpcode(h.opcode).name));
     }},
    {"opcode-value", "", Style::kLabel, Level::kDetail,
     [](const Bth& h) { return Hex(h.opcode, 2); }},
    {"dest-qp", "dqpn", Style::kLabel, Level::kBrief,
     [](const Bth& h) { return Hex(h.dest_qp); }},
    {"psn", "", Style::kLabel, Level::kBrief,
     [](const Bth& h) { return Hex(h.psn); }},
    {"ack-req", "ackreq", Style::kFlag, Level::kBrief,
     [](const Bth& h) { return Bool(h.ack_req); }},
    {"se", "", Style::kAssign, Level::kBrief,
     [](const Bth& h) { return Bool(h.se); }},
    {"pad-count", "pad", Style::kAssign, Level::kBrief,
     [](const Bth& h) { return Number(h.pad_count); }},
    {"fecn", "", Style::kFlag, Level::kBrief,
     [](const Bth& h) { return Bool(h.fecn); }},
    {"becn", "", Style::kFlag, Level::kBrief,
     [](const Bth& h) { return Bool(h.becn); }},
    {"mig-req", "", Style::kFlag, Level::kDetail,
     [](const Bth& h) { return Bool(h.m); }},
    {"tver", "", Style::kLabel, Level::kDetail,
     [](const Bth& h) { return Number(h.tver); }},
    {"pkey", "", Style::kLabel, Level::kDetail,
     [](const Bth& h) { return Hex(h.pkey, 4); }},
    {"resv6", "", Style::kLabel, Level::kDetail,
     [](const Bth& h) { return Hex(h.resv6, 2); }},
    {"resv7", "", Style::kLabel, Level::kDetail,
     [](const Bth& h) { return Hex(h.resv7, 2); }},
};

constexpr Field<Reth> kRethFields[] = {
    {"va", "", Style::kAssign, Level::kBrief,
     [](const Reth& h) { return Hex(h.va); }},
    {"rkey", "", Style::kAssign, Level::kBrief,
     [](const Reth& h) { return Hex(h.rkey); }},
    {"dma-length", "len", Style::kAssign, Level::kBrief,
     [](const Reth& h) { return Number(h.dma_length); }},
};

std::string AethTypeName(AethType type) {
  switch (type) {
    case AethType::kAck:
      return "ACK";
    case AethType::kRnrNak:
      return "RNR_NAK";
    case AethType::kReserved:
      return "RESERVED";
    case AethType::kNak:
      return "NAK";
  }
  return "?";
}

// IBTA vol 1 9.7.5.2.4 NAK codes.
std::string NakCodeName(uint8_t code) {
  switch (static_cast<wire::NakCode>(code)) {
    case wire::NakCode::kPsnSequenceError:
      return "PSN_SEQUENCE_ERROR";
    case wire::NakCode::kInvalidRequest:
      return "INVALID_REQUEST";
    case wire::NakCode::kRemoteAccessError:
      return "REMOTE_ACCESS_ERROR";
    case wire::NakCode::kRemoteOperationalError:
      return "REMOTE_OPERATIONAL_ERROR";
    case wire::NakCode::kInvalidRdRequest:
      return "INVALID_RD_REQUEST";
  }
  return std::to_string(code);
}

constexpr Field<Aeth> kAethFields[] = {
    {"type", "", Style::kBare, Level::kBrief,
     [](const Aeth& h) { return Text(AethTypeName(h.type())); }},
    {"credits", "", Style::kAssign, Level::kBrief,
     [](const Aeth& h) { return Number(h.value()); },
     [](const Aeth& h) { return h.type() == AethType::kAck; }},
    {"rnr-timer", "timer", Style::kAssign, Level::kBrief,
     [](const Aeth& h) { return Number(h.value()); },
     [](const Aeth& h) { return h.type() == AethType::kRnrNak; }},
    {"nak-code", "code", Style::kAssign, Level::kBrief,
     [](const Aeth& h) { return Text(NakCodeName(h.value())); },
     [](const Aeth& h) { return h.type() == AethType::kNak; }},
    {"value", "", Style::kAssign, Level::kBrief,
     [](const Aeth& h) { return Number(h.value()); },
     [](const Aeth& h) { return h.type() == AethType::kReserved; }},
    {"msn", "", Style::kAssign, Level::kBrief,
     [](const Aeth& h) { return Hex(h.msn); }},
    {"syndrome", "", Style::kLabel, Level::kDetail,
     [](const Aeth& h) { return Hex(h.syndrome, 2); }},
};

constexpr Field<Deth> kDethFields[] = {
    {"qkey", "", Style::kAssign, Level::kBrief,
     [](const Deth& h) { return Hex(h.qkey); }},
    {"src-qp", "sqpn", Style::kAssign, Level::kBrief,
     [](const Deth& h) { return Hex(h.src_qp); }},
    {"reserved", "", Style::kLabel, Level::kDetail,
     [](const Deth& h) { return Hex(h.rsvd, 2); }},
};

constexpr Field<ImmDt> kImmDtFields[] = {
    {"imm", "", Style::kAssign, Level::kBrief,
     [](const ImmDt& h) { return Hex(h.imm, 8); }},
};

constexpr Field<Ieth> kIethFields[] = {
    {"rkey", "", Style::kAssign, Level::kBrief,
     [](const Ieth& h) { return Hex(h.rkey); }},
};

constexpr Field<AtomicEth> kAtomicEthFields[] = {
    {"va", "", Style::kAssign, Level::kBrief,
     [](const AtomicEth& h) { return Hex(h.va); }},
    {"rkey", "", Style::kAssign, Level::kBrief,
     [](const AtomicEth& h) { return Hex(h.rkey); }},
    {"swap-add", "", Style::kAssign, Level::kBrief,
     [](const AtomicEth& h) { return Hex(h.swap_add); }},
    {"compare", "", Style::kAssign, Level::kBrief,
     [](const AtomicEth& h) { return Hex(h.compare); }},
};

constexpr Field<AtomicAckEth> kAtomicAckEthFields[] = {
    {"original-data", "orig", Style::kAssign, Level::kBrief,
     [](const AtomicAckEth& h) { return Hex(h.original_data); }},
};

constexpr Field<CnpReserved> kCnpFields[] = {
    {"reserved", "", Style::kLabel, Level::kDetail,
     [](const CnpReserved& h) {
       return Text(HexString(std::as_bytes(std::span(h.rsvd))));
     }},
};

// What follows the headers: payload, pad and the ICRC verdict.
struct Trailer {
  std::size_t payload_length = 0;
  std::size_t pad_length = 0;
  uint32_t icrc = 0;
  bool icrc_ok = false;
  std::optional<uint32_t> expected;  // the ICRC the packet calls for
};

constexpr Field<Trailer> kTrailerFields[] = {
    {"payload-length", "payload", Style::kAssign, Level::kBrief,
     [](const Trailer& t) { return Number(t.payload_length); }},
    {"pad-length", "", Style::kLabel, Level::kDetail,
     [](const Trailer& t) { return Number(t.pad_length); }},
    {"icrc", "", Style::kAssign, Level::kBrief,
     [](const Trailer& t) { return Hex(t.icrc, 8); }},
    {"icrc-ok", "", Style::kBare, Level::kBrief,
     [](const Trailer& t) { return Bool(t.icrc_ok, "ok", "BAD"); }},
    {"icrc-expected", "expected", Style::kParen, Level::kBrief,
     [](const Trailer& t) { return Hex(t.expected.value_or(0), 8); },
     [](const Trailer& t) { return !t.icrc_ok && t.expected.has_value(); }},
};

Section ExtSection(const wire::RoceHeaders& h, ExtHeader which) {
  switch (which) {
    case ExtHeader::kReth:
      return MakeSection(*h.reth, {"reth", "RETH", true}, kRethFields);
    case ExtHeader::kAeth:
      return MakeSection(*h.aeth, {"aeth", "AETH", true}, kAethFields);
    case ExtHeader::kDeth:
      return MakeSection(*h.deth, {"deth", "DETH", true}, kDethFields);
    case ExtHeader::kImmDt:
      return MakeSection(*h.imm_dt, {"immdt", "ImmDt", true}, kImmDtFields);
    case ExtHeader::kIeth:
      return MakeSection(*h.ieth, {"ieth", "IETH", true}, kIethFields);
    case ExtHeader::kAtomicEth:
      return MakeSection(*h.atomic_eth, {"atomic-eth", "AtomicETH", true},
                         kAtomicEthFields);
    case ExtHeader::kAtomicAckEth:
      return MakeSection(*h.atomic_ack_eth,
                         {"atomic-ack-eth", "AtomicAckETH", true},
                         kAtomicAckEthFields);
    case ExtHeader::kCnpReserved:
      return MakeSection(*h.cnp_reserved, {"cnp", "CNP", true}, kCnpFields);
  }
  return Section{};
}

Trailer MakeTrailer(const wire::RoceFrame& frame) {
  Trailer t;
  t.payload_length = frame.roce.payload.size();
  t.pad_length = frame.roce.pad.size();
  t.icrc = frame.roce.icrc;
  t.icrc_ok = frame.icrc_ok;
  if (!frame.icrc_ok) t.expected = wire::ComputeIcrc(frame.frame.ip_packet);
  return t;
}

}  // namespace

std::vector<Section> RoceSections(const wire::RoceFrame& frame) {
  const wire::RoceHeaders& headers = frame.roce.headers;
  std::vector<Section> sections;
  sections.push_back(
      MakeSection(headers.bth, {"bth", "BTH", false}, kBthFields));
  for (ExtHeader h : frame.roce.opcode_info->headers())
    sections.push_back(ExtSection(headers, h));
  sections.push_back(MakeSection(
      MakeTrailer(frame), {"", "Payload and ICRC", false}, kTrailerFields));
  return sections;
}

}  // namespace rue::dump
