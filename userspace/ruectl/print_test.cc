// SPDX-License-Identifier: GPL-2.0
//
// The one print path: text, JSON, and the global options choosing.
#include "ruectl/print.h"

#include <gtest/gtest.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace rue::cli {
namespace {

// Text.

namespace text {


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

}  // namespace text

// JSON.

namespace json {


struct Item {
  uint64_t id;
  std::string name;
  std::vector<uint64_t> parts;
};

constexpr Field<uint64_t> kPartFields[] = {
    {"part", Text::kName, Level::kBrief,
     [](const uint64_t& p) { return Value(p); }},
};

constexpr Field<Item> kItemFields[] = {
    {"id", Text::kName, Level::kBrief,
     [](const Item& i) { return Value(i.id); }},
    {"name", Text::kKeyValue, Level::kDetail,
     [](const Item& i) { return Value(i.name); }},
    {"parts", Text::kKeyValue, Level::kBrief,
     [](const Item& i) {
       return Value(MakeList<uint64_t>(i.parts, kPartFields));
     }},
};

std::vector<Record> Items(std::string name = "x") {
  Item item{1, std::move(name), {5, 6}};
  return {MakeRecord(item, kItemFields)};
}

TEST(JsonOutputTest, CompactKeepsFieldOrder) {
  EXPECT_EQ(
      RenderJson(Items(), true, false),
      "[{\"id\":1,\"name\":\"x\",\"parts\":[{\"part\":5},{\"part\":6}]}]\n");
}

TEST(JsonOutputTest, DetailFieldsNeedDetails) {
  EXPECT_EQ(RenderJson(Items(), false, false),
            "[{\"id\":1,\"parts\":[{\"part\":5},{\"part\":6}]}]\n");
}

TEST(JsonOutputTest, PrettyIndentsByFour) {
  EXPECT_EQ(RenderJson(Items(), false, true),
            "[\n"
            "    {\n"
            "        \"id\": 1,\n"
            "        \"parts\": [\n"
            "            {\n"
            "                \"part\": 5\n"
            "            },\n"
            "            {\n"
            "                \"part\": 6\n"
            "            }\n"
            "        ]\n"
            "    }\n"
            "]\n");
}

struct Knob {
  std::optional<uint64_t> level;
  bool on;
  std::vector<uint64_t> set;
  std::vector<std::string> words;
};

constexpr Field<Knob> kKnobFields[] = {
    {"level", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) { return k.level ? Value(*k.level) : Value(Absent{}); }},
    {"on", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) {
       return Value(Flag{k.on, "text only"});
     }},
    {"set", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) {
       return Value(Numbers{k.set, "text only"});
     }},
    {"words", Text::kKeyValue, Level::kBrief,
     [](const Knob& k) {
       return Value(Words{k.words, "text only"});
     }},
};

std::string KnobJson(const Knob& knob) {
  Record record = MakeRecord(knob, kKnobFields);
  return RenderJson(std::span(&record, 1), false, false);
}

TEST(JsonOutputTest, FlagsAreBooleansNumbersAndWordsAreArrays) {
  EXPECT_EQ(KnobJson({0, true, {3, 5}, {"a", "b\""}}),
            "[{\"level\":0,\"on\":true,\"set\":[3,5],"
            "\"words\":[\"a\",\"b\\\"\"]}]\n");
  EXPECT_EQ(KnobJson({9, false, {}, {}}),
            "[{\"level\":9,\"on\":false,\"set\":[],\"words\":[]}]\n");
}

TEST(JsonOutputTest, AbsentFieldsAreLeftOut) {
  EXPECT_EQ(KnobJson({std::nullopt, true, {}, {}}),
            "[{\"on\":true,\"set\":[],\"words\":[]}]\n");
}

TEST(JsonOutputTest, EmptyArrayForNoRecords) {
  EXPECT_EQ(RenderJson({}, false, false), "[]\n");
}

