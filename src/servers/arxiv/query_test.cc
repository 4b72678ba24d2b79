// UpstreamQuery encodes tools/search.py handle_search's rewrite of the
// user's query (blazickjp/arxiv-mcp-server 0.2.11); the rest checks how the
// resulting arXiv syntax is read.
#include "servers/arxiv/query.h"

#include <gtest/gtest.h>

namespace sbx::servers::arxiv {
namespace {

TEST(UpstreamQuery, Rewrite) {
  const std::vector<std::string> none;
  EXPECT_EQ(UpstreamQuery("transformers", none), "all:transformers");
  EXPECT_EQ(UpstreamQuery("deep  learning\tmodels", none), "all:deep AND all:learning AND all:models");
  EXPECT_EQ(UpstreamQuery(" single ", none), "all: single ");  // one word: the query as given
  EXPECT_EQ(UpstreamQuery("", none), "all:");
  EXPECT_EQ(UpstreamQuery("\"deep learning\" survey", none), "all:\"deep learning\" survey");
  EXPECT_EQ(UpstreamQuery("ti:bert AND au:devlin", none), "ti:bert AND au:devlin");
  // The prefix test is a plain substring test, case-sensitive.
  EXPECT_EQ(UpstreamQuery("multi:task learning", none), "multi:task learning");  // contains "ti:"
  EXPECT_EQ(UpstreamQuery("overall: results", none), "overall: results");       // contains "all:"
  EXPECT_EQ(UpstreamQuery("TI:bert", none), "all:TI:bert");
  EXPECT_EQ(UpstreamQuery("jr:Nature", none), "all:jr:Nature");
  EXPECT_EQ(UpstreamQuery("llm", {"cs.AI", "cs.CL"}), "(all:llm) AND (cat:cs.AI OR cat:cs.CL)");
  EXPECT_EQ(UpstreamQuery("a b", {"hep-th"}), "(all:a AND all:b) AND (cat:hep-th)");
}

IndexedPaper Paper() {
  IndexedPaper p;
  p.title = AnalyzeField("Quantum Criticality on the Checkerboard", Analyzer::kText);
  p.abstract = AnalyzeField("We study pyrochlore magnets.", Analyzer::kText);
  p.authors = AnalyzeField("Adrian Del Maestro", Analyzer::kName);
  p.categories = {"cond-mat.str-el"};
  p.ids = {"0704.0001", "0704.0001v2"};
  p.all = AnalyzeField("Quantum Criticality on the Checkerboard We study pyrochlore magnets Adrian Del Maestro",
                       Analyzer::kText);
  return p;
}

bool Matches(const std::string& q) {
  auto parsed = ArxivQuery::Parse(q);
  EXPECT_TRUE(parsed) << q;
  return parsed && parsed->Matches(Paper());
}

// The examples of arXiv's API user manual.
TEST(ArxivQuery, ManualExamples) {
  EXPECT_TRUE(Matches("au:del_maestro AND ti:checkerboard"));
  EXPECT_FALSE(Matches("au:del_maestro ANDNOT ti:checkerboard"));
  EXPECT_FALSE(Matches("au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)"));
  EXPECT_TRUE(Matches("au:del_maestro AND ti:\"quantum criticality\""));
  EXPECT_FALSE(Matches("au:del_maestro AND ti:\"criticality quantum\""));
}

TEST(ArxivQuery, OperatorsAndPrecedence) {
  EXPECT_TRUE(Matches("ti:nothing OR ti:quantum"));
  EXPECT_TRUE(Matches("ti:nothing ti:quantum"));              // side by side: OR
  EXPECT_TRUE(Matches("ti:nothing AND ti:none OR ti:quantum"));  // AND binds tighter
  EXPECT_FALSE(Matches("ti:nothing AND (ti:none OR ti:quantum)"));
  EXPECT_FALSE(Matches("ti:quantum ANDNOT abs:magnets ANDNOT ti:none"));
  EXPECT_TRUE(Matches("ti:quantum ANDNOT abs:ferro ANDNOT ti:none"));
  EXPECT_TRUE(Matches("cat:cond-mat.str-el"));
  EXPECT_FALSE(Matches("cat:cond-mat"));
  EXPECT_TRUE(Matches("cat:cond-mat*"));
  EXPECT_TRUE(Matches("id:0704.0001v2"));
  EXPECT_TRUE(Matches("magnet"));         // no prefix: all fields, plural dropped
  EXPECT_TRUE(Matches("abs:(magnets study)"));
  EXPECT_FALSE(Matches("abs:(quantum)"));  // the group's field applies inside
  EXPECT_FALSE(Matches("the ANDNOT ti:none"));  // only an exclusion left: matches nothing
  EXPECT_TRUE(Matches("ANDNOT ti:quantum"));    // an operator with nothing before it is dropped
  EXPECT_FALSE(Matches("the of"));
  EXPECT_TRUE(Matches("ti:\"the checkerboard\""));
}

TEST(ArxivQuery, Bounds) {
  EXPECT_FALSE(ArxivQuery::Parse(std::string(ArxivQuery::kMaxQueryBytes + 1, 'a')));
  EXPECT_TRUE(ArxivQuery::Parse(std::string(64, '(') + "ti:quantum"));
  EXPECT_FALSE(ArxivQuery::Parse(std::string(65, '(') + "ti:quantum"));
  // A long flat query stays a shallow tree (no deep recursion).
  std::string many;
  for (int i = 0; i < 400; ++i) many += "ti:x" + std::to_string(i) + " AND ti:y ANDNOT ti:z OR ";
  auto q = ArxivQuery::Parse(many + "ti:quantum");
  ASSERT_TRUE(q);
  EXPECT_TRUE(q->Matches(Paper()));
}

}  // namespace
}  // namespace sbx::servers::arxiv
