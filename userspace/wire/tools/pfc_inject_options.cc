// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// CLI11.  Options are long (but -i and -h): the tool is driven by scripts,
// which read better spelled out.  Values are checked by CLI11 validators,
// exclusions by CLI11; --prio and --xon, which repeat, one by one as they
// come; what depends on --dry-run after the parse.
#include "tools/pfc_inject_options.h"

#include <net/if.h>

#include <utility>

#include "tools/cli_getopt.h"
#include "tools/cli_leftovers.h"
#include "tools/cli_synopsis.h"
#include "tools/inject_cli.h"
#include "tools/inject_common.h"

namespace rue::pfc_inject {
namespace {

using inject::NumberUpTo;
using inject::ParseNumber;

constexpr uint64_t kU16Max = 0xFFFF;
constexpr uint64_t kU32Max = 0xFFFFFFFF;
constexpr uint64_t kMaxPriority = wire::kPfcPriorities - 1;

constexpr char kSynopsis[] =
    "pfc_inject -i IFACE [--prio P=QUANTA ...] [--xon P ...] [OPTIONS]\n"
    "Send IEEE 802.1Qbb PFC frames through an AF_PACKET raw socket; needs "
    "CAP_NET_RAW.\n"
    "The frame goes to 01:80:c2:00:00:01 with EtherType 0x8808 and opcode "
    "0x0101, padded\n"
    "with zeros to 60 bytes (no FCS).";

constexpr char kFooter[] =
    "Numbers are decimal or 0x hex.  Without --prio and --xon the frame "
    "enables no\n"
    "priority.  time[n] of priorities not given is zero.\n"
    "\n"
    "Examples:\n"
    "  pfc_inject -i veth0 --prio 3=65535\n"
    "  pfc_inject -i veth0 --prio 3=0xffff --count 100 --interval-us 1000   "
    "# hold priority 3\n"
    "  pfc_inject -i veth0 --xon 3\n"
    "  pfc_inject -i veth0 --prio 3=100 --reserved-bits --truncate 20\n"
    "  pfc_inject --src-mac 02:00:00:00:00:01 --prio 3=65535 --dry-run\n"
    "  pfc_inject -i veth0 --fuzz 7 --count 2000 --receiver-mac "
    "02:00:00:00:00:02 --receiver-pfc 0x28\n"
    "\n"
    "Prints \"sent N frames of M bytes on IFACE: ...\" with the fields "
    "sent; with --fuzz\n"
    "also \"expect malformed=N ignored=N pause=P0,...,P7\": what the "
    "receiver should\n"
    "count (rx_pfc_malformed, rx_pfc_ignored, rx_prioN_pause) for the frames "
    "that left.\n"

