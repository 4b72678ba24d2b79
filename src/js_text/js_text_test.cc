// JavaScript's text rules, each value as Node 20 prints it;
// differential_test.cc compares thousands more against /usr/bin/node.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/json.h"
#include "js_text/date.h"
#include "js_text/json.h"
#include "js_text/number.h"
#include "js_text/string.h"

namespace sbx::js {
namespace {

TEST(JsNumber, ToStringThresholds) {
  EXPECT_EQ(NumberToString(1e21), "1e+21");
  EXPECT_EQ(NumberToString(1e20), "100000000000000000000");
  EXPECT_EQ(NumberToString(1e-7), "1e-7");
  EXPECT_EQ(NumberToString(1.5e-6), "0.0000015");
  EXPECT_EQ(NumberToString(-0.0), "0");
  EXPECT_EQ(NumberToString(5e-324), "5e-324");
  EXPECT_EQ(NumberToString(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(JsJson, StringifyEscapesAsV8) {
  EXPECT_EQ(JsonQuote("a\xed\xa0\x80" "b\x7f\x01\xe2\x80\xa8"), "\"a\\ud800b\x7f\\u0001\xe2\x80\xa8\"");
  Json v = Json::parse(R"({"a":[1,2.5,{}],"b":[],"c":null})");
  EXPECT_EQ(Stringify(v), R"({"a":[1,2.5,{}],"b":[],"c":null})");
  EXPECT_EQ(Stringify(v, 12), Stringify(v, 10));
  EXPECT_EQ(Stringify(Json::parse("[1]"), 1), "[\n 1\n]");
  EXPECT_EQ(Stringify(Json(std::nan(""))), "null");
}

TEST(JsDate, IsoStrings) {
  EXPECT_EQ(ToIsoString(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(ToIsoString(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(ToIsoString(8640000000000000), "+275760-09-13T00:00:00.000Z");
  EXPECT_EQ(ToIsoString(-62198755200000), "-000001-01-01T00:00:00.000Z");
}

TEST(JsString, LowerCaseIsV8s) {
  EXPECT_EQ(ToLowerCase("ABC xyz"), "abc xyz");
  EXPECT_EQ(ToLowerCase("\xC4\xB0"), "i\xCC\x87");
}

}  // namespace
}  // namespace sbx::js
