// download_paper, list_papers and read_paper golden cases. Each names the
// upstream code it encodes (blazickjp/arxiv-mcp-server 0.2.11,
// src/arxiv_mcp_server/tools/…). Times come from the fixture's clock
// (2025-03-31T12:00:00.5Z; upstream prints datetime.now().isoformat()).
#include "servers/arxiv/pdf_markdown.h"
#include "servers/arxiv/test_support.h"

namespace sbx::servers::arxiv {
namespace {

using testing::ArxivTest;

constexpr const char* kStarted = R"("started_at": "2025-03-31T12:00:00.500000")";

std::string Converting() {
  return std::string(R"({"status": "converting", "message": "Paper downloaded, conversion started", )") + kStarted +
         "}";
}

// download.py handle_download: first call answers "converting"; the status
// table then reports the outcome (check_status); once <id>.md exists,
// "Paper already available" with its file:// URI.
TEST_F(ArxivTest, DownloadMarkdownFromStore) {
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}, {"check_status", true}}),
            R"({"status": "unknown", "message": "No download or conversion in progress"})");
  EXPECT_TRUE(ExistsAbs(Storage()));  // get_paper_path creates the storage directory, even for a status check
  clock_->Set(ParseTimestamp("2025-03-31T12:00:00.5Z")->utc);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}}), Converting());
  EXPECT_EQ(ReadAbs(Storage("1706.03762.md")), "# Attention Is All You Need\r\n\r\nThe Transformer.\r\n");
  EXPECT_FALSE(ExistsAbs(Storage("1706.03762.pdf")));  // the store had markdown only
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}, {"check_status", true}}),
            std::string(R"({"status": "success", )") + kStarted +
                R"(, "completed_at": "2025-03-31T12:00:00.500000", "error": null, "message": "Paper conversion success"})");
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}}),
            R"({"status": "success", "message": "Paper already available", "resource_uri": "file://)" +
                Storage("1706.03762.md") + "\"}");
  // read_paper.py: json.dumps({"status", "paper_id", "content"}); the file
  // read in text mode (universal newlines).
  EXPECT_EQ(Text("read_paper", {{"paper_id", "1706.03762"}}),
            R"({"status": "success", "paper_id": "1706.03762", "content": "# Attention Is All You Need\n\nThe Transformer.\n"})");
}

TEST_F(ArxivTest, DownloadPdfConvertsWithPoppler) {
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1810.04805v2"}}), Converting());
  EXPECT_EQ(ReadAbs(Storage("1810.04805v2.pdf")), testing::BertPdf());
  EXPECT_EQ(ReadAbs(Storage("1810.04805v2.md")), testing::kBertMarkdown);
  struct stat st {};
  ASSERT_EQ(::stat(Storage("1810.04805v2.md").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  EXPECT_EQ(Text("read_paper", {{"paper_id", "1810.04805v2"}}),
            R"({"status": "success", "paper_id": "1810.04805v2", "content": ")" +
                Json(testing::kBertMarkdown).dump().substr(1) + "}");
  // Without the version it is another file (upstream names files by the id as given).
  EXPECT_EQ(Text("read_paper", {{"paper_id", "1810.04805"}}),
            R"({"status": "error", "message": "Paper 1810.04805 not found in storage. You may need to download it first using download_paper."})");
}

// A store entry with both files: the PDF is copied (upstream keeps <id>.pdf
// beside the markdown) and the store's markdown is used as is.
TEST_F(ArxivTest, DownloadPrefersStoreMarkdown) {
  const std::string pdf = testing::MakePdf({{{72, 72, 11, false, "From the PDF"}}});
  AddPaper("2501.00004",
           R"({"id": "2501.00004v1", "title": "Both", "authors": [], "summary": "s", "categories": [],
               "published": "2025-01-01"})",
           "# From the markdown\n", &pdf);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2501.00004"}}), Converting());
  EXPECT_EQ(ReadAbs(Storage("2501.00004.pdf")), pdf);
  EXPECT_EQ(ReadAbs(Storage("2501.00004.md")), "# From the markdown\n");
}

