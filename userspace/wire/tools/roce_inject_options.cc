// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CLI11.  Every option is long only (but -h): the tool is driven by
// scripts, which read better spelled out.  Values are checked by CLI11
// validators, exclusions and requirements by CLI11, the one rule CLI11
// cannot say (--bad-icrc with --raw-hex) after the parse; what depends on
// the opcode's headers is checked where they are built.
#include "tools/roce_inject_options.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cctype>
#include <cstring>
#include <limits>

#include "rue/wire/roce_opcode.h"
#include "tools/cli_getopt.h"
#include "tools/cli_leftovers.h"
#include "tools/cli_synopsis.h"
#include "tools/inject_cli.h"

namespace rue::inject {
namespace {

constexpr uint64_t kU8Max = 0xFF;
constexpr uint64_t kU16Max = 0xFFFF;
constexpr uint64_t kU24Max = wire::kU24Mask;  // DestQP, PSN
constexpr uint64_t kU32Max = 0xFFFFFFFF;
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

constexpr char kSynopsis[] =
    "roce_inject --src A.B.C.D --dst A.B.C.D "
    "{--opcode OP | --raw-hex HEX [--icrc]} [OPTIONS]\n"
    "Send hand-made RoCEv2 packets (IPv4, UDP) through a raw socket; needs "
    "CAP_NET_RAW.\n"
    "IPv4 has DF set, ID 0 and TTL 64; the UDP checksum is 0; the ICRC is "
    "correct unless\n"
    "--bad-icrc, --truncate or --raw-hex say otherwise.";

constexpr char kFooter[] =
    "Numbers are decimal or 0x hex.  Other extension header fields are "
    "zero.\n"
    "\n"
    "Examples:\n"
    "  roce_inject --src 10.0.0.1 --dst 10.0.0.2 --opcode cnp --dest-qp "
    "0xd2\n"
    "  roce_inject --src 10.0.0.1 --dst 10.0.0.2 --opcode RC_SEND_ONLY "
    "--dest-qp 17 \\\n"
    "      --psn 5 --payload 64 --truncate 6\n"
    "  roce_inject --src 10.0.0.1 --dst 10.0.0.2 \\\n"
    "      --raw-hex \"04 00 ff ff 00 00 00 11 00 00 00 05\" --icrc\n"
    "\n"
    "Prints \"sent N packets of M bytes to DST\" (M: the IP packet).\n"
    "Exit status: 0 sent, 1 socket or send error, 2 bad command line.";

std::optional<wire::Ipv4Address> ParseAddress(const std::string& text) {
  in_addr in{};
  if (inet_pton(AF_INET, text.c_str(), &in) != 1) return std::nullopt;
  wire::Ipv4Address addr{};
  std::memcpy(addr.data(), &in.s_addr, addr.size());  // network order
  return addr;
}

CLI::Validator Address() {
  return CLI::Validator([](std::string& text) -> std::string {
    if (ParseAddress(text)) return "";
    return "want an IPv4 address A.B.C.D, not '" + text + "'";
  }, "");
}

// A name or a number, rewritten as the number.
CLI::Validator Opcode() {
  return CLI::Validator([](std::string& text) -> std::string {
    const std::optional<uint8_t> op = ParseOpcode(text);
    if (!op) {
      return "want a number up to 0xff or an opcode name such as "
             "RC_SEND_ONLY or cnp, not '" + text + "'";
    }
    text = std::to_string(*op);
    return "";
  }, "");
}

template <typename T>
CLI::Option* AddNumber(CLI::App* app, const std::string& name, T* value,
                       uint64_t max, const std::string& help) {
  return app->add_option(name, *value, help)
      ->transform(NumberUpTo(max))
      ->type_name("N");
}

CLI::Option* AddAddress(CLI::App* app, const std::string& name,
                        wire::Ipv4Address* addr, const std::string& help) {
  return app
      ->add_option_function<std::string>(
          name, [addr](const std::string& text) { *addr = *ParseAddress(text); },
          help)
      ->check(Address())
      ->type_name("A.B.C.D")
      ->required();
}

// --opcode or --raw-hex, exactly one; returns --raw-hex.
CLI::Option* AddPayloadChoice(CLI::App* app, Options* o) {
  CLI::Option_group* choice = app->add_option_group(
      "Packet", "a built packet, or bytes sent as they are");
  choice->add_option("--opcode", o->opcode,
                     "BTH opcode: a number (0x81) or a name (RC_SEND_ONLY, "
                     "cnp, ...)")
      ->transform(Opcode())
      ->type_name("OP");
  CLI::Option* raw = choice
      ->add_option_function<std::string>(
          "--raw-hex",
          [o](const std::string& text) { o->raw_hex = ParseHex(text); },
          "send HEX (e.g. \"81 00 ff ff\") as the UDP payload instead")
      ->check(HexBytes())
      ->type_name("HEX");
  choice->require_option(1);
  return raw;
}

// The options that shape a built packet, so mean nothing with --raw-hex.
void AddHeaderFields(CLI::App* app, Options* o, CLI::Option* raw) {
  const std::string group = "BTH and extension headers";
  CLI::Option* const fields[] = {
      AddNumber(app, "--dest-qp", &o->dest_qp, kU24Max,
                "BTH DestQP, 24 bits (default 0)"),
      AddNumber(app, "--psn", &o->psn, kU24Max, "BTH PSN, 24 bits (default 0)"),
      app->add_flag("--becn", o->becn,
                    "set the BTH BECN bit (a CNP always has it)"),
      AddNumber(app, "--pkey", &o->pkey, kU16Max, "BTH P_Key (default 0xffff)"),
      AddNumber(app, "--payload", &o->payload, kU16Max,
                "N payload bytes 00 01 02 ... (opcodes with a payload)"),
      AddNumber(app, "--va", &o->va, kU64Max,
                "RETH or AtomicETH virtual address (default 0)"),
      AddNumber(app, "--rkey", &o->rkey, kU32Max,
                "RETH, AtomicETH or IETH R_Key (default 0)"),
      AddNumber(app, "--len", &o->len, kU32Max,
                "RETH DMA length (default: the payload size)"),
  };
  for (CLI::Option* field : fields) field->group(group)->excludes(raw);
}

void Describe(CLI::App* app, Options* o) {
  cli11::SetSynopsis(app, kSynopsis);
  app->footer(kFooter);
  cli11::LikeGetopt(app);  // unknown words: Check() reports them

  const std::string ip = "IPv4 and UDP";
  AddAddress(app, "--src", &o->src, "IPv4 source address")->group(ip);
  AddAddress(app, "--dst", &o->dst, "IPv4 destination address")->group(ip);
  AddNumber(app, "--sport", &o->sport, kU16Max,
            "UDP source port (default 49152)")->group(ip);
  AddNumber(app, "--dport", &o->dport, kU16Max,
            "UDP destination port (default 4791)")->group(ip);
  AddNumber(app, "--tos", &o->tos, kU8Max,
            "IPv4 TOS byte: DSCP and ECN (default 0)")->group(ip);

  CLI::Option* raw = AddPayloadChoice(app, o);
  AddHeaderFields(app, o, raw);

  const std::string bad = "Malformations";
  AddNumber(app, "--truncate", &o->truncate, kU16Max,
            "drop N bytes from the end of the UDP payload; IP and UDP "
            "lengths follow, the ICRC is not recomputed")->group(bad);
  app->add_flag("--bad-icrc", o->bad_icrc,
                "send the ICRC with every bit flipped")->group(bad);
  app->add_flag("--icrc", o->icrc,
                "with --raw-hex: append the ICRC of the packet")
      ->needs(raw)
      ->group(bad);

  const std::string send = "Sending";
  AddNumber(app, "--count", &o->count, kU32Max,
            "packets to send (default 1)")
      ->check(AtLeastOne("packet"))
      ->group(send);
  AddNumber(app, "--interval-us", &o->interval_us, kU32Max,
            "microseconds between packets (default 0)")->group(send);
  app->add_flag("--dry-run", o->dry_run,
                "print the IP packet in hex instead of sending it")
      ->group(send);
}

// What CLI11 let through: words it did not know, and the one rule it
// cannot say.
bool Check(const CLI::App& app, const Options& o, std::string* error) {
  const cli11::Leftovers left = cli11::SortLeftovers(app.remaining());
  if (!left.options.empty()) {
    *error = "unknown option '" + left.options.front() + "'";
    return false;
  }
  if (!left.arguments.empty()) {
    *error = "unexpected argument '" + left.arguments.front() + "'";
    return false;
  }
  if (o.bad_icrc && o.raw_hex && !o.icrc) {
    *error = "--bad-icrc with --raw-hex needs --icrc";
    return false;
  }
  return true;
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
  Options o;
  CLI::App app("", "roce_inject");
  Describe(&app, &o);
  try {
    cli11::ParseLikeGetopt(&app, argc, argv);
  } catch (const CLI::CallForHelp&) {
    o.help = true;
    return o;
  } catch (const CLI::ParseError& e) {
    *error = e.what();
    return std::nullopt;
  }
  if (!Check(app, o, error)) return std::nullopt;
  return o;
}

std::string Usage() {
  Options o;
  CLI::App app("", "roce_inject");
  Describe(&app, &o);
  return app.help();
}

}  // namespace rue::inject
