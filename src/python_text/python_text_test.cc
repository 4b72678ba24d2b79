// CPython's text rules, each value as CPython 3.11/3.13 prints it. The
// json.dumps and codec cases came with arxiv's read_paper / search results;
// differential_test.cc compares thousands more against /usr/bin/python3.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/json.h"
#include "python_text/codec.h"
#include "python_text/datetime.h"
#include "python_text/json_dumps.h"
#include "python_text/repr.h"
#include "python_text/value.h"

namespace sbx::py {
namespace {

// json.dumps(d) and json.dumps(d, indent=2), as tools/download.py and
// tools/search.py call them (values checked against CPython 3.11).
TEST(PyDumps, CompactAndIndentedLayout) {
  Json v = Json::parse(R"({"status":"success","n":3,"none":null,"ok":true,"list":[1,"a"],"empty":[],"obj":{}})");
  EXPECT_EQ(Dumps(v),
            R"({"status": "success", "n": 3, "none": null, "ok": true, "list": [1, "a"], "empty": [], "obj": {}})");
  EXPECT_EQ(Dumps(v, {.indent = 2}),
            "{\n  \"status\": \"success\",\n  \"n\": 3,\n  \"none\": null,\n  \"ok\": true,\n  \"list\": [\n    1,\n"
            "    \"a\"\n  ],\n  \"empty\": [],\n  \"obj\": {}\n}");
}

TEST(PyDumps, EnsureAsciiEscapes) {
  // json.dumps("é—\U0001F600\x7f\x01\"\\/\n\t\r\b\f")
  Json s = "\xc3\xa9\xe2\x80\x94\xf0\x9f\x98\x80\x7f\x01\"\\/\n\t\r\b\f";
  EXPECT_EQ(Dumps(s), R"("\u00e9\u2014\ud83d\ude00\u007f\u0001\"\\/\n\t\r\b\f")");
  // Invalid UTF-8 cannot occur in a Python str; here it comes out as U+FFFD.
  EXPECT_EQ(Dumps(Json("a\xff" "b")), R"("a\ufffdb")");
  EXPECT_EQ(Dumps(Json("\xe2\x82")), R"("\ufffd\ufffd")");
}

// Path.read_text(encoding="utf-8") in tools/read_paper.py: the messages of
// CPython's UnicodeDecodeError.
TEST(PyText, Utf8DecodeErrors) {
  EXPECT_EQ(Utf8DecodeError("plain \xc3\xa9 text"), std::nullopt);
  EXPECT_EQ(Utf8DecodeError("ab\xff"), "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte");
  EXPECT_EQ(Utf8DecodeError("\xc0\x80"), "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte");
  EXPECT_EQ(Utf8DecodeError("x\xe2\x28"),
            "'utf-8' codec can't decode byte 0xe2 in position 1: invalid continuation byte");
  EXPECT_EQ(Utf8DecodeError("\xf0\x9f\x98\x28"),
            "'utf-8' codec can't decode bytes in position 0-2: invalid continuation byte");
  EXPECT_EQ(Utf8DecodeError("\xed\xa0\x80"),
            "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte");
  EXPECT_EQ(Utf8DecodeError("\xe2\x82"), "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
  EXPECT_EQ(Utf8DecodeError("\xe2"), "'utf-8' codec can't decode byte 0xe2 in position 0: unexpected end of data");
}

TEST(PyText, UniversalNewlines) {
  EXPECT_EQ(UniversalNewlines("a\r\nb\rc\n\r\n\r"), "a\nb\nc\n\n\n");
}

TEST(PyRepr, Floats) {
  EXPECT_EQ(FloatRepr(3.0), "3.0");
  EXPECT_EQ(FloatRepr(0.1), "0.1");
  EXPECT_EQ(FloatRepr(1e16), "1e+16");
  EXPECT_EQ(FloatRepr(1e15), "1000000000000000.0");
  EXPECT_EQ(FloatRepr(1e-5), "1e-05");
  EXPECT_EQ(FloatRepr(0.0001), "0.0001");
  EXPECT_EQ(FloatRepr(-0.0), "-0.0");
  EXPECT_EQ(FloatRepr(5e-324), "5e-324");
  EXPECT_EQ(FloatRepr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(FloatRepr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FloatRepr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FloatRepr(std::nan("")), "nan");
}

TEST(PyRepr, Values) {
  Value v = Dict{{"a", List{1, 2.5, None{}}}, {Tuple{{1}}, Tuple{}}, {true, Tuple{{"x", false}}}};
  EXPECT_EQ(Repr(v), "{'a': [1, 2.5, None], (1,): (), True: ('x', False)}");
  EXPECT_EQ(Str(Value("it's")), "it's");
  EXPECT_EQ(Repr(Value("it's")), "\"it's\"");
  EXPECT_EQ(Str(List{"it's"}), "[\"it's\"]");
  EXPECT_EQ(Repr(Int{true, 18446744073709551615u}), "-18446744073709551615");
  EXPECT_EQ(Repr(Value("\xed\xa0\x80")), "'\\ud800'");  // a lone surrogate (WTF-8)
}

TEST(PyRepr, DateTimes) {
  DateTime dt{{2024, 1, 15}, 14, 30, 25, 100, 3600};
  EXPECT_EQ(Str(dt), "2024-01-15 14:30:25.000100+01:00");
  EXPECT_EQ(IsoFormat(dt), "2024-01-15T14:30:25.000100+01:00");
  EXPECT_EQ(Repr(dt), "datetime.datetime(2024, 1, 15, 14, 30, 25, 100, "
                      "tzinfo=datetime.timezone(datetime.timedelta(seconds=3600)))");
  DateTime naive{{7, 2, 3}, 4, 5, 0, 0, std::nullopt};
  EXPECT_EQ(Str(naive), "0007-02-03 04:05:00");
  EXPECT_EQ(Repr(naive), "datetime.datetime(7, 2, 3, 4, 5)");
  EXPECT_EQ(TimezoneRepr(-3600), "datetime.timezone(datetime.timedelta(days=-1, seconds=82800))");
  EXPECT_EQ(TimezoneRepr(0), "datetime.timezone.utc");
  EXPECT_EQ(Repr(Date{2024, 1, 5}), "datetime.date(2024, 1, 5)");
  EXPECT_EQ(Str(Value(Date{2024, 1, 5})), "2024-01-05");
  EXPECT_EQ(IsoFormat(DateTime::FromUnixMicros(-1, 0)), "1969-12-31T23:59:59.999999+00:00");
  EXPECT_THROW(DateTime::FromUnixMicros(-62135596801LL * 1000000, 0), std::out_of_range);
}

TEST(PyDumps, Options) {
  Value v = Dict{{"b", List{}}, {"a", Dict{}}, {1.5, std::numeric_limits<double>::infinity()}, {None{}, Tuple{{1}}}};
  EXPECT_EQ(Dumps(v), R"({"b": [], "a": {}, "1.5": Infinity, "null": [1]})");
  EXPECT_EQ(Dumps(v, {.indent = 0}), "{\n\"b\": [],\n\"a\": {},\n\"1.5\": Infinity,\n\"null\": [\n1\n]\n}");
  EXPECT_EQ(Dumps(Dict{{"b", 1}, {"a", 2}}, {.indent = std::nullopt, .ensure_ascii = true, .sort_keys = true}), R"({"a": 2, "b": 1})");
  EXPECT_EQ(Dumps(Value("\xc3\xa9\x7f\xed\xa0\x80"), {.indent = std::nullopt, .ensure_ascii = false}), "\"\xc3\xa9\x7f\xed\xa0\x80\"");
  EXPECT_EQ(Dumps(Value("\xed\xa0\x80")), R"("\ud800")");
  EXPECT_THROW(Dumps(Value(Date{2024, 1, 1})), std::invalid_argument);
}

TEST(PyText, OtherCodecErrors) {
  EXPECT_EQ(AsciiDecodeError("ab\xe9\xe9"), "'ascii' codec can't decode byte 0xe9 in position 2: ordinal not in range(128)");
  EXPECT_EQ(Utf8EncodeError("a\xed\xb2\x80" "b"),
            "'utf-8' codec can't encode character '\\udc80' in position 1: surrogates not allowed");
  EXPECT_EQ(Utf8EncodeError("\xed\xa0\x80\xed\xbf\xbf" "x"),
            "'utf-8' codec can't encode characters in position 0-1: surrogates not allowed");
  EXPECT_EQ(Utf8EncodeError("fine \xf0\x9f\x98\x80"), std::nullopt);
  EXPECT_EQ(DecodeReplace("caf\xe9", "Latin_1"), "caf\xc3\xa9");
  EXPECT_EQ(DecodeReplace("caf\xe9", "ascii"), "caf\xef\xbf\xbd");
}

}  // namespace
}  // namespace sbx::py
