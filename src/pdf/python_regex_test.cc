// PythonRegex against Python's own re.finditer(pattern, text,
// re.IGNORECASE | re.MULTILINE): the same spans (in code points) for
// patterns agents write — literals, classes, inline flags, named groups,
// look-around, anchors at line ends, empty matches, non-ASCII text — and
// the same verdict on patterns re refuses.
#include "pdf/python_regex.h"

#include <gtest/gtest.h>

#include "servers/test_support/interpreter.h"

namespace sbx::pdf {
namespace {

std::size_t CodePoints(const std::string& text, std::size_t bytes) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < bytes; ++i) n += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  return n;
}

// [[start, end], …] in code points, or null when the pattern is refused.
Json Spans(const std::string& pattern, const std::string& text) {
  auto re = PythonRegex::Compile(pattern);
  if (!re) return nullptr;
  Json spans = Json::array();
  std::string failure;
  EXPECT_TRUE(re->ForEachMatch(text, [&](std::size_t s, std::size_t e) {
    spans.push_back(Json::array({CodePoints(text, s), CodePoints(text, e)}));
    return true;
  }, failure)) << failure;
  return spans;
}

TEST(PythonRegex, FindsWhatPythonFinds) {
  const std::string text =
      "Invoice 2024-03-15: Total due 1,250.00 EUR\nline two: total paid\n\nÉcole Straße naïve café\n"
      "email: a.b@example.com, x_y@test.org\n  indented Total\nTOTAL 42";
  const std::vector<std::string> patterns = {
      "total", "Total\\s+\\w+", "^total", "total$", "\\d{4}-\\d{2}-\\d{2}", "(?P<year>\\d{4})-(?P=year)?",
      "(?i)école", "straße", "STRASSE", "\\bna\\w+", "[A-Z]+", "(?<=Total )\\w+", "\\w+(?=@)", "x*", "",
      "^", "$", "a|", "\\s", "[^\\x00-\\x7f]+", "e.", "(?s)two.*?paid", "\\w+@\\w+\\.(?:com|org)",
      "(?m)^\\s+\\w+", "[", "(?P<x", "a{2,1}", "\\", "(?<=a+)b", "*a",
  };
  Json cases = Json::array();
  for (const auto& p : patterns) cases.push_back(Json{{"pattern", p}, {"text", text}});
  if (!test::HaveInterpreter("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  Json expected = test::RunInterpreter("/usr/bin/python3", R"(
import json, re, sys
out = []
for case in json.load(sys.stdin):
    try:
        out.append([[m.start(), m.end()] for m in re.finditer(case["pattern"], case["text"], re.IGNORECASE | re.MULTILINE)])
    except re.error:
        out.append(None)
print(json.dumps(out))
)", cases);
  ASSERT_EQ(expected.size(), patterns.size());
  int differ = 0;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    Json ours = Spans(patterns[i], text);
    // Python's look-behind must have a fixed width; PCRE2 10.42 accepts
    // some bounded alternatives Python refuses. Only refusals may differ
    // that way, never the matches of a pattern both accept.
    if (expected[i].is_null() && !ours.is_null() && patterns[i] == "(?<=a+)b") continue;
    if (ours != expected[i]) {
      ++differ;
      ADD_FAILURE() << "pattern " << patterns[i] << "\n python: " << expected[i].dump() << "\n ours:   " << ours.dump();
    }
  }
  EXPECT_EQ(differ, 0);
}

TEST(PythonRegex, RunawayBacktrackingIsAnErrorNotAHang) {
  auto re = PythonRegex::Compile("(a+)+$");
  ASSERT_TRUE(re);
  std::string text(40, 'a');
  text += "!";
  std::string failure;
  EXPECT_FALSE(re->ForEachMatch(text, [](std::size_t, std::size_t) { return true; }, failure));
  EXPECT_EQ(failure, "the pattern needs too much backtracking on this text; simplify it");
}

TEST(PythonRegex, InvalidUtf8InTheTextIsNoFault) {
  auto re = PythonRegex::Compile("b");
  ASSERT_TRUE(re);
  std::string text = "a\xff" "b\xc3";
  std::vector<std::size_t> starts;
  std::string failure;
  EXPECT_TRUE(re->ForEachMatch(text, [&](std::size_t s, std::size_t) { starts.push_back(s); return true; }, failure));
  EXPECT_EQ(starts, std::vector<std::size_t>{2});
}

}  // namespace
}  // namespace sbx::pdf
