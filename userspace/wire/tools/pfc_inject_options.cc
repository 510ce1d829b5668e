// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// getopt_long(3), as roce_inject uses.  Options are long (but -i and -h):
// the tool is driven by scripts, which read better spelled out.  Values
// are checked here, option combinations after the loop.
#include "tools/pfc_inject_options.h"

#include <getopt.h>
#include <net/if.h>

#include <charconv>
#include <utility>

#include "tools/inject_common.h"

namespace rue::pfc_inject {
namespace {

using inject::ParseNumber;

enum Flag : int {
  kSrcMac = 256,
  kPrio,
  kXon,
  kOpcode,
  kEtherType,
  kTruncate,
  kReservedBits,
  kRawHex,
  kCount,
  kIntervalUs,
  kDryRun,
};

// Leading ':': a missing argument is reported as ':', not '?'.
constexpr char kShortOptions[] = ":hi:";

constexpr option kLongOptions[] = {
    {"interface", required_argument, nullptr, 'i'},
    {"src-mac", required_argument, nullptr, kSrcMac},
    {"prio", required_argument, nullptr, kPrio},
    {"xon", required_argument, nullptr, kXon},
    {"opcode", required_argument, nullptr, kOpcode},
    {"ethertype", required_argument, nullptr, kEtherType},
    {"truncate", required_argument, nullptr, kTruncate},
    {"reserved-bits", no_argument, nullptr, kReservedBits},
    {"raw-hex", required_argument, nullptr, kRawHex},
    {"count", required_argument, nullptr, kCount},
    {"interval-us", required_argument, nullptr, kIntervalUs},
    {"dry-run", no_argument, nullptr, kDryRun},
    {"help", no_argument, nullptr, 'h'},
    {nullptr, 0, nullptr, 0},
};

constexpr uint64_t kU16Max = 0xFFFF;
constexpr uint64_t kU32Max = 0xFFFFFFFF;
constexpr uint64_t kMaxPriority = wire::kPfcPriorities - 1;

// Options that shape a built frame, so mean nothing with --raw-hex.
bool BuiltOnly(int flag) {
  switch (flag) {
    case kSrcMac:
    case kPrio:
    case kXon:
    case kOpcode:
    case kEtherType:
    case kTruncate:
    case kReservedBits:
      return true;
  }
  return false;
}

std::string OptionName(int flag) {
  if (flag == 'i') return "-i";
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

bool Interface(State* s, const char* arg) {
  const std::string_view name(arg);
  if (name.empty() || name.size() >= IFNAMSIZ) {
    return Fail(s, "-i: want an interface name of 1 to " +
                       std::to_string(IFNAMSIZ - 1) + " characters, not '" +
                       arg + "'");
  }
  s->options.interface = arg;
  return true;
}

bool SrcMac(State* s, const char* arg) {
  s->options.src_mac = ParseMac(arg);
  if (s->options.src_mac) return true;
  return Fail(s, std::string("--src-mac: want a MAC address such as "
                             "02:00:00:00:00:01, not '") +
                     arg + "'");
}

// One priority's entry, refusing a second one for the same priority.
bool SetQuanta(State* s, int flag, const char* arg, PriorityQuanta pq) {
  std::optional<uint16_t>& slot = s->options.quanta[pq.priority];
  if (slot) {
    return Fail(s, OptionName(flag) + " " + arg + ": priority " +
                       std::to_string(pq.priority) + " is already given");
  }
  slot = pq.quanta;
  return true;
}

bool Prio(State* s, const char* arg) {
  std::string why;
  const std::optional<PriorityQuanta> pq = ParsePriorityQuanta(arg, &why);
  if (!pq) return Fail(s, std::string("--prio ") + arg + ": " + why);
  return SetQuanta(s, kPrio, arg, *pq);
}

bool Xon(State* s, const char* arg) {
  const std::optional<uint64_t> p = ParseNumber(arg, kMaxPriority);
  if (!p) {
    return Fail(s, std::string("--xon: want a priority from 0 to 7, not '") +
                       arg + "'");
  }
  return SetQuanta(s, kXon, arg, {static_cast<uint8_t>(*p), 0});
}

bool Truncate(State* s, const char* arg) {
  const std::optional<uint64_t> n = ParseNumber(arg, wire::PfcFrame::kSize);
  if (!n || *n < kMinSendSize) {
    return Fail(s, "--truncate: want " + std::to_string(kMinSendSize) +
                       " to " + std::to_string(wire::PfcFrame::kSize) +
                       " bytes (at least an Ethernet header, at most the "
                       "frame), not '" +
                       arg + "'");
  }
  s->options.truncate = static_cast<std::size_t>(*n);
  return true;
}

bool RawHex(State* s, const char* arg) {
  s->options.raw_hex = inject::ParseHex(arg);
  if (!s->options.raw_hex) {
    return Fail(s, std::string("--raw-hex: want pairs of hex digits (spaces "
                               "and colons between bytes allowed), not '") +
                       arg + "'");
  }
  if (s->options.raw_hex->size() < kMinSendSize) {
    return Fail(s, "--raw-hex: " + std::to_string(s->options.raw_hex->size()) +
                       " bytes, fewer than an Ethernet header (" +
                       std::to_string(kMinSendSize) +
                       "), which AF_PACKET needs");
  }
  return true;
}

bool Count(State* s, const char* arg) {
  if (!Number(s, kCount, arg, kU32Max, &s->options.count)) return false;
  if (s->options.count != 0) return true;
  return Fail(s, "--count: want at least 1 frame");
}

// Applies one option; false with s->error on a bad value.
bool Apply(State* s, int flag, const char* arg) {
  Options& o = s->options;
  if (BuiltOnly(flag) && s->built_only == 0) s->built_only = flag;
  switch (flag) {
    case 'i': return Interface(s, arg);
    case kSrcMac: return SrcMac(s, arg);
    case kPrio: return Prio(s, arg);
    case kXon: return Xon(s, arg);
    case kOpcode: return Number(s, flag, arg, kU16Max, &o.opcode);
    case kEtherType: return Number(s, flag, arg, kU16Max, &o.ethertype);
    case kTruncate: return Truncate(s, arg);
    case kReservedBits: return o.reserved_bits = true;
    case kRawHex: return RawHex(s, arg);
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
  if (o.raw_hex && s->built_only != 0) {
    return Fail(s, OptionName(s->built_only) +
                       " does not apply to --raw-hex, which is sent as given");
  }
  if (o.interface.empty()) {
    if (!o.dry_run) return Fail(s, "-i is required");
    if (!o.src_mac && !o.raw_hex) {
      return Fail(s, "--dry-run without -i needs --src-mac (or --raw-hex)");
    }
  }
  return true;
}

// The word getopt_long() refused.  An unknown short option is in optopt;
// otherwise getopt_long() has stepped past the word at fault: an unknown or
// ambiguous long option, a long one given an argument it does not take, or
// one missing its argument.
std::string Offender(int flag, char* argv[]) {
  if (flag == '?' && optopt > 0 && optopt < kSrcMac && optopt != 'h' &&
      optopt != 'i') {
    return std::string("-") + static_cast<char>(optopt);
  }
  return argv[optind - 1];
}

}  // namespace

std::optional<wire::MacAddress> ParseMac(std::string_view text) {
  constexpr std::size_t kTextSize = 6 * 2 + 5;  // "xx:xx:xx:xx:xx:xx"
  if (text.size() != kTextSize) return std::nullopt;
  const char separator = text[2];
  if (separator != ':' && separator != '-') return std::nullopt;
  wire::MacAddress mac{};
  for (std::size_t i = 0; i < mac.size(); ++i) {
    const std::size_t at = 3 * i;
    if (i != 0 && text[at - 1] != separator) return std::nullopt;
    const int high = inject::HexDigit(text[at]);
    const int low = inject::HexDigit(text[at + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    mac[i] = static_cast<uint8_t>(high << 4 | low);
  }
  return mac;
}

std::string MacText(const wire::MacAddress& mac) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : mac) {
    if (!out.empty()) out += ':';
    out += kDigits[b >> 4];
    out += kDigits[b & 0xF];
  }
  return out;
}

std::optional<PriorityQuanta> ParsePriorityQuanta(std::string_view text,
                                                  std::string* error) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos) {
    *error = "want P=QUANTA, e.g. 3=65535";
    return std::nullopt;
  }
  const std::string_view p = text.substr(0, eq);
  const std::string_view q = text.substr(eq + 1);
  const std::optional<uint64_t> priority = ParseNumber(p, kMaxPriority);
  if (!priority) {
    *error = "the priority is 0 to 7, not '" + std::string(p) + "'";
    return std::nullopt;
  }
  const std::optional<uint64_t> quanta = ParseNumber(q, kU16Max);
  if (!quanta) {
    *error = "the quanta are 0 to 65535 (0xffff), not '" + std::string(q) +
             "'";
    return std::nullopt;
  }
  return PriorityQuanta{static_cast<uint8_t>(*priority),
                        static_cast<uint16_t>(*quanta)};
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
  return "Usage: pfc_inject -i IFACE [--prio P=QUANTA ...] [--xon P ...] "
         "[OPTIONS]\n"
         "Send IEEE 802.1Qbb PFC frames through an AF_PACKET raw socket; "
         "needs CAP_NET_RAW.\n"
         "The frame goes to 01:80:c2:00:00:01 with EtherType 0x8808 and "
         "opcode 0x0101, padded\nwith zeros to 60 bytes (no FCS).\n"
         "\n"
         "  -i, --interface IFACE  the interface to send on\n"
         "  --src-mac MAC      source MAC (default: the interface's)\n"
         "  --prio P=QUANTA    pause priority P (0-7) for QUANTA (0-65535) "
         "quanta of 512 bit\n"
         "                     times: sets bit P of the enable vector and "
         "time[P]; repeatable\n"
         "  --xon P            the same as --prio P=0: resume priority P\n"
         "  --opcode N         MAC Control opcode instead of 0x0101 (0x0001 "
         "is 802.3x PAUSE)\n"
         "  --ethertype N      EtherType instead of 0x8808\n"
         "  --truncate LEN     send only the first LEN bytes (14 to 60)\n"
         "  --reserved-bits    set the reserved high byte of the enable "
         "vector to 0xff\n"
         "  --raw-hex HEX      send HEX (e.g. \"0180c2000001 ...\") as the "
         "whole frame instead\n"
         "  --count N          frames to send (default 1)\n"
         "  --interval-us U    microseconds from one frame to the next "
         "(default 0); a fixed\n"
         "                     period, so a refresh loop keeps its rate; "
         "frames of a loop\n"
         "                     the stack drops (ENOBUFS) are counted, not "
         "fatal\n"
         "  --dry-run          print the frame in hex instead of sending it "
         "(no -i needed\n"
         "                     with --src-mac)\n"
         "  -h, --help         this text\n"
         "\n"
         "Numbers are decimal or 0x hex.  Without --prio and --xon the frame "
         "enables no\npriority.  time[n] of priorities not given is zero.\n"
         "\n"
         "Examples:\n"
         "  pfc_inject -i veth0 --prio 3=65535\n"
         "  pfc_inject -i veth0 --prio 3=0xffff --count 100 --interval-us "
         "1000   # hold priority 3\n"
         "  pfc_inject -i veth0 --xon 3\n"
         "  pfc_inject -i veth0 --prio 3=100 --reserved-bits --truncate 20\n"
         "  pfc_inject --src-mac 02:00:00:00:00:01 --prio 3=65535 --dry-run\n"
         "\n"
         "Prints \"sent N frames of M bytes on IFACE: ...\" with the fields "
         "sent.\n"
         "Exit status: 0 sent, 1 interface, socket or send error, 2 bad "
         "command line.\n";
}

}  // namespace rue::pfc_inject
