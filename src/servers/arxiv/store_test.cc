// The paper store's ids and metadata (paper_store.h).
#include "servers/arxiv/paper_store.h"

#include <gtest/gtest.h>

namespace sbx::servers::arxiv {
namespace {

TEST(PaperStore, ArxivIds) {
  for (const char* good : {"2301.12345", "2301.12345v2", "0704.0001", "0704.0001v12", "hep-th/9901001",
                           "hep-th/9901001v3", "math.GT/0309136", "cond-mat/0011002v1", "solv-int/9901001"})
    EXPECT_TRUE(IsArxivId(good)) << good;
  for (const char* bad : {"", "2301.123", "2301.123456", "230.12345", "2301-12345", "2301.12345v", "2301.12345vx",
                          "2301.12345v1234567", "hep-th/990100", "hep-th/99010011", "HEP-TH/9901001",
                          "math.gt/0309136", "-th/9901001", "hep--th/9901001", "../2301.12345", "2301.12345/..",
                          "2301.12345 ", "hep-th/9901001/x"})
    EXPECT_FALSE(IsArxivId(bad)) << bad;
  EXPECT_EQ(WithoutVersion("2301.12345v2"), "2301.12345");
  EXPECT_EQ(WithoutVersion("solv-int/9901001"), "solv-int/9901001");
  EXPECT_EQ(WithoutVersion("solv-int/9901001v4"), "solv-int/9901001");
}

TEST(PaperStore, MetadataDefaultsAndErrors) {
  auto m = ParseMetadata(R"({"id": "2301.12345v2", "title": "T", "authors": ["A"], "abstract": "S",
                            "categories": ["cs.AI"], "published": "2023-01-29", "doi": "10.1/x", "extra": 1})");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->summary, "S");
  EXPECT_EQ(m->pdf_url, "http://arxiv.org/pdf/2301.12345v2");
  EXPECT_EQ(m->links, (std::vector<std::string>{"http://dx.doi.org/10.1/x", "http://arxiv.org/abs/2301.12345v2",
                                                "http://arxiv.org/pdf/2301.12345v2"}));
  EXPECT_EQ(m->updated.utc, m->published.utc);
  auto given = ParseMetadata(R"({"id": "2301.12345", "title": "T", "authors": [], "summary": "S",
                                "categories": [], "published": "2023-01-29T10:00:00Z",
                                "pdf_url": "https://arxiv.org/pdf/2301.12345.pdf", "links": ["x"]})");
  ASSERT_TRUE(given);
  EXPECT_EQ(given->pdf_url, "https://arxiv.org/pdf/2301.12345.pdf");
  EXPECT_EQ(given->links, std::vector<std::string>{"x"});
  const std::pair<const char*, const char*> bad[] = {
      {"[]", "not a JSON object"},
      {"{", "not a JSON object"},
      {R"({"title": "T"})", "\"id\" is missing"},
      {R"({"id": "x"})", "\"id\" is not an arXiv identifier: \"x\""},
      {R"({"id": "2301.12345", "title": ["T"]})", "\"title\" must be a string"},
      {R"({"id": "2301.12345", "title": "T", "authors": "A"})", "\"authors\" must be an array of strings"},
      {R"({"id": "2301.12345", "title": "T", "authors": [], "categories": []})", "\"summary\" is missing"},
      {R"({"id": "2301.12345", "title": "T", "authors": [], "summary": "S", "categories": [1]})",
       "\"categories\" must be an array of strings"},
      {R"({"id": "2301.12345", "title": "T", "authors": [], "summary": "S", "categories": []})",
       "\"published\" is missing"},
      {R"({"id": "2301.12345", "title": "T", "authors": [], "summary": "S", "categories": [],
           "published": "Jan 2023"})",
       "\"published\" must be an RFC 3339 timestamp or YYYY-MM-DD, not \"Jan 2023\""},
  };
  for (const auto& [text, message] : bad) {
    auto r = ParseMetadata(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().message, message);
  }
}

}  // namespace
}  // namespace sbx::servers::arxiv
