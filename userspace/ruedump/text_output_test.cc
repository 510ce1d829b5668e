// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/text_output.h"

#include <gtest/gtest.h>

namespace rue::dump {
namespace {

// Every style, brief and detail, titled and untitled sections.
Record Sample() {
  Record r;
  r.sections.push_back(Section{
      "",
      "Top",
      false,
      {Cell{"bare", "bare", Style::kBare, Level::kBrief, Text("B")},
       Cell{"hidden", "hidden", Style::kLabel, Level::kDetail, Number(9)}}});
  r.sections.push_back(
      Section{"hdr",
              "HDR",
              true,
              {Cell{"long-key", "lk", Style::kLabel, Level::kBrief, Hex(0x1a)},
               Cell{"assign", "a", Style::kAssign, Level::kBrief, Number(3)},
               Cell{"on", "on", Style::kFlag, Level::kBrief, Bool(true)},
               Cell{"off", "off", Style::kFlag, Level::kBrief, Bool(false)},
               Cell{"paren", "p", Style::kParen, Level::kBrief, Hex(5, 4)}}});
  r.sections.push_back(
      Section{"quiet",
              "QUIET",
              true,
              {Cell{"d", "d", Style::kLabel, Level::kDetail, Number(1)}}});
  r.sections.push_back(Section{"empty", "EMPTY", true, {}});
  return r;
}

TEST(TextOutputTest, LineShowsBriefCellsInTheirStyles) {
  EXPECT_EQ(RenderLine(Sample()), "B HDR lk 0x1a a=3 on (p 0x0005)\n");
}

TEST(TextOutputTest, LineOfNothing) { EXPECT_EQ(RenderLine(Record{}), "\n"); }

TEST(TextOutputTest, VerboseListsEveryCellUnderItsTitle) {
  EXPECT_EQ(RenderVerbose(Sample()),
            "B HDR lk 0x1a a=3 on (p 0x0005)\n"
            "  Top\n"
            "    bare      B\n"
            "    hidden    9\n"
            "  HDR\n"
            "    long-key  0x1a\n"
            "    assign    3\n"
            "    on        1\n"
            "    off       0\n"
            "    paren     0x0005\n"
            "  QUIET\n"
            "    d         1\n");
}

}  // namespace
}  // namespace rue::dump
