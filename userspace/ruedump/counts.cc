// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/counts.h"

namespace rue::dump {
namespace {

constexpr Field<Counts> kCountFields[] = {
    {"packets", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.packets); }},
    {"roce", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.roce); }},
    {"icrc-ok", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.icrc_ok); }},
    {"icrc-bad", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.icrc_bad); }},
    {"uet", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.uet); }},
    {"other", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.other); }},
    {"malformed", "", Style::kLabel, Level::kBrief,
     [](const Counts& c) { return Number(c.malformed); }},
};

}  // namespace

void Counts::Add(Verdict verdict) {
  ++packets;
  switch (verdict) {
    case Verdict::kOther:
      ++other;
      break;
    case Verdict::kRoceOk:
      ++roce;
      ++icrc_ok;
      break;
    case Verdict::kRoceBadIcrc:
      ++roce;
      ++icrc_bad;
      break;
    case Verdict::kUet:
      ++uet;
      break;
    case Verdict::kMalformed:
      ++malformed;
      break;
  }
}

std::string SummaryText(const Counts& c) {
  using std::to_string;
  return to_string(c.packets) + " packets: " + to_string(c.roce) + " roce (" +
         to_string(c.icrc_ok) + " icrc ok, " + to_string(c.icrc_bad) +
         " bad), " + to_string(c.uet) + " uet, " + to_string(c.other) +
         " other, " + to_string(c.malformed) + " malformed\n";
}

Record SummaryRecord(const Counts& counts) {
  Record record;
  record.sections.push_back(
      MakeSection(counts, {"summary", "Summary", false}, kCountFields));
  return record;
}

}  // namespace rue::dump
