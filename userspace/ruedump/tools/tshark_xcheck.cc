// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Cross-checks ruedump against an independent decoder: for every RoCEv2
// packet of a capture, the BTH and extension header fields ruedump prints
// (-j -v) must equal those of tshark's infiniband dissector, and the ICRC
// trailer must be the same 4 bytes.
//
//   tshark_xcheck RUEDUMP CAPTURE
//
// Exit status 0 if every packet agrees, 1 otherwise (or on any error).

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

constexpr std::array kFields = {
    "infiniband.bth.opcode",     "infiniband.bth.destqp",
    "infiniband.bth.psn",        "infiniband.bth.a",
    "infiniband.bth.se",         "infiniband.bth.padcnt",
    "infiniband.bth.p_key",      "infiniband.reth.va",
    "infiniband.reth.r_key",     "infiniband.reth.dmalen",
    "infiniband.aeth.syndrome",  "infiniband.aeth.msn",
    "infiniband.deth.q_key",     "infiniband.deth.srcqp",
    "infiniband.atomiceth.swapdt", "infiniband.atomiceth.cmpdt",
    "infiniband.atomicacketh.origremdt", "infiniband.invariant.crc",
};
enum Field : size_t {
  kOpcode, kDestQp, kPsn, kAckReq, kSe, kPad, kPkey, kRethVa, kRethRkey,
  kRethLen, kAethSyndrome, kAethMsn, kDethQkey, kDethSrcQp, kSwapAdd,
  kCompare, kOrigData, kIcrc,
};

std::string Quote(std::string_view s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

// Runs a shell command; its standard output, or nothing if it failed.
std::optional<std::vector<std::string>> Lines(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return std::nullopt;
  std::vector<std::string> lines;
  std::string cur;
  int c;
  while ((c = fgetc(p)) != EOF) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += static_cast<char>(c);
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  if (pclose(p) != 0) return std::nullopt;
  return lines;
}

std::vector<std::string> Split(const std::string& line, char sep) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == sep)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// A number as either tool prints it: decimal or 0x-prefixed hex.
std::optional<uint64_t> Number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    size_t used = 0;
    uint64_t v = std::stoull(text, &used, text.rfind("0x", 0) == 0 ? 16 : 10);
    if (used != text.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<uint64_t> Number(const nlohmann::json& j) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_boolean()) return j.get<bool>() ? 1 : 0;
  if (j.is_string()) return Number(j.get<std::string>());
  return std::nullopt;
}

uint64_t Flag(const std::string& text) {
  return text == "1" || text == "True" ? 1 : 0;
}

struct Comparison {
  const char* name;
  std::optional<uint64_t> theirs;
  std::optional<uint64_t> ours;
};

std::vector<Comparison> Compare(const std::vector<std::string>& t,
                                const nlohmann::json& r) {
  std::vector<Comparison> out;
  const auto& bth = r.at("bth");
  auto field = [&](const nlohmann::json& obj, const char* key) {
    return obj.contains(key) ? Number(obj.at(key)) : std::nullopt;
  };
  out.push_back({"opcode", Number(t[kOpcode]), field(bth, "opcode-value")});
  out.push_back({"dest-qp", Number(t[kDestQp]), field(bth, "dest-qp")});
  out.push_back({"psn", Number(t[kPsn]), field(bth, "psn")});
  out.push_back({"ack-req", Flag(t[kAckReq]), field(bth, "ack-req")});
  out.push_back({"se", Flag(t[kSe]), field(bth, "se")});
  out.push_back({"pad-count", Number(t[kPad]), field(bth, "pad-count")});
  out.push_back({"pkey", Number(t[kPkey]), field(bth, "pkey")});
  if (r.contains("reth")) {
    const auto& e = r.at("reth");
    out.push_back({"reth.va", Number(t[kRethVa]), field(e, "va")});
    out.push_back({"reth.rkey", Number(t[kRethRkey]), field(e, "rkey")});
    out.push_back({"reth.len", Number(t[kRethLen]), field(e, "dma-length")});
  }
  if (r.contains("aeth")) {
    const auto& e = r.at("aeth");
    out.push_back({"aeth.syndrome", Number(t[kAethSyndrome]),
                   field(e, "syndrome")});
    out.push_back({"aeth.msn", Number(t[kAethMsn]), field(e, "msn")});
  }
  if (r.contains("deth")) {
    const auto& e = r.at("deth");
    out.push_back({"deth.qkey", Number(t[kDethQkey]), field(e, "qkey")});
    out.push_back({"deth.src-qp", Number(t[kDethSrcQp]), field(e, "src-qp")});
  }
  if (r.contains("atomic-eth")) {
    const auto& e = r.at("atomic-eth");
    out.push_back({"swap-add", Number(t[kSwapAdd]), field(e, "swap-add")});
    out.push_back({"compare", Number(t[kCompare]), field(e, "compare")});
  }
  if (r.contains("atomic-ack-eth")) {
    out.push_back({"original-data", Number(t[kOrigData]),
                   field(r.at("atomic-ack-eth"), "original-data")});
  }
  if (!t[kIcrc].empty()) {
    // tshark shows the trailer bytes as a big-endian number; ruedump
    // reads them least significant byte first (like rxe, scapy, NICs).
    std::optional<uint64_t> sent = Number(t[kIcrc]);
    if (sent) sent = __builtin_bswap32(static_cast<uint32_t>(*sent));
    out.push_back({"icrc", sent, field(r, "icrc")});
  }
  return out;
}

std::string Show(const std::optional<uint64_t>& v) {
  return v ? std::to_string(*v) : std::string("(none)");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: tshark_xcheck RUEDUMP CAPTURE\n");
    return 1;
  }
  const std::string ruedump = argv[1], capture = argv[2];

  std::string cmd = "tshark -r " + Quote(capture) +
                    " -d udp.port==4791,infiniband -T fields -E separator=/t";
  for (const char* f : kFields) cmd += std::string(" -e ") + f;
  auto theirs = Lines(cmd + " 2>/dev/null");
  auto ours = Lines(Quote(ruedump) + " -jv -F roce " + Quote(capture));
  if (!theirs || !ours) {
    std::fprintf(stderr, "tshark or ruedump failed on %s\n", capture.c_str());
    return 1;
  }
  if (theirs->size() != ours->size()) {
    std::printf("tshark shows %zu packets, ruedump %zu\n", theirs->size(),
                ours->size());
    return 1;
  }

  size_t differ = 0;
  for (size_t i = 0; i < ours->size(); i++) {
    std::vector<std::string> t = Split((*theirs)[i], '\t');
    t.resize(kFields.size());
    nlohmann::json r = nlohmann::json::parse((*ours)[i], nullptr, false);
    if (r.is_discarded() || !r.contains("bth")) {
      std::printf("packet %zu: ruedump printed no BTH: %s\n", i + 1,
                  (*ours)[i].c_str());
      differ++;
      continue;
    }
    bool bad = false;
    for (const Comparison& c : Compare(t, r)) {
      if (c.theirs && c.ours && *c.theirs == *c.ours) continue;
      std::printf("packet %zu: %s: tshark %s, ruedump %s\n", i + 1, c.name,
                  Show(c.theirs).c_str(), Show(c.ours).c_str());
      bad = true;
    }
    differ += bad;
  }
  std::printf("%zu packets compared with tshark, %zu differ\n", ours->size(),
              differ);
  return differ || ours->empty() ? 1 : 0;
}
