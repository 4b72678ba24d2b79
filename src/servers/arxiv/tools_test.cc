// tools/list against the reference, the settings parser, and search_papers
// golden cases. Each case names the upstream code it encodes
// (blazickjp/arxiv-mcp-server 0.2.11, src/arxiv_mcp_server/…).
#include <fstream>

#include "servers/arxiv/test_support.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::arxiv {
namespace {

using testing::ArxivTest;

TEST_F(ArxivTest, ToolsListEqualsReference) {
  // server.py: Server("arxiv-mcp-server"), version settings.APP_VERSION.
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["name"], "arxiv-mcp-server");
  EXPECT_EQ(init_reply_["result"]["serverInfo"]["version"], "0.2.11");
  Json tools = ListTools();
  auto ref = test_support::ReadJsonFile(ARXIV_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << ARXIV_REFERENCE_JSON;
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(
      tools, (*ref)["tools"], {.exact = {"inputSchema"}, .absent = {"outputSchema", "annotations"}}));
}

TEST(ArxivOptions, Settings) {
  auto d = OptionsFromSettings(Json::object());
  ASSERT_TRUE(d);
  EXPECT_EQ(d->store_dir, "/opt/arxiv-store");
  EXPECT_EQ(d->storage_path, "arxiv_local_storage");
  EXPECT_EQ(d->workspace, "/data");
  auto o = OptionsFromSettings(Json{{"store_dir", "/srv/papers"}, {"storage_path", "/data/.arxiv/papers"},
                                    {"max_pdf_bytes", 1000}, {"max_pdf_pages", 3}, {"max_markdown_bytes", 5000},
                                    {"live_api", false}});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->store_dir, "/srv/papers");
  EXPECT_EQ(o->storage_path, "/data/.arxiv/papers");
  EXPECT_EQ(o->max_pdf_bytes, 1000u);
  EXPECT_EQ(o->max_pdf_pages, 3);
  EXPECT_EQ(o->max_markdown_bytes, 5000u);
  const std::pair<Json, std::string> bad[] = {
      {Json::array(), "arxiv: settings must be a JSON object"},
      {Json{{"store", "/x"}},
       "arxiv: unknown setting \"store\" (known: store_dir, storage_path, max_pdf_bytes, max_pdf_pages, "
       "max_markdown_bytes, live_api)"},
      {Json{{"store_dir", "papers"}}, "arxiv: \"store_dir\" must be an absolute path"},
      {Json{{"storage_path", "../papers"}}, "arxiv: storage_path ../papers must not contain '..'"},
      {Json{{"storage_path", "/data2/papers"}}, "arxiv: storage_path /data2/papers is not inside the workspace /data"},
      {Json{{"storage_path", 7}}, "arxiv: \"storage_path\" must be a string"},
      {Json{{"max_pdf_pages", 0}}, "arxiv: \"max_pdf_pages\" must be an integer from 1 to 100000"},
      {Json{{"max_markdown_bytes", 9 << 20}}, "arxiv: \"max_markdown_bytes\" must be an integer from 1 to 8388608"},
      {Json{{"max_pdf_bytes", "1"}}, "arxiv: \"max_pdf_bytes\" must be an integer from 1 to 4294967296"},
      {Json{{"live_api", true}},
       "arxiv: \"live_api\": true is not supported: this build serves papers from the paper store only (the jail "
       "has no network)"},
  };
  for (const auto& [settings, message] : bad) {
    auto r = OptionsFromSettings(settings);
    ASSERT_FALSE(r) << settings.dump();
    EXPECT_EQ(r.error().message, message);
  }
}

// tools/search.py handle_search → _process_paper, json.dumps(indent=2):
// the exact result text.
TEST_F(ArxivTest, SearchResultText) {
  EXPECT_EQ(Text("search_papers", {{"query", "attention"}}), R"({
  "total_results": 1,
  "papers": [
    {
      "id": "1706.03762v7",
      "title": "Attention Is All You Need",
      "authors": [
        "Ashish Vaswani",
        "Noam Shazeer",
        "Niki Parmar"
      ],
      "abstract": "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks. We propose the Transformer, based solely on\nattention mechanisms.",
      "categories": [
        "cs.CL",
        "cs.LG"
      ],
      "published": "2017-06-12T17:57:34+00:00",
      "url": "http://arxiv.org/pdf/1706.03762v7",
      "resource_uri": "arxiv://1706.03762v7"
    }
  ]
})");
  // Non-ASCII escaped (ensure_ascii); the title's line break collapsed by the
  // arxiv client (re.sub(r"\s+", " ", title)).
  std::string gpt = Text("search_papers", {{"query", "GPT-4"}});
  EXPECT_NE(gpt.find(R"("abstract": "We report the development of GPT\u20114, a large-scale, multimodal model \u2014 which can accept image and text inputs.",)"),
            std::string::npos)
      << gpt;
  std::string bert = Text("search_papers", {{"query", "ti:bert"}});
  EXPECT_NE(bert.find(R"("title": "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",)"),
            std::string::npos)
      << bert;
  EXPECT_EQ(Text("search_papers", {{"query", "no such words"}}), "{\n  \"total_results\": 0,\n  \"papers\": []\n}");
}

