// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include "ruedump/json_output.h"

#include <gtest/gtest.h>

namespace rue::dump {
namespace {

Record Sample() {
  Record r;
  r.sections.push_back(Section{
      "",
      "Top",
      false,
      {Cell{"time", "time", Style::kBare, Level::kBrief,
            Seconds(1700000000, 123456)},
       Cell{"frame", "frame", Style::kLabel, Level::kDetail, Number(9)}}});
  r.sections.push_back(
      Section{"hdr",
              "HDR",
              true,
              {Cell{"hex-field", "hf", Style::kLabel, Level::kBrief, Hex(0x1a)},
               Cell{"number", "n", Style::kAssign, Level::kBrief, Number(3)},
               Cell{"flag", "f", Style::kFlag, Level::kBrief, Bool(false)},
               Cell{"verdict", "v", Style::kBare, Level::kBrief,
                    Bool(true, "ok", "BAD")},
               Cell{"text", "t", Style::kLabel, Level::kBrief, Text("a\"b")}}});
  r.sections.push_back(
      Section{"quiet",
              "QUIET",
              true,
              {Cell{"d", "d", Style::kLabel, Level::kDetail, Number(1)}}});
  r.sections.push_back(
      Section{"",
              "Bottom",
              false,
              {Cell{"last", "last", Style::kBare, Level::kBrief, Number(0)}}});
  return r;
}

TEST(JsonOutputTest, BriefNestsSectionsAndDropsEmptyOnes) {
  EXPECT_EQ(RenderJson(Sample(), false),
            R"({"time":1700000000.123456,"hdr":{"hex-field":"0x1a",)"
            R"("number":3,"flag":false,"verdict":true,"text":"a\"b"},)"
            R"("last":0})"
            "\n");
}

TEST(JsonOutputTest, VerboseAddsDetailCells) {
  EXPECT_EQ(RenderJson(Sample(), true),
            R"({"time":1700000000.123456,"frame":9,"hdr":{"hex-field":)"
            R"("0x1a","number":3,"flag":false,"verdict":true,"text":)"
            R"("a\"b"},"quiet":{"d":1},"last":0})"
            "\n");
}

TEST(JsonOutputTest, Hex) {
  EXPECT_EQ(RenderJson(Record{}, false, "00ff"), "{\"hex\":\"00ff\"}\n");
}

TEST(JsonOutputTest, TimestampsKeepTheirMicroseconds) {
  Record r;
  r.sections.push_back(Section{
      "",
      "",
      false,
      {Cell{"t1", "", Style::kBare, Level::kBrief, Seconds(1795341473, 87399)},
       Cell{"t2", "", Style::kBare, Level::kBrief, Seconds(1, 1)},
       Cell{"t3", "", Style::kBare, Level::kBrief, Seconds(0, 0)}}});
  EXPECT_EQ(RenderJson(r, false),
            "{\"t1\":1795341473.087399,\"t2\":1.000001,\"t3\":0.0}\n");
}

}  // namespace
}  // namespace rue::dump