TEST(JsonOutputTest, EscapesAndSurvivesBadUtf8) {
  EXPECT_EQ(RenderJson(Items("a\"b"), true, false),
            "[{\"id\":1,\"name\":\"a\\\"b\",\"parts\":[{\"part\":5},{\"part\":"
            "6}]}]\n");
  std::string out = RenderJson(Items("\xff"), true, false);
  EXPECT_NE(out.find("\"name\":\"\xef\xbf\xbd\""), std::string::npos);
}

}  // namespace json

// Print().

namespace print {


struct Thing {
  uint64_t n;
};

constexpr Field<Thing> kFields[] = {
    {"n", Text::kKeyValue, Level::kBrief,
     [](const Thing& t) { return Value(t.n); }},
    {"twice", Text::kKeyValue, Level::kDetail,
     [](const Thing& t) { return Value(2 * t.n); }},
};

std::string Printed(const Options& options) {
  Record record = MakeRecord(Thing{3}, kFields);
  std::ostringstream out;
  Print(out, std::span(&record, 1), options);
  return out.str();
}

TEST(PrintTest, TextByDefault) { EXPECT_EQ(Printed({}), "n 3\n"); }

TEST(PrintTest, DetailsInText) {
  EXPECT_EQ(Printed({.details = true}), "n 3 twice 6\n");
}

TEST(PrintTest, Json) { EXPECT_EQ(Printed({.json = true}), "[{\"n\":3}]\n"); }

TEST(PrintTest, PrettyJsonWithDetails) {
  EXPECT_EQ(Printed({.json = true, .pretty = true, .details = true}),
            "[\n    {\n        \"n\": 3,\n        \"twice\": 6\n    }\n]\n");
}

TEST(PrintTest, PrettyAloneKeepsText) {
  EXPECT_EQ(Printed({.pretty = true}), "n 3\n");
}

}  // namespace print

// GIDs.

std::array<uint8_t, 16> Gid(std::initializer_list<uint16_t> words) {
  std::array<uint8_t, 16> gid{};
  size_t i = 0;
  for (uint16_t w : words) {
    gid[i++] = w >> 8;
    gid[i++] = w & 0xff;
  }
  return gid;
}

TEST(NamesTest, GidCompressesLongestZeroRun) {
  EXPECT_EQ(FormatGid(Gid({0xfe80, 0, 0, 0, 0x5054, 0xff, 0xfe12, 0x3456})),
            "fe80::5054:ff:fe12:3456");
  EXPECT_EQ(FormatGid(Gid({})), "::");
  EXPECT_EQ(FormatGid(Gid({0, 0, 0, 0, 0, 0, 0, 1})), "::1");
  EXPECT_EQ(FormatGid(Gid({1, 0, 0, 0, 0, 0, 0, 0})), "1::");
  EXPECT_EQ(FormatGid(Gid({1, 0, 0, 2, 0, 0, 0, 3})), "1:0:0:2::3");
  EXPECT_EQ(FormatGid(Gid({1, 0, 0, 2, 0, 0, 3, 4})), "1::2:0:0:3:4");
}

TEST(NamesTest, GidDoesNotCompressOneZero) {
  EXPECT_EQ(FormatGid(Gid({0x2001, 0xdb8, 0, 1, 1, 1, 1, 1})),
            "2001:db8:0:1:1:1:1:1");
  EXPECT_EQ(FormatGid(Gid({0x2001, 0xdb8, 1, 2, 3, 4, 5, 6})),
            "2001:db8:1:2:3:4:5:6");
}

TEST(NamesTest, GidIpv4Mapped) {
  EXPECT_EQ(FormatGid(Gid({0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201})),
            "::ffff:192.0.2.1");
  // Only ::ffff:0:0/96 is written with a dotted quad.
  EXPECT_EQ(FormatGid(Gid({0, 0, 0, 0, 0, 0, 0xc000, 0x0201})), "::c000:201");
}

}  // namespace
}  // namespace rue::cli
