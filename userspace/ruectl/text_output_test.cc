// SPDX-License-Identifier: GPL-2.0
#include "ruectl/text_output.h"

#include <gtest/gtest.h>

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

TEST(TextOutputTest, NothingForNoRecords) {
  EXPECT_EQ(RenderText({}, false), "");
}

}  // namespace
}  // namespace rue::cli
