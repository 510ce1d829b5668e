// SPDX-License-Identifier: GPL-2.0
#include "ruectl/text_output.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace rue::cli {
namespace {

struct Port {
  uint64_t number;
  std::string state;
};

struct Box {
  uint64_t id;
  std::string name;
  uint64_t secret;
  std::vector<Port> ports;
};

constexpr Field<Port> kPortFields[] = {
    {"port", Text::kName, Level::kBrief,
     [](const Port& p) { return Value(p.number); }},
    {"state", Text::kKeyValue, Level::kBrief,
     [](const Port& p) { return Value(p.state); }},
};

constexpr Field<Box> kBoxFields[] = {
    {"id", Text::kName, Level::kBrief,
     [](const Box& b) { return Value(b.id); }},
    {"name", Text::kKeyValue, Level::kBrief,
     [](const Box& b) { return Value(b.name); }},
    {"secret", Text::kKeyValue, Level::kDetail,
     [](const Box& b) { return Value(b.secret); }},
    {"ports", Text::kKeyValue, Level::kBrief,
     [](const Box& b) { return Value(MakeList<Port>(b.ports, kPortFields)); }},
};

std::vector<Record> Boxes() {
  std::vector<Box> boxes = {{7, "a", 42, {{1, "up"}, {2, "down"}}},
                            {8, "b", 43, {}}};
  std::vector<Record> records;
  for (const Box& b : boxes) records.push_back(MakeRecord(b, kBoxFields));
  return records;
}

TEST(TextOutputTest, OneLinePerRecordListsIndented) {
  EXPECT_EQ(RenderText(Boxes(), false),
            "7: name a\n"
            "    1: state up\n"
            "    2: state down\n"
            "8: name b\n");
}

TEST(TextOutputTest, DetailsAddDetailFields) {
  EXPECT_EQ(RenderText(Boxes(), true),
            "7: name a secret 42\n"
            "    1: state up\n"
            "    2: state down\n"
            "8: name b secret 43\n");
}

struct Knob {
  uint64_t id;
  std::optional<uint64_t> low;
  std::optional<uint64_t> high;
  bool on;
  std::vector<uint64_t> set;
};

Value Maybe(const std::optional<uint64_t>& n) {
  if (!n) return Absent{};
  return *n;
}

constexpr Field<Knob> kKnobFields[] = {
    {"id", Text::kName, Level::kBrief,
     [](const Knob& k) { return Value(k.id); }},
    {"low", Text::kLine, Level::kBrief,
     [](const Knob& k) { return Maybe(k.low); }},
    {"high", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) { return Maybe(k.high); }},
    {"on", Text::kLine, Level::kBrief,
     [](const Knob& k) {
       return Value(Flag{k.on, k.on ? "yes" : "no"});
     }},
    {"set", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) {
       return Value(Numbers{k.set, "1-3"});
     }},
    {"words", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) {
       return Value(Words{{"a", "b"}, k.on ? "a,b" : "b,a"});
     }},
    {"secret", Text::kLine, Level::kDetail,
     [](const Knob& k) { return Value(k.id * 2); }},
};

std::string KnobText(const Knob& knob, bool details) {
  Record record = MakeRecord(knob, kKnobFields);
  return RenderText(std::span(&record, 1), details);
}

TEST(TextOutputTest, LineFieldsStartIndentedLines) {
  EXPECT_EQ(KnobText({7, 1, 2, true, {1, 2, 3}}, false),
            "7:\n"
            "    low 1 high 2\n"
            "    on yes set 1-3 words a,b\n");
  EXPECT_EQ(KnobText({7, 1, 2, false, {}}, true),
            "7:\n"
            "    low 1 high 2\n"
            "    on no set 1-3 words b,a\n"
            "    secret 14\n");
}

TEST(TextOutputTest, AbsentFieldsAreLeftOut) {
  EXPECT_EQ(KnobText({7, std::nullopt, 2, true, {}}, false),
            "7:\n"
            "    high 2\n"
            "    on yes set 1-3 words a,b\n");
  // No empty line where a whole line is absent.
  EXPECT_EQ(KnobText({7, std::nullopt, std::nullopt, true, {}}, false),
            "7:\n"
            "    on yes set 1-3 words a,b\n");
}

TEST(TextOutputTest, LinesThenLists) {
  constexpr Field<Box> kFields[] = {
      {"id", Text::kName, Level::kBrief,
       [](const Box& b) { return Value(b.id); }},
      {"name", Text::kLine, Level::kBrief,
       [](const Box& b) { return Value(b.name); }},
      {"ports", Text::kKeyValue, Level::kBrief,
       [](const Box& b) {
         return Value(MakeList<Port>(b.ports, kPortFields));
       }},
  };
  Box box{7, "a", 0, {{1, "up"}}};
  Record record = MakeRecord(box, kFields);
  EXPECT_EQ(RenderText(std::span(&record, 1), false),
            "7:\n"
            "    name a\n"
            "    1: state up\n");
}

TEST(TextOutputTest, NothingForNoRecords) {
  EXPECT_EQ(RenderText({}, false), "");
}

}  // namespace
}  // namespace rue::cli
