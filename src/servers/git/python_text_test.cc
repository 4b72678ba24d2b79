// CPython behaviours the result texts depend on; every expectation was
// printed by CPython 3.11 (repr, bytes.decode, pathlib, os.path,
// GitPython's from_timestamp).
#include <gtest/gtest.h>

#include "servers/git/python_text.h"

namespace sbx::servers::git::py {
namespace {

TEST(PythonRepr, QuotesAndEscapes) {
  EXPECT_EQ(Repr("plain"), "'plain'");
  EXPECT_EQ(Repr("it's"), "\"it's\"");
  EXPECT_EQ(Repr("say \"hi\""), "'say \"hi\"'");
  EXPECT_EQ(Repr("both ' and \""), "'both \\' and \"'");
  EXPECT_EQ(Repr("back\\slash"), "'back\\\\slash'");
  EXPECT_EQ(Repr("tab\tnl\nret\r"), "'tab\\tnl\\nret\\r'");
  EXPECT_EQ(Repr("bell\a del\x7f"), "'bell\\x07 del\\x7f'");
  EXPECT_EQ(Repr(std::string("nul\0x", 5)), "'nul\\x00x'");
}

TEST(PythonRepr, NonAsciiPrintableOrEscaped) {
  EXPECT_EQ(Repr("nbsp\xc2\xa0"), "'nbsp\\xa0'");             // Zs
  EXPECT_EQ(Repr("zwsp\xe2\x80\x8b"), "'zwsp\\u200b'");       // Cf
  EXPECT_EQ(Repr("emoji \xf0\x9f\x98\x80"), "'emoji \xf0\x9f\x98\x80'");
  EXPECT_EQ(Repr("caf\xc3\xa9 \xe2\x9c\x93"), "'caf\xc3\xa9 \xe2\x9c\x93'");
  EXPECT_EQ(Repr("line\xe2\x80\xa8sep"), "'line\\u2028sep'");  // Zl
  EXPECT_EQ(Repr("\xee\x80\x80pua"), "'\\ue000pua'");          // Co
  EXPECT_EQ(Repr("\xf3\xa0\x80\x81tag"), "'\\U000e0001tag'");  // Cf, astral
  EXPECT_EQ(Repr("\xef\xbf\xbd"), "'\xef\xbf\xbd'");
}

TEST(PythonCodec, DecodeErrorsLikeCPython) {
  EXPECT_EQ(Utf8DecodeError("plain"), std::nullopt);
  EXPECT_EQ(*Utf8DecodeError("caf\xe9"), "'utf-8' codec can't decode byte 0xe9 in position 3: unexpected end of data");
  EXPECT_EQ(*Utf8DecodeError("\xe9" "abc"),
            "'utf-8' codec can't decode byte 0xe9 in position 0: invalid continuation byte");
  EXPECT_EQ(*Utf8DecodeError("ok\xc3"), "'utf-8' codec can't decode byte 0xc3 in position 2: unexpected end of data");
  EXPECT_EQ(*Utf8DecodeError("\xe2\x82"), "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
  EXPECT_EQ(*Utf8DecodeError("\xe2\x28\xa1"),
            "'utf-8' codec can't decode byte 0xe2 in position 0: invalid continuation byte");
  EXPECT_EQ(*Utf8DecodeError("\xf0\x90\x28"),
            "'utf-8' codec can't decode bytes in position 0-1: invalid continuation byte");
  EXPECT_EQ(*Utf8DecodeError("\xed\xa0\x80"),
            "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte");
  EXPECT_EQ(*Utf8DecodeError("\xf4\x90\x80\x80"),
            "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte");
  EXPECT_EQ(*Utf8DecodeError("\x80"), "'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte");
  EXPECT_EQ(*Utf8DecodeError("\xc0\xaf"), "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte");
  EXPECT_EQ(*Utf8DecodeError("a\xf0\x9f\x98"),
            "'utf-8' codec can't decode bytes in position 1-3: unexpected end of data");
}

TEST(PythonCodec, ReplaceMarksEachInvalidSequenceOnce) {
  const std::string r = "\xef\xbf\xbd";
  EXPECT_EQ(DecodeUtf8Replace("caf\xe9"), "caf" + r);
  EXPECT_EQ(DecodeUtf8Replace("\xe2\x82"), r);
  EXPECT_EQ(DecodeUtf8Replace("\xe2\x28\xa1"), r + "(" + r);
  EXPECT_EQ(DecodeUtf8Replace("\xf0\x90\x28"), r + "(");
  EXPECT_EQ(DecodeUtf8Replace("\xed\xa0\x80"), r + r + r);
  EXPECT_EQ(DecodeUtf8Replace("\xf4\x90\x80\x80"), r + r + r + r);
  EXPECT_EQ(DecodeUtf8Replace("\xc0\xaf"), r + r);
  EXPECT_EQ(DecodeUtf8Replace("a\xf0\x9f\x98"), "a" + r);
  EXPECT_EQ(DecodeReplace("caf\xe9", "ISO-8859-1"), "caf\xc3\xa9");
  EXPECT_EQ(DecodeReplace("caf\xe9", "ascii"), "caf" + r);
}

TEST(PythonPaths, PurePathAndNormPath) {
  EXPECT_EQ(PurePathStr(""), ".");
  EXPECT_EQ(PurePathStr("/"), "/");
  EXPECT_EQ(PurePathStr("//"), "//");
  EXPECT_EQ(PurePathStr("///"), "/");
  EXPECT_EQ(PurePathStr("//a//b/"), "//a/b");
  EXPECT_EQ(PurePathStr("a/./b/"), "a/b");
  EXPECT_EQ(PurePathStr("/a/../b"), "/a/../b");
  EXPECT_EQ(PurePathStr("./x"), "x");
  EXPECT_EQ(NormPath(""), ".");
  EXPECT_EQ(NormPath("///"), "/");
  EXPECT_EQ(NormPath("//a//b/"), "//a/b");
  EXPECT_EQ(NormPath("/a/../b"), "/b");
  EXPECT_EQ(NormPath("/../x"), "/x");
  EXPECT_EQ(NormPath("../a/.."), "..");
}

TEST(PythonDateTime, StrAndRepr) {
  EXPECT_EQ(DateTimeStr({1700000000, 3600}), "2023-11-14 23:13:20+01:00");
  EXPECT_EQ(DateTimeStr({1700000000, -18000}), "2023-11-14 17:13:20-05:00");
  EXPECT_EQ(DateTimeStr({0, 0}), "1970-01-01 00:00:00+00:00");
  EXPECT_EQ(DateTimeStr({1700000000, -100000}), "2023-11-14 22:13:20+00:00");  // a day or more: UTC
  EXPECT_EQ(DateTimeStr({-1, 0}), "1969-12-31 23:59:59+00:00");
  EXPECT_EQ(DateTimeStr({1700000040, 49500}), "2023-11-15 11:59:00+13:45");
  EXPECT_EQ(DateTimeStr({1700000000, 19800}), "2023-11-15 03:43:20+05:30");
  const std::string tz = ", tzinfo=<git.objects.util.tzoffset object at 0x";
  std::string r = DateTimeRepr({1700000000, 3600});
  EXPECT_EQ(r.substr(0, r.find(tz)), "datetime.datetime(2023, 11, 14, 23, 13, 20");
  EXPECT_EQ(r.substr(r.size() - 3), "0>)");  // 16-byte aligned address
  r = DateTimeRepr({0, 0});
  EXPECT_EQ(r.substr(0, r.find(tz)), "datetime.datetime(1970, 1, 1, 0, 0");
  r = DateTimeRepr({1700000040, 49500});
  EXPECT_EQ(r.substr(0, r.find(tz)), "datetime.datetime(2023, 11, 15, 11, 59");
  EXPECT_NE(DateTimeRepr({0, 0}), DateTimeRepr({0, 0}));  // a new tzinfo object each time
  EXPECT_THROW(DateTimeStr({253402300800, 0}), std::out_of_range);  // year 10000
}

TEST(PythonFloat, Repr) {
  EXPECT_EQ(FloatRepr(3.0), "3.0");
  EXPECT_EQ(FloatRepr(0.5), "0.5");
  EXPECT_EQ(FloatRepr(1e16), "1e+16");
  EXPECT_EQ(FloatRepr(1.5e16), "1.5e+16");
  EXPECT_EQ(FloatRepr(12345678901234567890.0), "1.2345678901234567e+19");
  EXPECT_EQ(FloatRepr(1e-5), "1e-05");
  EXPECT_EQ(FloatRepr(0.0001), "0.0001");
  EXPECT_EQ(FloatRepr(-2.0), "-2.0");
  EXPECT_EQ(FloatRepr(123.456), "123.456");
}

}  // namespace
}  // namespace sbx::servers::git::py