// handle_search's rewrite: plain words become all:<word> joined with AND;
// a '"' keeps the text whole behind one all:; any of all: ti: abs: au: cat:
// passes the query through as arXiv syntax. Results newest first
// (SortCriterion.SubmittedDate, descending).
TEST_F(ArxivTest, SearchPlainWordsAreAnded) {
  EXPECT_EQ(Ids({{"query", "transformers"}}), (std::vector<std::string>{"1810.04805v2", "1706.03762v7"}));
  EXPECT_EQ(Ids({{"query", "language model"}}), std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Ids({{"query", "deep learning"}}), std::vector<std::string>{});
  // "OR" is just another word to upstream (all:OR), and a stop word here.
  EXPECT_EQ(Ids({{"query", "bert OR gpt"}}), std::vector<std::string>{});
  EXPECT_EQ(Ids({{"query", "  Causality  "}}), std::vector<std::string>{"1911.10500v2"});
  EXPECT_EQ(Ids({{"query", "the"}}), std::vector<std::string>{});  // only a stop word: an empty query
  EXPECT_EQ(Ids({{"query", ""}}), std::vector<std::string>{});
  EXPECT_EQ(Ids({{"query", "transf*"}}), (std::vector<std::string>{"1810.04805v2", "1706.03762v7"}));
}

TEST_F(ArxivTest, SearchPhrasesAndFieldSyntax) {
  EXPECT_EQ(Ids({{"query", "\"large N limit\""}}), std::vector<std::string>{"hep-th/9711200v3"});
  EXPECT_EQ(Ids({{"query", "\"limit large\""}}), std::vector<std::string>{});
  EXPECT_EQ(Ids({{"query", "ti:transformer"}}), std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Ids({{"query", "au:vaswani"}}), std::vector<std::string>{"1706.03762v7"});
  EXPECT_EQ(Ids({{"query", "au:Scholkopf"}}), std::vector<std::string>{"1911.10500v2"});
  EXPECT_EQ(Ids({{"query", "au:kenton_lee"}}), std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Ids({{"query", "au:lee_kenton"}}), std::vector<std::string>{});
  EXPECT_EQ(Ids({{"query", "cat:cs.AI"}}), (std::vector<std::string>{"2303.08774v6", "1911.10500v2"}));
  EXPECT_EQ(Ids({{"query", "cat:cs.*"}}),
            (std::vector<std::string>{"2303.08774v6", "1911.10500v2", "1810.04805v2", "1706.03762v7"}));
  EXPECT_EQ(Ids({{"query", "all:model ANDNOT cat:cs.AI"}}),
            (std::vector<std::string>{"1810.04805v2", "1706.03762v7"}));
  EXPECT_EQ(Ids({{"query", "ti:bert OR au:maldacena"}}),
            (std::vector<std::string>{"1810.04805v2", "hep-th/9711200v3"}));
  EXPECT_EQ(Ids({{"query", "(ti:bert OR ti:gpt) AND cat:cs.CL"}}),
            (std::vector<std::string>{"2303.08774v6", "1810.04805v2"}));
  EXPECT_EQ(Ids({{"query", "ti:(bert gpt)"}}), (std::vector<std::string>{"2303.08774v6", "1810.04805v2"}));
  EXPECT_EQ(Ids({{"query", "abs:\"neural networks\""}}), std::vector<std::string>{"1706.03762v7"});
  // jr: co: rn: id: are not in upstream's list of prefixes, so alone they
  // get "all:" put in front ("all:jr:…" searches the words "jr", "adv", …);
  // next to a listed prefix they pass through as fields.
  EXPECT_EQ(Ids({{"query", "jr:Adv.Theor.Math.Phys"}}), std::vector<std::string>{});
  EXPECT_EQ(Ids({{"query", "jr:Adv.Theor.Math.Phys AND cat:hep-th"}}), std::vector<std::string>{"hep-th/9711200v3"});
  EXPECT_EQ(Ids({{"query", "co:figures OR ti:nothing"}}), std::vector<std::string>{"1706.03762v7"});
  EXPECT_EQ(Ids({{"query", "id:1706.03762 OR ti:nothing"}}), std::vector<std::string>{"1706.03762v7"});
  EXPECT_EQ(Ids({{"query", "id:1706.03762v7 OR ti:nothing"}}), std::vector<std::string>{"1706.03762v7"});
  EXPECT_EQ(Ids({{"query", "all:hep-th/9711200"}}), std::vector<std::string>{"hep-th/9711200v3"});
  // Lenient with malformed syntax, like the API.
  EXPECT_EQ(Ids({{"query", "ti:bert AND"}}), std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Ids({{"query", "(ti:bert"}}), std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Ids({{"query", "ti:bert)) OR au:openai"}}), (std::vector<std::string>{"2303.08774v6", "1810.04805v2"}));
  EXPECT_EQ(Ids({{"query", "ANDNOT ti:bert"}}), std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Text("search_papers", {{"query", std::string(70, '(') + "ti:bert"}}),
            "Error: query nests parentheses deeper than 64 levels");
}

