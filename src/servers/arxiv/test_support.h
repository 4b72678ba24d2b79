// Test fixture for the arxiv server: a fresh temporary tree holding a
// workspace, a paper store with five real papers' metadata (plus a broken
// entry), and an "outside" directory that must never change; a fixed clock;
// helpers that call tools through a real mcp::Session.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/arxiv/arxiv.h"
#include "servers/arxiv/dates.h"
#include "servers/arxiv/test_pdf.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::arxiv::testing {

class FixedClock final : public Clock {
 public:
  explicit FixedClock(UnixMicros t) : now_(t) {}
  UnixMicros Now() const override { return now_.load(); }
  void Set(UnixMicros t) { now_.store(t); }

 private:
  std::atomic<UnixMicros> now_;
};

// The body of the BERT fixture PDF, and the markdown poppler makes of it.
inline std::string BertPdf() {
  return MakePdf({{{72, 80, 18, false, "BERT: Pre-training of Deep Bidirectional Transformers"},
                   {72, 110, 10, false, "Jacob Devlin, Ming-Wei Chang, Kenton Lee, Kristina Toutanova"},
                   {72, 140, 10, false, "We introduce a new language representation model called BERT."}}});
}
inline constexpr const char* kBertMarkdown =
    "# BERT: Pre-training of Deep Bidirectional Transformers\n\n"
    "Jacob Devlin, Ming-Wei Chang, Kenton Lee, Kristina Toutanova\n\n"
    "We introduce a new language representation model called BERT.\n\n-----\n\n";

class ArxivTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    base_ = test_support::MakeTempDir("sbx_arxiv_test");
    ASSERT_FALSE(base_.empty());
    ws_ = base_ + "/ws";
    store_ = base_ + "/store";
    outside_ = base_ + "/outside";
    for (const auto& d : {ws_, store_, outside_}) ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
    WriteAbs(outside_ + "/secret.md", "SECRET\n");
    SeedStore();
    clock_ = std::make_shared<FixedClock>(ParseTimestamp("2025-03-31T12:00:00.5Z")->utc);
    Start(Options{});
    before_ = OutsideSnapshot();
  }

  void TearDown() override {
    EXPECT_EQ(OutsideSnapshot(), before_) << "the tree outside the workspace changed";
    (void)fs::RemoveTree(base_);
  }

  // (Re)builds the server; workspace, store and clock come from the fixture.
  void Start(Options o) {
    o.workspace = ws_;
    if (o.store_dir == Options{}.store_dir) o.store_dir = store_;
    o.clock = clock_;
    OpenSession(MakeServer(o));
  }

  // The result object; an answer without one (a JSON-RPC error) whole.
  Json Call(const std::string& tool, Json args = Json::object()) {
    Json reply = Reply(tool, std::move(args));
    return reply.contains("result") ? reply["result"] : reply;
  }
  // The single text block of a call; upstream never sets isError.
  std::string Text(const std::string& tool, Json args = Json::object()) {
    Json r = Call(tool, std::move(args));
    EXPECT_FALSE(r.value("isError", false)) << r.dump();
    EXPECT_EQ(r["content"].size(), 1u) << r.dump();
    return r["content"][0].value("text", "");
  }
  // The ids search_papers returns, in order.
  std::vector<std::string> Ids(Json args) {
    std::string text = Text("search_papers", std::move(args));
    Json j = Json::parse(text, nullptr, false);
    std::vector<std::string> ids;
    if (j.is_discarded()) return {"<not JSON> " + text};
    for (const Json& p : j["papers"]) ids.push_back(p["id"]);
    EXPECT_EQ(j["total_results"], ids.size());
    return ids;
  }

  void AddPaper(const std::string& folder, const std::string& metadata, const char* markdown = nullptr,
                const std::string* pdf = nullptr) {
    ASSERT_EQ(::mkdir((store_ + "/" + folder).c_str(), 0755), 0);
    WriteAbs(store_ + "/" + folder + "/metadata.json", metadata);
    if (markdown) WriteAbs(store_ + "/" + folder + "/paper.md", markdown);
    if (pdf) WriteAbs(store_ + "/" + folder + "/paper.pdf", *pdf);
  }

  void SeedStore() {
    AddPaper("1706.03762",
             R"({"id": "1706.03762v7", "title": "Attention Is All You Need",
                 "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
                 "summary": "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks. We propose the Transformer, based solely on\nattention mechanisms.",
                 "categories": ["cs.CL", "cs.LG"], "published": "2017-06-12T17:57:34Z",
                 "updated": "2023-08-02T00:41:18Z", "comment": "15 pages, 5 figures"})",
             "# Attention Is All You Need\r\n\r\nThe Transformer.\r\n");
    const std::string bert = BertPdf();
    AddPaper("1810.04805",
             R"({"id": "1810.04805v2",
                 "title": "BERT: Pre-training of Deep Bidirectional Transformers for Language\n  Understanding",
                 "authors": ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"],
                 "summary": "We introduce a new language representation model called BERT.",
                 "categories": ["cs.CL"], "published": "2018-10-11T00:50:01Z"})",
             nullptr, &bert);
    AddPaper("hep-th_9711200",
             R"({"id": "hep-th/9711200v3",
                 "title": "The Large N Limit of Superconformal Field Theories and Supergravity",
                 "authors": ["Juan M. Maldacena"],
                 "summary": "We show that the large N limit of certain conformal field theories can be described in terms of supergravity.",
                 "categories": ["hep-th"], "published": "1997-11-27T19:27:01Z",
                 "journal_ref": "Adv.Theor.Math.Phys.2:231-252,1998", "doi": "10.1023/A:1026654312961"})",
             "# The Large N Limit\n\nSupergravity.\n");
    const std::string gpt = MakePdf({{{72, 72, 11, false, "GPT-4 Technical Report"}}});
    AddPaper("2303.08774",
             "{\"id\": \"2303.08774v6\", \"title\": \"GPT-4 Technical Report\", \"authors\": [\"OpenAI\"],"
             " \"summary\": \"We report the development of GPT\u20114, a large-scale, multimodal model \u2014 which "
             "can accept image and text inputs.\", \"categories\": [\"cs.CL\", \"cs.AI\"],"
             " \"published\": \"2023-03-15T17:15:04Z\"}",
             nullptr, &gpt);
    AddPaper("1911.10500",
             "{\"id\": \"1911.10500v2\", \"title\": \"Causality for Machine Learning\","
             " \"authors\": [\"Bernhard Sch\u00f6lkopf\"], \"summary\": \"Graphical causal inference as pioneered "
             "by Judea Pearl arose from research on artificial intelligence.\","
             " \"categories\": [\"cs.LG\", \"cs.AI\", \"stat.ML\"], \"published\": \"2019-11-24T11:13:36Z\"}");
    AddPaper("2401.00001", R"({"id": "2401.00001v1", "title": 5})", "# Broken\n");
    ASSERT_EQ(::mkdir((store_ + "/notes").c_str(), 0755), 0);
  }

  std::string Storage(const std::string& name = "") const {
    return ws_ + "/arxiv_local_storage" + (name.empty() ? "" : "/" + name);
  }

  static bool ExistsAbs(const std::string& path) { return Exists(path); }

  // Every file below `outside_` with its content.
  std::map<std::string, std::string> OutsideSnapshot() const {
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(outside_))
      out[e.path().string()] = e.is_regular_file() ? ReadAbs(e.path().string()) : "<dir>";
    return out;
  }

  std::string base_, ws_, store_, outside_;
  std::shared_ptr<FixedClock> clock_;
  std::map<std::string, std::string> before_;
};

}  // namespace sbx::servers::arxiv::testing
