// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// getopt_long(3), as ruedump and ruectl use.  Every option is long only
// (but -h): the tool is driven by scripts, which read better spelled out.
// Values are checked here, option combinations after the loop; what depends
// on the opcode's headers is checked where they are built.
#include "tools/roce_inject_options.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <netinet/in.h>

#include <cctype>
#include <charconv>
#include <cstring>
#include <limits>
#include <utility>

#include "rue/wire/roce_opcode.h"

namespace rue::inject {
namespace {

enum Flag : int {
  kSrc = 256,
  kDst,
  kSport,
  kDport,
  kTos,
  kOpcode,
  kDestQp,
  kPsn,
  kBecn,
  kPkey,
  kPayload,
  kVa,
  kRkey,
  kLen,
  kTruncate,
  kBadIcrc,
  kRawHex,
  kIcrc,
  kCount,
  kIntervalUs,
  kDryRun,
};

// Leading ':': a missing argument is reported as ':', not '?'.
constexpr char kShortOptions[] = ":h";

constexpr option kLongOptions[] = {
    {"src", required_argument, nullptr, kSrc},
    {"dst", required_argument, nullptr, kDst},
    {"sport", required_argument, nullptr, kSport},
    {"dport", required_argument, nullptr, kDport},
    {"tos", required_argument, nullptr, kTos},
    {"opcode", required_argument, nullptr, kOpcode},
    {"dest-qp", required_argument, nullptr, kDestQp},
    {"psn", required_argument, nullptr, kPsn},
    {"becn", no_argument, nullptr, kBecn},
    {"pkey", required_argument, nullptr, kPkey},
    {"payload", required_argument, nullptr, kPayload},
    {"va", required_argument, nullptr, kVa},
    {"rkey", required_argument, nullptr, kRkey},
    {"len", required_argument, nullptr, kLen},
    {"truncate", required_argument, nullptr, kTruncate},
    {"bad-icrc", no_argument, nullptr, kBadIcrc},
    {"raw-hex", required_argument, nullptr, kRawHex},
    {"icrc", no_argument, nullptr, kIcrc},
    {"count", required_argument, nullptr, kCount},
    {"interval-us", required_argument, nullptr, kIntervalUs},
    {"dry-run", no_argument, nullptr, kDryRun},
    {"help", no_argument, nullptr, 'h'},
    {nullptr, 0, nullptr, 0},
};

constexpr uint64_t kU8Max = 0xFF;
constexpr uint64_t kU16Max = 0xFFFF;
constexpr uint64_t kU24Max = wire::kU24Mask;  // DestQP, PSN
constexpr uint64_t kU32Max = 0xFFFFFFFF;
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

// Options that shape a built packet, so mean nothing with --raw-hex.
bool BuiltOnly(int flag) {
  switch (flag) {
    case kDestQp:
    case kPsn:
    case kBecn:
    case kPkey:
    case kPayload:
    case kVa:
    case kRkey:
    case kLen:
      return true;
  }
  return false;
}

std::string OptionName(int flag) {
  for (const option& o : kLongOptions) {
    if (o.name != nullptr && o.val == flag) return std::string("--") + o.name;
  }
  return "?";
}

std::string Hex(uint64_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, 16);
  return "0x" + std::string(buf, end);
}

// The parse so far: the options and what the final checks need to know.
struct State {
  Options options;
  bool have_src = false;
  bool have_dst = false;
  int built_only = 0;  // the first BuiltOnly() option seen, 0 if none
  std::string error;
};

bool Fail(State* s, std::string message) {
  s->error = std::move(message);
  return false;
}

// Parses arg into *value; false with an error naming the option otherwise.
template <typename T>
bool Number(State* s, int flag, const char* arg, uint64_t max, T* value) {
  const std::optional<uint64_t> n = ParseNumber(arg, max);
  if (!n) {
    return Fail(s, OptionName(flag) + ": want a number from 0 to " +
                       std::to_string(max) + " (" + Hex(max) + "), not '" +
                       arg + "'");
  }
  *value = static_cast<T>(*n);
  return true;
}

template <typename T>
bool Number(State* s, int flag, const char* arg, uint64_t max,
            std::optional<T>* value) {
  T v{};
  if (!Number(s, flag, arg, max, &v)) return false;
  *value = v;
  return true;
}

bool Address(State* s, int flag, const char* arg, wire::Ipv4Address* addr,
             bool* seen) {
  in_addr in{};
  if (inet_pton(AF_INET, arg, &in) != 1) {
    return Fail(s, OptionName(flag) + ": want an IPv4 address A.B.C.D, not '" +
                       arg + "'");
  }
  std::memcpy(addr->data(), &in.s_addr, addr->size());  // network order
  *seen = true;
  return true;
}

bool Opcode(State* s, const char* arg) {
  s->options.opcode = ParseOpcode(arg);
  if (s->options.opcode) return true;
  return Fail(s, std::string("--opcode: want a number up to 0xff or an "
                             "opcode name such as RC_SEND_ONLY or cnp, "
                             "not '") +
                     arg + "'");
}

bool RawHex(State* s, const char* arg) {
  s->options.raw_hex = ParseHex(arg);
  if (s->options.raw_hex) return true;
  return Fail(s, std::string("--raw-hex: want pairs of hex digits (spaces "
                             "and colons between bytes allowed), not '") +
                     arg + "'");
}

bool Count(State* s, const char* arg) {
  if (!Number(s, kCount, arg, kU32Max, &s->options.count)) return false;
  if (s->options.count != 0) return true;
  return Fail(s, "--count: want at least 1 packet");
}

// Applies one option; false with s->error on a bad value.
bool Apply(State* s, int flag, const char* arg) {
  Options& o = s->options;
  if (BuiltOnly(flag) && s->built_only == 0) s->built_only = flag;
  switch (flag) {
    case kSrc: return Address(s, flag, arg, &o.src, &s->have_src);
    case kDst: return Address(s, flag, arg, &o.dst, &s->have_dst);
    case kSport: return Number(s, flag, arg, kU16Max, &o.sport);
    case kDport: return Number(s, flag, arg, kU16Max, &o.dport);
    case kTos: return Number(s, flag, arg, kU8Max, &o.tos);
    case kOpcode: return Opcode(s, arg);
    case kDestQp: return Number(s, flag, arg, kU24Max, &o.dest_qp);
    case kPsn: return Number(s, flag, arg, kU24Max, &o.psn);
    case kBecn: return o.becn = true;
    case kPkey: return Number(s, flag, arg, kU16Max, &o.pkey);
    case kPayload: return Number(s, flag, arg, kU16Max, &o.payload);
    case kVa: return Number(s, flag, arg, kU64Max, &o.va);
    case kRkey: return Number(s, flag, arg, kU32Max, &o.rkey);
    case kLen: return Number(s, flag, arg, kU32Max, &o.len);
    case kTruncate: return Number(s, flag, arg, kU16Max, &o.truncate);
    case kBadIcrc: return o.bad_icrc = true;
    case kRawHex: return RawHex(s, arg);
    case kIcrc: return o.icrc = true;
    case kCount: return Count(s, arg);
    case kIntervalUs: return Number(s, flag, arg, kU32Max, &o.interval_us);
    case kDryRun: return o.dry_run = true;
    case 'h': return o.help = true;
  }
  return Fail(s, "internal error: option " + std::to_string(flag));
}

// The combination rules, once every option is in.
bool Check(State* s) {
  const Options& o = s->options;
  if (!s->have_src) return Fail(s, "--src is required");
  if (!s->have_dst) return Fail(s, "--dst is required");
  if (o.opcode && o.raw_hex) {
    return Fail(s, "--opcode and --raw-hex exclude each other");
  }
  if (!o.opcode && !o.raw_hex) {
    return Fail(s, "one of --opcode and --raw-hex is required");
  }
  if (o.raw_hex && s->built_only != 0) {
    return Fail(s, OptionName(s->built_only) +
                       " does not apply to --raw-hex, which is sent as given");
  }
  if (o.icrc && !o.raw_hex) {
    return Fail(s, "--icrc goes with --raw-hex (a built packet always has "
                   "an ICRC)");
  }
  if (o.bad_icrc && o.raw_hex && !o.icrc) {
    return Fail(s, "--bad-icrc with --raw-hex needs --icrc");
  }
  return true;
}

// The word getopt_long() refused.  An unknown short option is in optopt;
// otherwise getopt_long() has stepped past the word at fault: an unknown or
// ambiguous long option, a long one given an argument it does not take, or
// one missing its argument.
std::string Offender(int flag, char* argv[]) {
  if (flag == '?' && optopt > 0 && optopt < kSrc && optopt != 'h') {
    return std::string("-") + static_cast<char>(optopt);
  }
  return argv[optind - 1];
}

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<uint8_t> ParseOpcode(std::string_view text) {
  if (std::optional<uint64_t> n = ParseNumber(text, kU8Max)) {
    return static_cast<uint8_t>(*n);
  }
  for (std::size_t op = 0; op < wire::kOpcodeTable.size(); ++op) {
    const wire::OpcodeInfo& info = wire::kOpcodeTable[op];
    if (info.known && SameName(info.name, text)) {
      return static_cast<uint8_t>(op);
    }
  }
  return std::nullopt;
}

std::optional<Options> ParseOptions(int argc, char* argv[],
                                    std::string* error) {
  State s;
  optind = 0;  // glibc: start afresh, as if never called
  opterr = 0;  // errors are ours to report
  int flag;
  while ((flag = getopt_long(argc, argv, kShortOptions, kLongOptions,
                             nullptr)) != -1) {
    if (flag == '?') {
      *error = "unknown option '" + Offender(flag, argv) + "'";
      return std::nullopt;
    }
    if (flag == ':') {
      *error = "option '" + Offender(flag, argv) + "' needs a value";
      return std::nullopt;
    }
    if (!Apply(&s, flag, optarg)) {
      *error = s.error;
      return std::nullopt;
    }
  }
  if (s.options.help) return s.options;
  if (optind < argc) {
    *error = std::string("unexpected argument '") + argv[optind] + "'";
    return std::nullopt;
  }
  if (!Check(&s)) {
    *error = s.error;
    return std::nullopt;
  }
  return s.options;
}

std::string Usage() {
  return "Usage: roce_inject --src A.B.C.D --dst A.B.C.D "
         "{--opcode OP | --raw-hex HEX [--icrc]} [OPTIONS]\n"
         "Send hand-made RoCEv2 packets (IPv4, UDP) through a raw socket; "
         "needs CAP_NET_RAW.\n"
         "IPv4 has DF set, ID 0 and TTL 64; the UDP checksum is 0; the ICRC "
         "is correct unless\n--bad-icrc, --truncate or --raw-hex say "
         "otherwise.\n"
         "\n"
         "  --src A.B.C.D    IPv4 source address (required)\n"
         "  --dst A.B.C.D    IPv4 destination address (required)\n"
         "  --sport N        UDP source port (default 49152)\n"
         "  --dport N        UDP destination port (default 4791)\n"
         "  --tos N          IPv4 TOS byte: DSCP and ECN (default 0)\n"
         "  --opcode OP      BTH opcode: a number (0x81) or a name "
         "(RC_SEND_ONLY, cnp, ...)\n"
         "  --dest-qp N      BTH DestQP, 24 bits (default 0)\n"
         "  --psn N          BTH PSN, 24 bits (default 0)\n"
         "  --becn           set the BTH BECN bit (a CNP always has it)\n"
         "  --pkey N         BTH P_Key (default 0xffff)\n"
         "  --payload N      N payload bytes 00 01 02 ... (opcodes with a "
         "payload)\n"
         "  --va N           RETH or AtomicETH virtual address (default 0)\n"
         "  --rkey N         RETH, AtomicETH or IETH R_Key (default 0)\n"
         "  --len N          RETH DMA length (default: the payload size)\n"
         "  --truncate N     drop N bytes from the end of the UDP payload; "
         "IP and UDP\n"
         "                   lengths follow, the ICRC is not recomputed\n"
         "  --bad-icrc       send the ICRC with every bit flipped\n"
         "  --raw-hex HEX    send HEX (e.g. \"81 00 ff ff\") as the UDP "
         "payload instead\n"
         "  --icrc           with --raw-hex: append the ICRC of the packet\n"
         "  --count N        packets to send (default 1)\n"
         "  --interval-us N  microseconds between packets (default 0)\n"
         "  --dry-run        print the IP packet in hex instead of sending "
         "it\n"
         "  -h, --help       this text\n"
         "\n"
         "Numbers are decimal or 0x hex.  Other extension header fields are "
         "zero.\n"
         "\n"
         "Examples:\n"
         "  roce_inject --src 10.0.0.1 --dst 10.0.0.2 --opcode cnp "
         "--dest-qp 0xd2\n"
         "  roce_inject --src 10.0.0.1 --dst 10.0.0.2 --opcode RC_SEND_ONLY "
         "--dest-qp 17 \\\n"
         "      --psn 5 --payload 64 --truncate 6\n"
         "  roce_inject --src 10.0.0.1 --dst 10.0.0.2 \\\n"
         "      --raw-hex \"04 00 ff ff 00 00 00 11 00 00 00 05\" --icrc\n"
         "\n"
         "Prints \"sent N packets of M bytes to DST\" (M: the IP packet).\n"
         "Exit status: 0 sent, 1 socket or send error, 2 bad command line.\n";
}

}  // namespace rue::inject
