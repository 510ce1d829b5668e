// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Names of UET code points, spelled as UE 1.0.1 spells them (the names
// [WS] and [X2] use): PDS types, next headers, control types, NACK codes,
// SES request and response opcodes, SES return codes.  An unassigned value
// has no name: the functions return an empty view, and callers print the
// number.
#ifndef RUE_WIRE_UET_NAMES_H_
#define RUE_WIRE_UET_NAMES_H_

#include <array>
#include <cstdint>
#include <string_view>

namespace rue::wire {

namespace internal {

template <std::size_t N>
constexpr std::string_view Lookup(const std::array<std::string_view, N>& t,
                                  unsigned value) {
  return value < N ? t[value] : std::string_view();
}

inline constexpr std::array<std::string_view, 15> kPdsTypeNames = {
    "",        "TSS",      "RUD_REQ", "ROD_REQ",   "RUDI_REQ",
    "RUDI_RESP", "UUD_REQ", "ACK",     "ACK_CC",    "ACK_CCX",
    "NACK",    "CTRL",     "NACK_CCX", "RUD_CC_REQ", "ROD_CC_REQ"};

inline constexpr std::array<std::string_view, 7> kNextHeaderNames = {
    "NONE", "REQ_SMALL", "REQ_MEDIUM", "REQ_STD",
    "RSP",  "RSP_DATA",  "RSP_DATA_SMALL"};

inline constexpr std::array<std::string_view, 10> kCtlTypeNames = {
    "NOOP",  "ACK_REQ", "CLEAR",  "CLEAR_REQ",  "CLOSE",
    "CLOSE_REQ", "PROBE", "CREDIT", "CREDIT_REQ", "NEGOTIATION"};

inline constexpr std::array<std::string_view, 0x1B> kNackCodeNames = {
    "",
    "TRIMMED",
    "TRIMMED_LASTHOP",
    "TRIMMED_ACK",
    "NO_PDC_AVAIL",
    "NO_CCC_AVAIL",
    "NO_BITMAP",
    "NO_PKT_BUFFER",
    "NO_GTD_DEL_AVAIL",
    "NO_SES_MSG_AVAIL",
    "NO_RESOURCE",
    "PSN_OOR_WINDOW",
    "",
    "ROD_OOO",
    "INV_DPDCID",
    "PDC_HDR_MISMATCH",
    "CLOSING",
    "CLOSING_IN_ERR",
    "PKT_NOT_RCVD",
    "GTD_RESP_UNAVAIL",
    "ACK_WITH_DATA",
    "INVALID_SYN",
    "PDC_MODE_MISMATCH",
    "NEW_START_PSN",
    "RCVD_SES_PROCG",
    "UNEXP_EVENT",
    "RCVR_INFER_LOSS"};

inline constexpr std::array<std::string_view, 16> kSesOpcodeNames = {
    "NO_OP",           "WRITE",          "READ",
    "ATOMIC",          "FETCHING_ATOMIC", "SEND",
    "RENDEZVOUS_SEND", "DATAGRAM_SEND",  "DEFERRABLE_SEND",
    "TAGGED_SEND",     "RENDEZVOUS_TSEND", "DEFERRABLE_TSEND",
    "DEFERRABLE_RTR",  "TSEND_ATOMIC",   "TSEND_FETCH_ATOMIC",
    "MSG_ERROR"};

inline constexpr std::array<std::string_view, 4> kSesRspOpcodeNames = {
    "DEFAULT_RESPONSE", "RESPONSE", "RESPONSE_W_DATA", "NO_RESPONSE"};

inline constexpr std::array<std::string_view, 0x25> kSesReturnCodeNames = {
    "NULL",
    "OK",
    "BAD_GENERATION",
    "DISABLED",
    "DISABLED_GEN",
    "NO_MATCH",
    "UNSUPPORTED_OP",
    "UNSUPPORTED_SIZE",
    "AT_INVALID",
    "AT_PERM",
    "AT_ATS_ERROR",
    "AT_NO_TRANS",
    "AT_OUT_OF_RANGE",
    "HOST_POISONED",
    "HOST_UNSUCCESS_CMPL",
    "AMO_UNSUPPORTED_OP",
    "AMO_UNSUPPORTED_DT",
    "AMO_UNSUPPORTED_SIZE",
    "AMO_UNALIGNED",
    "AMO_FP_NAN",
    "AMO_FP_UNDERFLOW",
    "AMO_FP_OVERFLOW",
    "AMO_FP_INEXACT",
    "PERM_VIOLATION",
    "OP_VIOLATION",
    "BAD_INDEX",
    "BAD_PID",
    "BAD_JOB_ID",
    "BAD_MKEY",
    "BAD_ADDR",
    "CANCELLED",
    "UNDELIVERABLE",
    "UNCOR",
    "UNCOR_TRNSNT",
    "TOO_LONG",
    "INITIATOR_ERROR",
    "DROPPED"};

}  // namespace internal

constexpr std::string_view PdsTypeName(uint8_t type) {
  return internal::Lookup(internal::kPdsTypeNames, type);
}
constexpr std::string_view NextHeaderName(uint8_t next_hdr) {
  return internal::Lookup(internal::kNextHeaderNames, next_hdr);
}
constexpr std::string_view CtlTypeName(uint8_t ctl_type) {
  return internal::Lookup(internal::kCtlTypeNames, ctl_type);
}
constexpr std::string_view NackCodeName(uint8_t code) {
  switch (code) {
    case 0xFD: return "EXP_NACK_NORMAL";
    case 0xFE: return "EXP_NACK_ERR";
    case 0xFF: return "EXP_NACK_FATAL";
  }
  return internal::Lookup(internal::kNackCodeNames, code);
}
// Request opcodes; 0x30-0x3E print as VENDOR_n elsewhere (no name here).
constexpr std::string_view SesOpcodeName(uint8_t opcode) {
  return internal::Lookup(internal::kSesOpcodeNames, opcode);
}
constexpr std::string_view SesRspOpcodeName(uint8_t opcode) {
  return internal::Lookup(internal::kSesRspOpcodeNames, opcode);
}
constexpr std::string_view SesReturnCodeName(uint8_t code) {
  return internal::Lookup(internal::kSesReturnCodeNames, code);
}

static_assert(PdsTypeName(14) == "ROD_CC_REQ");
static_assert(NackCodeName(0x1A) == "RCVR_INFER_LOSS");
static_assert(NackCodeName(0x0C).empty());
static_assert(SesReturnCodeName(0x24) == "DROPPED");

}  // namespace rue::wire

#endif  // RUE_WIRE_UET_NAMES_H_