    "Exit status: 0 sent, 1 interface, socket or send error, 2 bad command "
    "line.";

CLI::Validator InterfaceName() {
  return CLI::Validator([](std::string& name) -> std::string {
    if (!name.empty() && name.size() < IFNAMSIZ) return "";
    return "want an interface name of 1 to " + std::to_string(IFNAMSIZ - 1) +
           " characters, not '" + name + "'";
  }, "");
}

CLI::Validator Mac() {
  return CLI::Validator([](std::string& text) -> std::string {
    if (ParseMac(text)) return "";
    return "want a MAC address such as 02:00:00:00:00:01, not '" + text + "'";
  }, "");
}

CLI::Validator TruncateLength() {
  return CLI::Validator([](std::string& text) -> std::string {
    const std::optional<uint64_t> n = ParseNumber(text, wire::PfcFrame::kSize);
    if (!n || *n < kMinSendSize) {
      return "want " + std::to_string(kMinSendSize) + " to " +
             std::to_string(wire::PfcFrame::kSize) +
             " bytes (at least an Ethernet header, at most the frame), "
             "not '" + text + "'";
    }
    text = std::to_string(*n);
    return "";
  }, "");
}

// After inject::HexBytes().
CLI::Validator FrameSize() {
  return CLI::Validator([](std::string& text) -> std::string {
    const std::size_t size = inject::ParseHex(text)->size();
    if (size >= kMinSendSize) return "";
    return std::to_string(size) + " bytes, fewer than an Ethernet header (" +
           std::to_string(kMinSendSize) + "), which AF_PACKET needs";
  }, "");
}

// One priority's entry from `option value`, refusing a second one for the
// same priority.  The message names the value, for the option repeats.
void SetQuanta(Options* o, const std::string& given, PriorityQuanta pq) {
  std::optional<uint16_t>& slot = o->quanta[pq.priority];
  if (slot) {
    throw CLI::ValidationError(given, "priority " +
                                          std::to_string(pq.priority) +
                                          " is already given");
  }
  slot = pq.quanta;
}

// --prio and --xon, each value as it comes (trigger_on_parse), so that a
// repeated one is seen at all and a clash names the later of the two.
void AddPriorities(CLI::App* app, Options* o, const std::string& group) {
  auto prio = [o](const std::string& text) {
    std::string why;
    const std::optional<PriorityQuanta> pq = ParsePriorityQuanta(text, &why);
    if (!pq) throw CLI::ValidationError("--prio " + text, why);
    SetQuanta(o, "--prio " + text, *pq);
  };
  app->add_option_function<std::string>(
         "--prio", prio,
         "pause priority P (0-7) for QUANTA (0-65535) quanta of 512 bit "
         "times: sets bit P of the enable vector and time[P]; repeatable")
      ->trigger_on_parse()
      ->type_name("P=QUANTA")
      ->group(group);
  auto xon = [o](const std::string& text) {
    const std::optional<uint64_t> p = ParseNumber(text, kMaxPriority);
    if (!p) {
      throw CLI::ValidationError(
          "--xon", "want a priority from 0 to 7, not '" + text + "'");
    }
    SetQuanta(o, "--xon " + text, {static_cast<uint8_t>(*p), 0});
  };
  app->add_option_function<std::string>(
         "--xon", xon, "the same as --prio P=0: resume priority P")
      ->trigger_on_parse()
      ->type_name("P")
      ->group(group);
}

// The malformations a built frame can have; the options of this group
// and --src-mac shape a built frame, so exclude --raw-hex.
void AddMalformations(CLI::App* app, Options* o, const std::string& group) {
  app->add_option("--opcode", o->opcode,
                  "MAC Control opcode instead of 0x0101 (0x0001 is 802.3x "
                  "PAUSE)")
      ->transform(NumberUpTo(kU16Max))
      ->type_name("N")
      ->group(group);
  app->add_option("--ethertype", o->ethertype, "EtherType instead of 0x8808")
      ->transform(NumberUpTo(kU16Max))
      ->type_name("N")
      ->group(group);
  app->add_option("--truncate", o->truncate,
                  "send only the first LEN bytes (14 to 60)")
      ->transform(TruncateLength())
      ->type_name("LEN")
      ->group(group);
  app->add_flag("--reserved-bits", o->reserved_bits,
                "set the reserved high byte of the enable vector to 0xff")
      ->group(group);
}

CLI::Option* AddRawHex(CLI::App* app, Options* o, const std::string& group) {
  return app
      ->add_option_function<std::string>(
          "--raw-hex",
          [o](const std::string& text) { o->raw_hex = inject::ParseHex(text); },
          "send HEX (e.g. \"0180c2000001 ...\") as the whole frame instead")
      ->check(inject::HexBytes())
      ->check(FrameSize())
      ->type_name("HEX")
      ->group(group);
}

void AddSending(CLI::App* app, Options* o, const std::string& group) {
  app->add_option("--count", o->count, "frames to send (default 1)")
      ->transform(NumberUpTo(kU32Max))
      ->check(inject::AtLeastOne("frame"))
      ->type_name("N")
      ->group(group);
  app->add_option("--interval-us", o->interval_us,
                  "microseconds from one frame to the next (default 0); a "
                  "fixed period, so a refresh loop keeps its rate; frames of "
                  "a loop the stack drops (ENOBUFS) are counted, not fatal")
      ->transform(NumberUpTo(kU32Max))
      ->type_name("U")
      ->group(group);
  app->add_flag("--dry-run", o->dry_run,
                "print the frame in hex instead of sending it (no -i needed "
                "with --src-mac)")
      ->group(group);
}

void AddFuzzing(CLI::App* app, Options* o, const std::string& group) {
  app->add_option("--fuzz", o->fuzz_seed,
                  "send --count random frames from this seed instead (any "
                  "destination, opcode, vector, times and length, EtherType "
                  "0x8808), then what the receiver should count for them")
      ->transform(NumberUpTo(UINT64_MAX))
      ->type_name("SEED")
      ->group(group);
  app->add_option_function<std::string>(
         "--receiver-mac",
         [o](const std::string& text) { o->receiver_mac = ParseMac(text); },
         "the receiver's MAC: some random frames go to it (required with "
         "--fuzz)")
      ->check(Mac())
      ->type_name("MAC")
      ->group(group);
  app->add_option("--receiver-pfc", o->receiver_pfc,
                  "the priorities the receiver has PFC on for, a mask "
                  "(default 0)")
      ->transform(NumberUpTo(0xFF))
      ->type_name("MASK")
      ->group(group);
}

void Describe(CLI::App* app, Options* o) {
  cli11::SetSynopsis(app, kSynopsis);
  app->footer(kFooter);
  cli11::LikeGetopt(app);  // unknown words: Check() reports them

  const std::string frame = "Frame";
  app->add_option("-i,--interface", o->interface,
                  "the interface to send on")
      ->check(InterfaceName())
      ->type_name("IFACE")
      ->group(frame);
  app->add_option_function<std::string>(
         "--src-mac",
         [o](const std::string& text) { o->src_mac = ParseMac(text); },
         "source MAC (default: the interface's)")
      ->check(Mac())
      ->type_name("MAC")
      ->group(frame);
  AddPriorities(app, o, frame);
  AddMalformations(app, o, "Malformations");
  CLI::Option* raw = AddRawHex(app, o, "Malformations");
  for (const char* built : {"--src-mac", "--prio", "--xon", "--opcode",
                            "--ethertype", "--truncate", "--reserved-bits"}) {
    app->get_option(built)->excludes(raw);
  }
  AddSending(app, o, "Sending");
  AddFuzzing(app, o, "Fuzzing");
  CLI::Option* fuzz = app->get_option("--fuzz");
  for (const char* built : {"--prio", "--xon", "--opcode", "--ethertype",
                            "--truncate", "--reserved-bits", "--raw-hex"}) {
    app->get_option(built)->excludes(fuzz);
  }
  for (const char* needs : {"--receiver-mac", "--receiver-pfc"})
    app->get_option(needs)->needs(fuzz);
}


// What CLI11 let through: words it did not know, and the rules on -i that
// depend on --dry-run.
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
  if (o.fuzz_seed && !o.receiver_mac) {
    *error = "--fuzz needs --receiver-mac";
    return false;
  }
  if (!o.interface.empty()) return true;
  if (!o.dry_run) {
    *error = "-i is required";
    return false;
  }
  if (!o.src_mac && !o.raw_hex) {
    *error = "--dry-run without -i needs --src-mac (or --raw-hex)";
    return false;
  }
  return true;
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
  Options o;
  CLI::App app("", "pfc_inject");
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
  CLI::App app("", "pfc_inject");
  Describe(&app, &o);
  return app.help();
}

}  // namespace rue::pfc_inject
