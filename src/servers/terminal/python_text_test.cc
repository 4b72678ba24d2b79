// Golden cases for the Python behaviour cli-mcp-server's results depend on.
// Every expectation is what CPython 3.13 gives for the same input
// (shlex.split, str.strip, repr, bytes.decode, str(OSError)).
#include <gtest/gtest.h>

#include <cerrno>

#include "servers/terminal/python_text.h"
#include "servers/terminal/shlex_split.h"

namespace sbx::servers::terminal {
namespace {

using Words = std::vector<std::string>;

Words Split(std::string_view line) {
  auto r = ShlexSplit(line);
  EXPECT_TRUE(r) << line;
  return r ? *r : Words{"<error>"};
}

std::string SplitError(std::string_view line) {
  auto r = ShlexSplit(line);
  EXPECT_FALSE(r) << line;
  return r ? "<no error>" : r.error().message;
}

// _validate_single_command: shlex.split(command_string).
TEST(ShlexSplit, WordsAsPythonPosixShlex) {
  EXPECT_EQ(Split("ls -l"), (Words{"ls", "-l"}));
  EXPECT_EQ(Split("  a  b  "), (Words{"a", "b"}));
  EXPECT_EQ(Split("a'b c'd"), (Words{"ab cd"}));
  EXPECT_EQ(Split("a\"b\\\"c\""), (Words{"ab\"c"}));
  EXPECT_EQ(Split("\"a\\nb\""), (Words{"a\\nb"}));  // only " and \ are escaped inside "…"
  EXPECT_EQ(Split("a\\ b"), (Words{"a b"}));
  EXPECT_EQ(Split("''"), (Words{""}));
  EXPECT_EQ(Split("a \"\" b"), (Words{"a", "", "b"}));
  EXPECT_EQ(Split("'a\\b'"), (Words{"a\\b"}));
  EXPECT_EQ(Split("\"a\\\\b\""), (Words{"a\\b"}));
  EXPECT_EQ(Split("a\\\nb"), (Words{"a\nb"}));  // an escaped newline is kept
  EXPECT_EQ(Split("x\ty\rz\nw"), (Words{"x", "y", "z", "w"}));
  EXPECT_EQ(Split("\xc3\xa9 \"\xc3\xbc \xc3\xb1\""), (Words{"\xc3\xa9", "\xc3\xbc \xc3\xb1"}));
  EXPECT_EQ(Split("a\vb"), (Words{"a\vb"}));  // \v is not shlex white space
  EXPECT_EQ(Split("#c d"), (Words{"#c", "d"}));  // no comments
  EXPECT_EQ(Split("$(id) `x`"), (Words{"$(id)", "`x`"}));  // nothing expanded
  EXPECT_EQ(Split(""), Words{});
  EXPECT_EQ(Split("   "), Words{});
}

TEST(ShlexSplit, ValueErrors) {
  EXPECT_EQ(SplitError("a\\"), "No escaped character");
  EXPECT_EQ(SplitError("\"abc"), "No closing quotation");
  EXPECT_EQ(SplitError("'abc"), "No closing quotation");
  EXPECT_EQ(SplitError("\"a\\"), "No escaped character");
}

// execute(): len(command_string).
TEST(PythonText, LengthCountsCodePoints) {
  EXPECT_EQ(py::Length(""), 0u);
  EXPECT_EQ(py::Length("abc"), 3u);
  EXPECT_EQ(py::Length("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 3u);  // é € 😀
}

// _validate_command_with_operators: part.strip().
TEST(PythonText, StripTakesUnicodeWhiteSpace) {
  EXPECT_EQ(py::Strip("\x1c\x1f \xc2\xa0\xe3\x80\x80" "ab c\xe2\x80\xa9\xc2\x85"), "ab c");
  EXPECT_EQ(py::Strip(" \t\n\v\f\r"), "");
  EXPECT_EQ(py::Strip("\xe2\x80\x8bx\xe2\x80\x8b"), "\xe2\x80\x8bx\xe2\x80\x8b");  // U+200B is not white space
}

// str(OSError(...)) quotes the file name with repr().
TEST(PythonText, Repr) {
  EXPECT_EQ(py::Repr("a"), "'a'");
  EXPECT_EQ(py::Repr("it's"), "\"it's\"");
  EXPECT_EQ(py::Repr("say \"x\""), "'say \"x\"'");
  EXPECT_EQ(py::Repr("both ' \""), "'both \\' \"'");
  EXPECT_EQ(py::Repr("tab\tnl\ncr\r\x01\x7f"), "'tab\\tnl\\ncr\\r\\x01\\x7f'");
  EXPECT_EQ(py::Repr("\xc3\xa9\xc2\xa0\xc2\xad\xe2\x80\xa8\xe2\x80\x8b\xee\x80\x80\xf0\x9f\x98\x80\xcd\xb8"),
            "'\xc3\xa9\\xa0\\xad\\u2028\\u200b\\ue000\xf0\x9f\x98\x80\\u0378'");
  EXPECT_EQ(py::Repr("back\\slash"), "'back\\\\slash'");
}

TEST(PythonText, OsErrorText) {
  EXPECT_EQ(py::OsErrorText(ENOENT, "foo"), "[Errno 2] No such file or directory: 'foo'");
  EXPECT_EQ(py::OsErrorText(EACCES, ""), "[Errno 13] Permission denied: ''");
  EXPECT_EQ(py::OsErrorText(EAGAIN, std::nullopt), "[Errno 11] Resource temporarily unavailable");
}

// subprocess.run(text=True) decodes the captured bytes strictly.
TEST(PythonText, Utf8DecodeErrors) {
  auto err = [](std::string_view b) { return py::Utf8DecodeError(b).value_or("<valid>"); };
  EXPECT_EQ(err("plain \xc3\xa9 \xf0\x9f\x98\x80"), "<valid>");
  EXPECT_EQ(err("ok\xff"), "'utf-8' codec can't decode byte 0xff in position 2: invalid start byte");
  EXPECT_EQ(err("\xe2\x82"), "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
  EXPECT_EQ(err("\xe2"), "'utf-8' codec can't decode byte 0xe2 in position 0: unexpected end of data");
  EXPECT_EQ(err("a\xe2\x82" "A"), "'utf-8' codec can't decode bytes in position 1-2: invalid continuation byte");
  EXPECT_EQ(err("\xe0\x80"), "'utf-8' codec can't decode byte 0xe0 in position 0: invalid continuation byte");
  EXPECT_EQ(err("\xed\xa0\x80"), "'utf-8' codec can't decode byte 0xed in position 0: invalid continuation byte");
  EXPECT_EQ(err("\xf0\x9f\x98"), "'utf-8' codec can't decode bytes in position 0-2: unexpected end of data");
  EXPECT_EQ(err("\xf0\x9f\x98" "A"), "'utf-8' codec can't decode bytes in position 0-2: invalid continuation byte");
  EXPECT_EQ(err("\xf4\x90\x80\x80"), "'utf-8' codec can't decode byte 0xf4 in position 0: invalid continuation byte");
  EXPECT_EQ(err("\xc0\xaf"), "'utf-8' codec can't decode byte 0xc0 in position 0: invalid start byte");
  EXPECT_EQ(err("\x80"), "'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte");
  EXPECT_EQ(err("\xf0\x80"), "'utf-8' codec can't decode byte 0xf0 in position 0: invalid continuation byte");
  EXPECT_EQ(err("\xe0\xa0"), "'utf-8' codec can't decode bytes in position 0-1: unexpected end of data");
  EXPECT_EQ(err("ok\xc3"), "'utf-8' codec can't decode byte 0xc3 in position 2: unexpected end of data");
  EXPECT_EQ(err("\xf5"), "'utf-8' codec can't decode byte 0xf5 in position 0: invalid start byte");
}

// Universal newlines: .replace("\r\n", "\n").replace("\r", "\n").
TEST(PythonText, TranslateNewlines) {
  EXPECT_EQ(py::TranslateNewlines("a\r\nb\rc\n\r\r\n"), "a\nb\nc\n\n\n");
}

}  // namespace
}  // namespace sbx::servers::terminal
