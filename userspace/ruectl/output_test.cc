// SPDX-License-Identifier: GPL-2.0
#include "ruectl/output.h"

#include <gtest/gtest.h>

#include <sstream>

namespace rue::cli {
namespace {

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

}  // namespace
}  // namespace rue::cli
