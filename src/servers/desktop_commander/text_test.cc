// The pure pieces, against values upstream's own code (run under Node 20)
// produces for the same inputs: JavaScript conversions, isbinaryfile's
// verdict, the blocked-command parser (command-manager.ts), the process
// state heuristics (utils/process-detection.ts) and the fuzzy search
// (tools/fuzzySearch.ts with fastest-levenshtein).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/utf8.h"
#include "js_text/date.h"
#include "js_text/json.h"
#include "js_text/number.h"
#include "js_text/string.h"
#include "servers/desktop_commander/binary_detect.h"
#include "servers/desktop_commander/command_filter.h"
#include "servers/desktop_commander/fuzzy_search.h"
#include "servers/desktop_commander/process_state.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::desktop_commander {
namespace {

using utf8::FromUtf16;
using utf8::ToUtf16;

TEST(JsFormat, NumberToString) {
  EXPECT_EQ(js::NumberToString(0), "0");
  EXPECT_EQ(js::NumberToString(-0.0), "0");
  EXPECT_EQ(js::NumberToString(1.5), "1.5");
  EXPECT_EQ(js::NumberToString(0.1), "0.1");
  EXPECT_EQ(js::NumberToString(1e21), "1e+21");
  EXPECT_EQ(js::NumberToString(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(js::NumberToString(1e-7), "1e-7");
  EXPECT_EQ(js::NumberToString(0.000001), "0.000001");
  EXPECT_EQ(js::NumberToString(2.5e-7), "2.5e-7");
  EXPECT_EQ(js::NumberToString(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(js::NumberToString(-42.125), "-42.125");
  EXPECT_EQ(js::NumberToString(5e-324), "5e-324");
  EXPECT_EQ(js::NumberToString(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(js::NumberToString(100), "100");
  EXPECT_EQ(js::NumberToString(1e20), "100000000000000000000");
  EXPECT_EQ(js::NumberToString(std::nan("")), "NaN");
  EXPECT_EQ(js::NumberToString(-INFINITY), "-Infinity");
}

TEST(JsFormat, StringifyWithIndent) {
  Json v = Json::parse(R"({"a":[1,"x\u0001\n",{}],"b":{},"c":[],"d":null,"e":1.5,"f":"é","g":2.0})");
  EXPECT_EQ(js::Stringify(v, 2),
            "{\n  \"a\": [\n    1,\n    \"x\\u0001\\n\",\n    {}\n  ],\n  \"b\": {},\n  \"c\": [],\n  \"d\": null,\n"
            "  \"e\": 1.5,\n  \"f\": \"é\",\n  \"g\": 2\n}");
  EXPECT_EQ(js::Stringify(Json::array({1, "a"}), 0), "[1,\"a\"]");
}

TEST(JsFormat, ToNumberAndString) {
  EXPECT_EQ(js::ToNumber(Json("")), 0);
  EXPECT_EQ(js::ToNumber(Json(" 12 ")), 12);
  EXPECT_EQ(js::ToNumber(Json("0x1F")), 31);
  EXPECT_EQ(js::ToNumber(Json("1e3")), 1000);
  EXPECT_EQ(js::ToNumber(Json(".5")), 0.5);
  EXPECT_EQ(js::ToNumber(Json("5.")), 5);
  EXPECT_EQ(js::ToNumber(Json("+Infinity")), INFINITY);
  EXPECT_TRUE(std::isnan(js::ToNumber(Json("abc"))));
  EXPECT_TRUE(std::isnan(js::ToNumber(Json("1,2"))));
  EXPECT_EQ(js::ToNumber(Json("0b101")), 5);
  EXPECT_TRUE(std::isnan(js::ToNumber(Json("-0x10"))));
  EXPECT_EQ(js::ToNumber(Json("\u00a012\u2028")), 12);
  EXPECT_EQ(js::ToNumber(Json::array({"7"})), 7);
  EXPECT_TRUE(std::isnan(js::ToNumber(Json::object())));
  EXPECT_EQ(js::ToString(Json::array({1, nullptr, "a"})), "1,,a");
  EXPECT_EQ(js::ToString(Json::object()), "[object Object]");
  EXPECT_EQ(js::ToString(Json(2.0)), "2");
}

TEST(JsFormat, RoundDatesUrlsAndCase) {
  EXPECT_EQ(js::MathRound(2.5), 3);
  EXPECT_EQ(js::MathRound(-2.5), -2);
  EXPECT_EQ(js::MathRound(0.49999999999999994), 0);
  EXPECT_EQ(js::ToIsoString(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(js::ToIsoString(1700000000123), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(js::FormUrlEncode("x y~*-._é!"), "x+y%7E*-._%C3%A9%21");
  EXPECT_EQ(js::ToLowerCase("İSTANBUL ΣΑΣ"), "i̇stanbul σας");
}

TEST(BinaryDetect, IsBinaryFileVerdicts) {
  EXPECT_FALSE(LooksBinary(""));
  EXPECT_FALSE(LooksBinary("plain text\nwith lines\n"));
  EXPECT_TRUE(LooksBinary(std::string("a\0b", 3)));
  EXPECT_TRUE(LooksBinary("%PDF-1.4 rest"));
  EXPECT_FALSE(LooksBinary("\xef\xbb\xbf\x01\x02\x03"));   // UTF-8 BOM wins
  EXPECT_FALSE(LooksBinary("\xff\xfe" "a\0b"));              // UTF-16 LE BOM
  EXPECT_FALSE(LooksBinary("h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac \xf0\x9f\x98\x80"));
  // More than 10% suspicious bytes once 32 bytes are in.
  EXPECT_TRUE(LooksBinary(std::string(40, 'a') + std::string(10, '\x01')));
  EXPECT_FALSE(LooksBinary(std::string(200, 'a') + "\x01"));
  // Invalid UTF-8 counts as suspicious.
  EXPECT_TRUE(LooksBinary(std::string(20, 'a') + std::string(20, '\x80')));
}

TEST(CommandFilter, ExtractsLikeUpstream) {
  using V = std::vector<std::string>;
  EXPECT_EQ(ExtractCommands("ls -la"), V{"ls"});
  EXPECT_EQ(ExtractCommands("sudo rm -rf /"), V{"sudo"});
  EXPECT_EQ(ExtractCommands("echo hi | sudo tee x"), (V{"echo", "sudo"}));
  EXPECT_EQ(ExtractCommands("a && b || c; d & e"), (V{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(ExtractCommands("FOO=bar sudo ls"), V{"sudo"});
  EXPECT_EQ(ExtractCommands("echo 'a;b' ; rm x"), (V{"echo", "rm"}));
  EXPECT_EQ(ExtractCommands("echo $(sudo ls)"), (V{"sudo", "echo"}));
  EXPECT_EQ(ExtractCommands("(cd /tmp && mkfs x)"), (V{"cd", "mkfs"}));
  EXPECT_EQ(ExtractCommands("echo \"x|y\" | grep x"), (V{"echo", "grep"}));
  EXPECT_EQ(ExtractCommands("  LS  "), V{"ls"});
  EXPECT_EQ(ExtractCommands("X=1"), V{});
  EXPECT_EQ(ExtractCommands("echo a\\;sudo"), V{"echo"});
  EXPECT_EQ(ExtractCommands("dd if=/dev/zero of=/x"), V{"dd"});
  EXPECT_EQ(ExtractCommands("echo (unclosed sudo ls"), (V{"unclosed", "echo"}));
  EXPECT_EQ(ExtractCommands("`sudo ls`"), V{"`sudo"});
}

TEST(CommandFilter, BlocksEveryCommandOfAChain) {
  Json blocked = Json::array({"sudo", "mkfs", "dd"});
  EXPECT_TRUE(IsCommandAllowed("ls -la", blocked));
  EXPECT_FALSE(IsCommandAllowed("sudo ls", blocked));
  EXPECT_FALSE(IsCommandAllowed("SUDO ls", blocked));
  EXPECT_FALSE(IsCommandAllowed("echo hi | sudo tee x", blocked));
  EXPECT_FALSE(IsCommandAllowed("true && dd if=/dev/zero of=x", blocked));
  EXPECT_FALSE(IsCommandAllowed("false || mkfs.ext4 x; mkfs y", blocked));
  EXPECT_FALSE(IsCommandAllowed("echo $(sudo id)", blocked));
  EXPECT_FALSE(IsCommandAllowed("(sudo id)", blocked));
  EXPECT_FALSE(IsCommandAllowed("X=1 sudo id", blocked));
  EXPECT_FALSE(IsCommandAllowed("sleep 1 & sudo id", blocked));
  EXPECT_TRUE(IsCommandAllowed("echo 'sudo; dd'", blocked));  // quoted: one echo
  // Nothing extracted: the first word of the raw text decides.
  EXPECT_TRUE(IsCommandAllowed("X=1", blocked));
  EXPECT_TRUE(IsCommandAllowed("sudo", Json::array()));
}

TEST(ProcessState, AnalyzesLikeUpstream) {
  auto st = [](std::string_view s) { return AnalyzeProcessState(s); };
  EXPECT_TRUE(st("").running);
  EXPECT_FALSE(st("   ").waiting_for_input);
  EXPECT_EQ(st("hello\n>>> ").detected_prompt, ">>> ");
  EXPECT_EQ(st("x = 1\n... ").detected_prompt, "... ");
  EXPECT_FALSE(st("done\n").waiting_for_input);
  EXPECT_FALSE(st("done\n").finished);
  EXPECT_TRUE(st("Traceback (most recent call last):\n  File x\nNameError: name 'y' is not defined\n").finished);
  EXPECT_TRUE(st("line\n  ^\n").finished);
  EXPECT_TRUE(st("abc\n\u00a0^").finished);
  EXPECT_TRUE(st("Exit code: 0").finished);
  EXPECT_EQ(st("julia> ").detected_prompt, "> ");
  EXPECT_EQ(st("user@host:~$ ").detected_prompt, "$ ");
  EXPECT_FALSE(st("prompt#").waiting_for_input);
  EXPECT_TRUE(st("a > b").waiting_for_input);
  EXPECT_TRUE(st("stuff\nError: bad\nmore\nmore2").finished);
  EXPECT_FALSE(st("Error: old\nmore\nmore2\nmore3").finished);  // only the last three lines count

  EXPECT_TRUE(EndsWithQuickPrompt(">>> "));
  EXPECT_TRUE(EndsWithQuickPrompt("$\n"));
  EXPECT_TRUE(EndsWithQuickPrompt("root# \u00a0"));
  EXPECT_FALSE(EndsWithQuickPrompt("a > b"));
  EXPECT_FALSE(EndsWithQuickPrompt("   "));
  ProcessState waiting = st("x\n>>> ");
  EXPECT_EQ(FormatProcessState(waiting, "42"), "Process 42 is waiting for input (detected: \">>>\")");
  EXPECT_EQ(FormatProcessState(st("Exit code: 1"), "42"), "Process 42 has finished execution");
  EXPECT_EQ(FormatProcessState(st("x"), "42"), "Process 42 is running");
}

TEST(ProcessState, CleansLikeUpstream) {
  EXPECT_EQ(CleanProcessOutput("print(1)\n1\n>>> ", "print(1)"), "1");
  EXPECT_EQ(CleanProcessOutput(">>> 1+1\n2\n>>> ", "1+1"), "1+1\n2");
  EXPECT_EQ(CleanProcessOutput("...   x\n+ y\n> z\n>>>", ""), "x\ny\nz");
  EXPECT_EQ(CleanProcessOutput("echo hi\nhi\n$ ", "echo hi"), "hi\n$");
  EXPECT_EQ(CleanProcessOutput("a\n>\n>", "q"), "a");
  EXPECT_EQ(CleanProcessOutput("  foo bar  \nfoo bar\nbaz", " foo bar "), "foo bar  \nbaz");
}

std::int64_t NaiveDistance(const std::u16string& a, const std::u16string& b) {
  std::vector<std::int64_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<std::int64_t>(j);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<std::int64_t>(i);
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

TEST(FuzzySearch, DistanceMatchesTheDefinition) {
  std::uint64_t work = 0;
  EXPECT_EQ(EditDistance(u"kitten", u"sitting", work), 3);
  EXPECT_EQ(EditDistance(u"", u"", work), 0);
  EXPECT_EQ(EditDistance(u"abc", u"", work), 3);
  EXPECT_EQ(EditDistance(u"flaw", u"lawn", work), 2);
  EXPECT_EQ(EditDistance(utf8::ToUtf16("héllo wörld"), u"hello world", work), 2);
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    auto make = [&](std::size_t max) {
      std::u16string s(rng() % max, u'a');
      for (auto& c : s) c = static_cast<char16_t>(u'a' + rng() % 3);
      return s;
    };
    std::u16string a = make(200), b = make(200);
    ASSERT_EQ(EditDistance(a, b, work), NaiveDistance(a, b)) << round;
  }
}

TEST(FuzzySearch, FindsWhatUpstreamFinds) {
  auto find = [](std::string text, std::string query) {
    FuzzyMatch m = FuzzyIndexOf(utf8::ToUtf16(text), utf8::ToUtf16(query), 1'000'000'000);
    return std::make_tuple(m.start, m.end, utf8::FromUtf16(m.value), m.distance,
                           SimilarityRatio(utf8::ToUtf16(query), m.value));
  };
  EXPECT_EQ(find("function foo() {\n  return 1;\n}\nfunction bar() {\n  return 2;\n}\n",
                 "function baz() {\n  return 2;\n}"),
            std::make_tuple(31, 61, std::string("function bar() {\n  return 2;\n}"), 1, 0.9666666666666667));
  EXPECT_EQ(find("hello world", "hello"), std::make_tuple(0, 5, std::string("hello"), 0, 1.0));
  EXPECT_EQ(find("The quick brown fox jumps over the lazy dog", "lazy cat"),
            std::make_tuple(35, 43, std::string("lazy dog"), 3, 0.625));
  EXPECT_EQ(find("abc", "xyz"), std::make_tuple(1, 3, std::string("bc"), 3, 0.0));
  EXPECT_EQ(utf8::FromUtf16(HighlightDifferences(u"lazy cat", u"lazy dog")), "lazy {-cat-}{+dog+}");
  CharacterCodes codes = CharacterCodeData(u"a\nb", u"a\tb");
  EXPECT_EQ(codes.report, "9:1[\\x09],10:1[\\x0a]");
  EXPECT_EQ(codes.unique, 2u);
  EXPECT_EQ(codes.diff_length, 2u);
}

TEST(FuzzySearch, RefusesWorkBeyondTheBudget) {
  std::u16string text(100000, u'x'), query(5000, u'y');
  EXPECT_THROW(FuzzyIndexOf(text, query, 1'000'000), filesystem::FsError);
}

}  // namespace
}  // namespace sbx::servers::desktop_commander
