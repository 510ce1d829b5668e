// SPDX-License-Identifier: GPL-2.0
#include "ruectl/json_output.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