TEST_F(ArxivTest, DownloadMessagesForMissingPapers) {
  // download.py: StopIteration from an empty arXiv answer.
  EXPECT_EQ(Text("download_paper", {{"paper_id", "9999.99999"}}),
            R"({"status": "error", "message": "Paper 9999.99999 not found on arXiv"})");
  EXPECT_EQ(Text("download_paper", {{"paper_id", "../../outside/secret"}}),
            R"({"status": "error", "message": "Paper ../../outside/secret not found on arXiv"})");
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762v1"}}),  // the store has v7 only
            R"({"status": "error", "message": "Paper 1706.03762v1 not found on arXiv"})");
  // Deliberate difference: nothing is recorded for a paper that was not
  // found (upstream leaves it "downloading" forever).
  EXPECT_EQ(Text("download_paper", {{"paper_id", "9999.99999"}, {"check_status", true}}),
            R"({"status": "unknown", "message": "No download or conversion in progress"})");
  // Any other failure: {"status": "error", "message": "Error: <what>"}.
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1911.10500"}}),
            R"({"status": "error", "message": "Error: paper store entry 1911.10500 has neither paper.md nor paper.pdf"})");
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2401.00001"}}),
            R"({"status": "error", "message": "Error: paper store entry 2401.00001/metadata.json: \"title\" must be a string"})");
}

// download.py convert_pdf_to_markdown: a failed conversion leaves status
// "error" with the exception text; later calls report it, none retries.
TEST_F(ArxivTest, ConversionErrorIsReported) {
  const std::string junk = "%PDF-1.4 not really";
  AddPaper("2501.00002",
           R"({"id": "2501.00002v1", "title": "Broken PDF", "authors": ["X"], "summary": "s",
               "categories": ["cs.DL"], "published": "2025-01-01T00:00:00Z"})",
           nullptr, &junk);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2501.00002"}}), Converting());
  EXPECT_EQ(ReadAbs(Storage("2501.00002.pdf")), junk);
  EXPECT_FALSE(ExistsAbs(Storage("2501.00002.md")));
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2501.00002"}, {"check_status", true}}),
            std::string(R"({"status": "error", )") + kStarted +
                R"x(, "completed_at": "2025-03-31T12:00:00.500000", "error": "the PDF could not be opened (damaged or not a PDF)", "message": "Paper conversion error"})x");
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2501.00002"}}),
            std::string(R"({"status": "error", "message": "Paper conversion error", )") + kStarted + "}");
}

TEST_F(ArxivTest, DownloadBounds) {
  Options o;
  o.max_pdf_pages = 1;
  o.max_markdown_bytes = 20;
  Start(o);
  const std::string two_pages = testing::MakePdf({{{72, 72, 11, false, "one"}}, {{72, 72, 11, false, "two"}}});
  AddPaper("2501.00003",
           R"({"id": "2501.00003", "title": "T", "authors": [], "summary": "s", "categories": [],
               "published": "2025-01-01"})",
           nullptr, &two_pages);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2501.00003"}}), Converting());
  EXPECT_NE(Text("download_paper", {{"paper_id", "2501.00003"}, {"check_status", true}})
                .find(R"("error": "the PDF has 2 pages, more than the limit of 1")"),
            std::string::npos);
  // The store's markdown is over the 20-byte bound: a conversion error, nothing written.
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}}), Converting());
  EXPECT_NE(Text("download_paper", {{"paper_id", "1706.03762"}, {"check_status", true}})
                .find(R"("error": ")" + store_ + R"(/1706.03762/paper.md is larger than 20 bytes")"),
            std::string::npos);
  EXPECT_FALSE(ExistsAbs(Storage("1706.03762.md")));
  // read_paper refuses a file over the bound.
  WriteAbs(Storage("big.md"), std::string(21, 'x'));
  EXPECT_EQ(Text("read_paper", {{"paper_id", "big"}}),
            R"({"status": "error", "message": "Error reading paper: )" + Storage("big.md") +
                R"( is larger than 20 bytes"})");
}

