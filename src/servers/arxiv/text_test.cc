// The Python behaviours the results reproduce: str.split / re.sub(r"\s+"),
// datetime.isoformat and dateutil.parser.parse; and the index's text analysis.
#include <gtest/gtest.h>

#include "core/json.h"
#include "servers/arxiv/analysis.h"
#include "servers/arxiv/dates.h"

namespace sbx::servers::arxiv {
namespace {

// str.split() (tools/search.py splits plain queries) and the arxiv
// client's re.sub(r"\s+", " ", title).
TEST(PyText, SplitAndCollapse) {
  EXPECT_EQ(PythonSplit("  deep\tlearning\n\xc2\xa0models\xe3\x80\x80x "),
            (std::vector<std::string>{"deep", "learning", "models", "x"}));
  EXPECT_EQ(PythonSplit(""), std::vector<std::string>{});
  EXPECT_EQ(CollapseSpaces("BERT: Pre-training of\n  Deep\tTransformers "), "BERT: Pre-training of Deep Transformers ");
}

// datetime.isoformat() of arXiv's published dates (tools/search.py
// _process_paper) and of datetime.now() (tools/download.py started_at).
TEST(Dates, IsoFormat) {
  auto t = ParseTimestamp("2017-06-12T17:57:34Z");
  ASSERT_TRUE(t);
  EXPECT_EQ(IsoFormat(*t), "2017-06-12T17:57:34+00:00");
  auto with_offset = ParseTimestamp("2017-06-12T17:57:34.25-05:30");
  ASSERT_TRUE(with_offset);
  EXPECT_EQ(IsoFormat(*with_offset), "2017-06-12T17:57:34.250000-05:30");
  EXPECT_EQ(with_offset->utc, ParseTimestamp("2017-06-12T23:27:34.25Z")->utc);
  EXPECT_EQ(IsoFormat(*ParseTimestamp("1997-11-27")), "1997-11-27T00:00:00+00:00");
  for (const char* bad : {"", "2017-6-12", "2017-02-30", "2017-06-12T25:00:00Z", "2017-06-12T17:57:34",
                          "2017-06-12T17:57:34+0530", "yesterday"})
    EXPECT_FALSE(ParseTimestamp(bad)) << bad;
  EXPECT_EQ(NaiveIsoFormat(ParseTimestamp("2025-01-02T03:04:05Z")->utc), "2025-01-02T03:04:05");
  EXPECT_EQ(NaiveIsoFormat(ParseTimestamp("2025-01-02T03:04:05.000123Z")->utc), "2025-01-02T03:04:05.000123");
}

// dateutil.parser.parse(x).replace(tzinfo=timezone.utc) in tools/search.py,
// with today = 2025-03-31 (values and messages checked against
// python-dateutil 2.8.1 with default=datetime(2025, 3, 31)).
class FilterDates : public ::testing::Test {
 protected:
  const UnixMicros now = ParseTimestamp("2025-03-31T12:00:00Z")->utc;
  std::string Parse(const std::string& text) {
    auto r = ParseFilterDate(text, now);
    if (!r) return "ERR " + r.error().message;
    return IsoFormat(Timestamp{*r, 0});
  }
};

TEST_F(FilterDates, Forms) {
  EXPECT_EQ(Parse("2023-01-15"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse(" 2023-01-15 "), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("2023-01-15T10:30:00"), "2023-01-15T10:30:00+00:00");
  EXPECT_EQ(Parse("2023-01-15 10:30"), "2023-01-15T10:30:00+00:00");
  EXPECT_EQ(Parse("2023-01-15T10:30:00.5Z"), "2023-01-15T10:30:00.500000+00:00");
  // The offset is dropped, not applied (.replace(tzinfo=utc)).
  EXPECT_EQ(Parse("2023-01-15T10:30:00+05:00"), "2023-01-15T10:30:00+00:00");
  EXPECT_EQ(Parse("2023-01-15T10:30:00-0800"), "2023-01-15T10:30:00+00:00");
  EXPECT_EQ(Parse("20230115"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("2023/01/15"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("01/15/2023"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("15/01/2023"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("02/03/2023"), "2023-02-03T00:00:00+00:00");  // month first
  EXPECT_EQ(Parse("15.01.2023"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("January 15, 2023"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("15 Jan 2023"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("Sept 5 2023"), "2023-09-05T00:00:00+00:00");
  EXPECT_EQ(Parse("1/2/23"), "2023-01-02T00:00:00+00:00");
  EXPECT_EQ(Parse("1/2/80"), "1980-01-02T00:00:00+00:00");  // two-digit years: within 50 years of now
  EXPECT_EQ(Parse("230115"), "2015-01-23T00:00:00+00:00");  // six digits: three two-digit values
  EXPECT_EQ(Parse("15"), "2025-03-15T00:00:00+00:00");
  EXPECT_EQ(Parse("2023-01-15T10:30:00 UTC"), "2023-01-15T10:30:00+00:00");
  EXPECT_EQ(Parse("Jan 15 2023 10:30"), "2023-01-15T10:30:00+00:00");
  EXPECT_EQ(Parse("2023.01.15"), "2023-01-15T00:00:00+00:00");
  EXPECT_EQ(Parse("15-Jan-2023"), "2023-01-15T00:00:00+00:00");
}

TEST_F(FilterDates, MissingFieldsComeFromToday) {
  EXPECT_EQ(Parse("2023"), "2023-03-31T00:00:00+00:00");
  EXPECT_EQ(Parse("2023-02"), "2023-02-28T00:00:00+00:00");  // day 31 clamped to February's end
  EXPECT_EQ(Parse("Feb 2024"), "2024-02-29T00:00:00+00:00");
  EXPECT_EQ(Parse("June"), "2025-06-30T00:00:00+00:00");
  EXPECT_EQ(Parse("10:30"), "2025-03-31T10:30:00+00:00");
}

TEST_F(FilterDates, DateutilMessages) {
  EXPECT_EQ(Parse(""), "ERR String does not contain a date: ");
  EXPECT_EQ(Parse("   "), "ERR String does not contain a date:    ");
  EXPECT_EQ(Parse("yesterday"), "ERR Unknown string format: yesterday");
  EXPECT_EQ(Parse("2023-01-15 foo"), "ERR Unknown string format: 2023-01-15 foo");
  EXPECT_EQ(Parse("-"), "ERR String does not contain a date: -");
  EXPECT_EQ(Parse(","), "ERR String does not contain a date: ,");
  EXPECT_EQ(Parse("2023-01-15Z"), "ERR Unknown string format: 2023-01-15Z");
  EXPECT_EQ(Parse("2023-W01"), "ERR Unknown string format: 2023-W01");
  EXPECT_EQ(Parse("0000-01-01"), "ERR year 0 is out of range: 0000-01-01");
  EXPECT_EQ(Parse("2023-13-01"), "ERR month must be in 1..12: 2023-13-01");
  EXPECT_EQ(Parse("2023-02-30"), "ERR day is out of range for month: 2023-02-30");
  EXPECT_EQ(Parse("2023-01-15T24:00"), "ERR hour must be in 0..23: 2023-01-15T24:00");
  EXPECT_EQ(Parse("2023-01-15T10:61"), "ERR minute must be in 0..59: 2023-01-15T10:61");
}

// ASCII text takes a fast path; it must split and fold exactly as the ICU
// path does (forced here by a trailing non-ASCII word).
TEST(Analysis, AsciiFastPathAgreesWithIcu) {
  for (const char* text : {"Hello, World! GPT-4's x_y z.w 3.14e-5", "\t\x01TAB\x7f end", "  ", "a-b_c/d:e(f)g\"h"}) {
    std::vector<std::string> fast = AnalyzeField(text, Analyzer::kName);
    std::vector<std::string> icu = AnalyzeField(std::string(text) + " \xc3\xa9", Analyzer::kName);
    ASSERT_FALSE(icu.empty());
    EXPECT_EQ(icu.back(), "e");
    icu.pop_back();
    EXPECT_EQ(fast, icu) << text;
  }
}

TEST(Analysis, FoldingStemmingAndStopWords) {
  EXPECT_EQ(AnalyzeField("Bernhard Schölkopf, GPT-4's “Transformers” & queries", Analyzer::kText),
            (std::vector<std::string>{"bernhard", "scholkopf", "gpt", "4", "s", "transformer", "query"}));
  EXPECT_EQ(AnalyzeField("Bernhard Schölkopf", Analyzer::kName), (std::vector<std::string>{"bernhard", "scholkopf"}));
  EXPECT_EQ(AnalyzeField("  cs.AI ", Analyzer::kExact), std::vector<std::string>{"cs.ai"});
  // Plural endings kept: -ss, -us, -aes/-ees/-oes/-ies after a vowel; short words.
  EXPECT_EQ(AnalyzeField("class corpus goes trees series bias is", Analyzer::kText),
            (std::vector<std::string>{"class", "corpus", "goes", "trees", "sery", "bia", "is"}));
  TermTokens phrase = AnalyzeTerm("the theory of everything", Analyzer::kText);
  EXPECT_EQ(phrase.tokens, (std::vector<std::string>{"theory", "", "everything"}));
  EXPECT_TRUE(AnalyzeTerm("the", Analyzer::kText).tokens.empty());
  TermTokens prefix = AnalyzeTerm("transf*", Analyzer::kText);
  EXPECT_EQ(prefix.tokens, std::vector<std::string>{"transf"});
  EXPECT_TRUE(prefix.prefix_last);
  EXPECT_TRUE(ContainsPhrase(AnalyzeField("A theory for everything", Analyzer::kText), phrase));
  EXPECT_FALSE(ContainsPhrase(AnalyzeField("theory everything", Analyzer::kText), phrase));
  EXPECT_TRUE(ContainsPhrase({"transformer"}, prefix));
  EXPECT_FALSE(ContainsPhrase({"tran"}, prefix));
  // A stop word inside a phrase does not match the boundary between values.
  EXPECT_FALSE(ContainsPhrase({"theory", std::string(kBoundaryToken), "everything"}, phrase));
}

}  // namespace
}  // namespace sbx::servers::arxiv