// handle_search: categories become "(<query>) AND (cat:a OR cat:b)".
TEST_F(ArxivTest, SearchCategories) {
  EXPECT_EQ(Ids({{"query", "model"}, {"categories", {"cs.AI"}}}), std::vector<std::string>{"2303.08774v6"});
  EXPECT_EQ(Ids({{"query", "large"}, {"categories", {"hep-th", "stat.ML"}}}),
            std::vector<std::string>{"hep-th/9711200v3"});
  EXPECT_EQ(Ids({{"query", "model"}, {"categories", Json::array()}}),
            (std::vector<std::string>{"2303.08774v6", "1810.04805v2", "1706.03762v7"}));
}

// handle_search: dates through dateutil.parser.parse(...).replace(
// tzinfo=utc), compared with paper.published (inclusive); a date alone is
// midnight, so date_to on a paper's day excludes it.
TEST_F(ArxivTest, SearchDates) {
  EXPECT_EQ(Ids({{"query", "model"}, {"date_from", "2018-01-01"}}),
            (std::vector<std::string>{"2303.08774v6", "1810.04805v2"}));
  EXPECT_EQ(Ids({{"query", "model"}, {"date_to", "2018-10-11"}}), std::vector<std::string>{"1706.03762v7"});
  EXPECT_EQ(Ids({{"query", "model"}, {"date_to", "2018-10-11T00:50:01"}}),
            (std::vector<std::string>{"1810.04805v2", "1706.03762v7"}));
  EXPECT_EQ(Ids({{"query", "model"}, {"date_from", "October 11, 2018"}, {"date_to", "2019"}}),
            std::vector<std::string>{"1810.04805v2"});
  EXPECT_EQ(Text("search_papers", {{"query", "model"}, {"date_from", "yesterday"}}),
            "Error: Invalid date format - Unknown string format: yesterday");
  EXPECT_EQ(Text("search_papers", {{"query", "model"}, {"date_to", "2023-02-30"}}),
            "Error: Invalid date format - day is out of range for month: 2023-02-30");
}

// handle_search: min(int(max_results), settings.MAX_RESULTS = 50); the
// arxiv client yields nothing for a negative limit and treats 0 as "no
// limit", the loop then stopping after one paper.
TEST_F(ArxivTest, SearchMaxResults) {
  EXPECT_EQ(Ids({{"query", "model"}, {"max_results", 1}}), std::vector<std::string>{"2303.08774v6"});
  EXPECT_EQ(Ids({{"query", "model"}, {"max_results", 0}}), std::vector<std::string>{"2303.08774v6"});
  EXPECT_EQ(Ids({{"query", "model"}, {"max_results", -3}}), std::vector<std::string>{});
  for (int i = 0; i < 60; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "2402.%05d", i);
    AddPaper(id, std::string(R"({"id": ")") + id + R"(v1", "title": "Sandbox study", "authors": ["A. Author"],
              "summary": "s", "categories": ["cs.OS"], "published": "2024-02-01"})");
  }
  EXPECT_EQ(Ids({{"query", "sandbox"}}).size(), 10u);
  EXPECT_EQ(Ids({{"query", "sandbox"}, {"max_results", 1000}}).size(), 50u);
  // Same date: ties newest id first.
  EXPECT_EQ(Ids({{"query", "sandbox"}, {"max_results", 2}}), (std::vector<std::string>{"2402.00059v1", "2402.00058v1"}));
}

TEST_F(ArxivTest, SearchWithoutStore) {
  Options o;
  o.store_dir = base_ + "/missing";
  Start(o);
  EXPECT_EQ(Text("search_papers", {{"query", "x"}}),
            "Error: paper store is not available: [Errno 2] No such file or directory: '" + base_ + "/missing'");
}

// Arguments are validated against the schema before the handler runs (the
// SDK's message, not Python's).
TEST_F(ArxivTest, SchemaValidation) {
  Json r = Call("search_papers", {{"max_results", 5}});
  EXPECT_TRUE(r.value("isError", false) || r.contains("error")) << r.dump();
  r = Call("search_papers", {{"query", "x"}, {"max_results", 1.5}});
  EXPECT_TRUE(r.value("isError", false) || r.contains("error")) << r.dump();
}

}  // namespace
}  // namespace sbx::servers::arxiv