// list_papers.py: the .md files in storage (glob "*.md", so hidden files
// are not listed), each looked up on arXiv (here: the store) for title,
// summary, authors, links and pdf_url; total_papers counts the files.
TEST_F(ArxivTest, ListPapers) {
  EXPECT_EQ(Text("list_papers"), "{\n  \"total_papers\": 0,\n  \"papers\": []\n}");
  EXPECT_TRUE(ExistsAbs(Storage()));  // upstream creates the storage path on access
  for (const char* id : {"hep-th/9711200", "1706.03762"})
    EXPECT_EQ(Text("download_paper", {{"paper_id", id}}), Converting());
  EXPECT_TRUE(ExistsAbs(Storage("hep-th_9711200.md")));
  WriteAbs(Storage("notes.md"), "my notes\n");      // not a paper: counted, not listed
  WriteAbs(Storage(".hidden.md"), "x");             // not matched by the glob
  WriteAbs(Storage("1810.04805.txt"), "x");         // not markdown
  EXPECT_EQ(Text("list_papers"), R"({
  "total_papers": 3,
  "papers": [
    {
      "title": "Attention Is All You Need",
      "summary": "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks. We propose the Transformer, based solely on\nattention mechanisms.",
      "authors": [
        "Ashish Vaswani",
        "Noam Shazeer",
        "Niki Parmar"
      ],
      "links": [
        "http://arxiv.org/abs/1706.03762v7",
        "http://arxiv.org/pdf/1706.03762v7"
      ],
      "pdf_url": "http://arxiv.org/pdf/1706.03762v7"
    },
    {
      "title": "The Large N Limit of Superconformal Field Theories and Supergravity",
      "summary": "We show that the large N limit of certain conformal field theories can be described in terms of supergravity.",
      "authors": [
        "Juan M. Maldacena"
      ],
      "links": [
        "http://dx.doi.org/10.1023/A:1026654312961",
        "http://arxiv.org/abs/hep-th/9711200v3",
        "http://arxiv.org/pdf/hep-th/9711200v3"
      ],
      "pdf_url": "http://arxiv.org/pdf/hep-th/9711200v3"
    }
  ]
})");
  // Old-style ids read back under the id they were downloaded with.
  EXPECT_EQ(Text("read_paper", {{"paper_id", "hep-th/9711200"}}),
            R"({"status": "success", "paper_id": "hep-th/9711200", "content": "# The Large N Limit\n\nSupergravity.\n"})");
}

// read_paper.py: the "not found in storage" message, and "Error reading
// paper: <exception>" for a file that cannot be read as UTF-8.
TEST_F(ArxivTest, ReadPaperErrors) {
  EXPECT_EQ(Text("read_paper", {{"paper_id", "1706.03762"}}),
            R"({"status": "error", "message": "Paper 1706.03762 not found in storage. You may need to download it first using download_paper."})");
  WriteAbs(Storage("2501.00009.md"), "ok\xff");
  EXPECT_EQ(Text("read_paper", {{"paper_id", "2501.00009"}}),
            R"({"status": "error", "message": "Error reading paper: 'utf-8' codec can't decode byte 0xff in position 2: invalid start byte"})");
  ASSERT_EQ(::mkdir(Storage("dir.md").c_str(), 0755), 0);
  EXPECT_EQ(Text("read_paper", {{"paper_id", "dir"}}),
            R"({"status": "error", "message": "Error reading paper: [Errno 21] Is a directory: ')" + Storage("dir.md") +
                "'\"}");
}

// A file the agent deleted (or a re-initialized workspace) after a success:
// deliberate difference — the stale "success" is forgotten and the paper
// can be fetched again (upstream keeps answering "Paper conversion success").
TEST_F(ArxivTest, StaleSuccessIsForgotten) {
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}}), Converting());
  ASSERT_EQ(::unlink(Storage("1706.03762.md").c_str()), 0);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}, {"check_status", true}}),
            R"({"status": "unknown", "message": "No download or conversion in progress"})");
  clock_->Set(ParseTimestamp("2025-04-01T08:09:10Z")->utc);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}}),
            R"({"status": "converting", "message": "Paper downloaded, conversion started", "started_at": "2025-04-01T08:09:10"})");
  EXPECT_TRUE(ExistsAbs(Storage("1706.03762.md")));
  // A paper placed in storage by other means counts as ready.
  WriteAbs(Storage("2501.00010.md"), "x");
  EXPECT_EQ(Text("download_paper", {{"paper_id", "2501.00010"}, {"check_status", true}}),
            R"({"status": "success", "message": "Paper is ready", "resource_uri": "file://)" +
                Storage("2501.00010.md") + "\"}");
}

TEST_F(ArxivTest, CustomStoragePath) {
  Options o;
  o.storage_path = ws_ + "/.arxiv-mcp-server/papers";
  Start(o);
  EXPECT_EQ(Text("download_paper", {{"paper_id", "1706.03762"}}), Converting());
  EXPECT_TRUE(ExistsAbs(ws_ + "/.arxiv-mcp-server/papers/1706.03762.md"));
  EXPECT_FALSE(ExistsAbs(Storage()));
}

}  // namespace
}  // namespace sbx::servers::arxiv
