// The pdf-tools tools over a temporary workspace, with the real
// sandbox-pdf helper and PDFs written by the test.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "pdf/test_pdfs.h"
#include "servers/pdf_tools/pdf_tools.h"
#include "servers/test_support/server_test.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::pdf_tools {
namespace {

using pdf::testing::MakePdf;

class FakeClock final : public Clock {
 public:
  UnixMicros Now() const override { return now; }
  UnixMicros now = 1'700'000'000'000'000;
};

class PdfToolsTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    base_ = test_support::MakeTempDir("pdf_tools");
    workspace_ = base_ + "/data";
    ASSERT_EQ(::mkdir(workspace_.c_str(), 0755), 0);
    WriteAbs(workspace_ + "/three.pdf",
             MakePdf({{"Alpha one", "apple pie"}, {"Beta two"}, {"Gamma three", "Apple tart"}},
                     {{"Title", "Fruit"}, {"Author", "Ada"}}));
    WriteAbs(workspace_ + "/plain.pdf", MakePdf({{"Only page"}}));
    WriteAbs(workspace_ + "/notes.txt", "not a pdf");
    WriteAbs(base_ + "/outside.pdf", MakePdf({{"Secret"}}));
    Open("");
  }
  void TearDown() override { std::system(("rm -rf '" + base_ + "'").c_str()); }
  void Open(const std::string& variant) {
    Options o;
    o.workspace = workspace_;
    o.variant = variant;
    o.clock = clock_;
    OpenSession(MakeServer(o));
  }
  // The {"result": …} text of a call, checked against its text block.
  std::string Text(const std::string& tool, Json args) {
    Json r = Call(tool, std::move(args));
    EXPECT_FALSE(r.value("isError", false)) << r.dump();
    EXPECT_EQ(r["structuredContent"]["result"], r["content"][0]["text"]);
    return r["content"][0].value("text", "");
  }

  std::string base_, workspace_;
  std::shared_ptr<FakeClock> clock_ = std::make_shared<FakeClock>();
};

TEST_F(PdfToolsTest, ToolsListEqualsReference) {
  auto want = test_support::ReadJsonFile(PDF_TOOLS_REFERENCE_JSON);
  if (!want) GTEST_SKIP() << "no reference capture at " << PDF_TOOLS_REFERENCE_JSON;
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(ListTools(), (*want)["tools"],
                                                         {.exact = {"inputSchema", "outputSchema"}}));
}

TEST_F(PdfToolsTest, KlavisToolsListEqualsReference) {
  auto want = test_support::ReadJsonFile(PDF_TOOLS_KLAVIS_JSON);
  if (!want) GTEST_SKIP() << "no reference capture at " << PDF_TOOLS_KLAVIS_JSON;
  Open("klavis");
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(ListTools(), (*want)["tools"],
                                                         {.exact = {"inputSchema", "annotations"},
                                                          .absent = {"outputSchema"}}));
}

TEST_F(PdfToolsTest, ReadPagesClampsAndWarns) {
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "three.pdf"}}),
            "PDF total pages: 3\nExtracted page range: 1-1\n\n=== Page 1 ===\nAlpha one\napple pie\n");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", workspace_ + "/three.pdf"}, {"start_page", 3}, {"end_page", 0}}),
            "PDF total pages: 3\nExtracted page range: 1-3\n\n=== Page 1 ===\nAlpha one\napple pie\n\n\n"
            "=== Page 2 ===\nBeta two\n\n\n=== Page 3 ===\nGamma three\nApple tart\n");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "three.pdf"}, {"start_page", "2"}, {"end_page", 99}}),
            "Warning: Reading more than 50 pages at once may cause performance issues or errors.\n"
            "PDF total pages: 3\nExtracted page range: 2-3\n\n=== Page 2 ===\nBeta two\n\n\n"
            "=== Page 3 ===\nGamma three\nApple tart\n");
}

TEST_F(PdfToolsTest, ReadPagesErrors) {
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "missing.pdf"}}), "Error: File not found 'missing.pdf'");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "../outside.pdf"}}),
            "Error: Path '../outside.pdf' is outside the allowed workspace '" + workspace_ + "'");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "notes.txt"}}),
            "Error processing PDF: the file is not a readable PDF (damaged, truncated or another format)");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", ""}}), "Error: File not found ''");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "."}}),
            "Error reading PDF file: [Errno 21] Is a directory: '.'");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "https://example.com/a.pdf"}}),
            "Error resolving path: Failed to download PDF from URL: HTTPSConnectionPool(host='example.com', "
            "port=443): Max retries exceeded with url: /a.pdf (Caused by NameResolutionError(\"Failed to resolve "
            "'example.com' ([Errno -3] Temporary failure in name resolution)\"))");
  EXPECT_EQ(Err("read_pdf_pages", {{"start_page", "x"}}),
            "Error executing tool read_pdf_pages: 2 validation errors for read_pdf_pagesArguments\n"
            "pdf_file_path\n  Field required [type=missing, input_value={'start_page': 'x'}, input_type=dict]\n"
            "    For further information visit https://errors.pydantic.dev/2.11/v/missing\n"
            "start_page\n  Input should be a valid integer, unable to parse string as an integer "
            "[type=int_parsing, input_value='x', input_type=str]\n"
            "    For further information visit https://errors.pydantic.dev/2.11/v/int_parsing");
}

TEST_F(PdfToolsTest, Info) {
  EXPECT_EQ(Text("get_pdf_info", {{"pdf_file_path", "three.pdf"}}),
            "PDF file information:\nTotal pages: 3\nTitle: Fruit\nAuthor: Ada\nCreator: Unknown\n"
            "Creation date: Unknown\n");
  EXPECT_EQ(Text("get_pdf_info", {{"pdf_file_path", "plain.pdf"}}), "PDF file information:\nTotal pages: 1\n");
}

TEST_F(PdfToolsTest, MergeAndExtract) {
  EXPECT_EQ(Text("merge_pdfs", {{"pdf_paths", {"three.pdf", "plain.pdf"}}, {"output_path", "out/merged.pdf"}}),
            "Error merging PDFs: [Errno 2] No such file or directory: 'out/merged.pdf'");
  EXPECT_FALSE(Exists(workspace_ + "/out"));
  EXPECT_EQ(Text("merge_pdfs", {{"pdf_paths", {"three.pdf", "plain.pdf"}}, {"output_path", "merged.pdf"}}),
            "Successfully merged 2 PDFs into 'merged.pdf'\nTotal pages: 4");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "merged.pdf"}, {"start_page", 4}, {"end_page", 4}}),
            "PDF total pages: 4\nExtracted page range: 4-4\n\n=== Page 4 ===\nOnly page\n");
  EXPECT_EQ(Text("merge_pdfs", {{"pdf_paths", {"three.pdf", "notes.txt"}}, {"output_path", "merged.pdf"}}),
            "Error reading PDF 'notes.txt': the file is not a readable PDF (damaged, truncated or another format)");
  EXPECT_EQ(Text("merge_pdfs", {{"pdf_paths", {"nope.pdf"}}, {"output_path", "m.pdf"}}),
            "Error reading PDF 'nope.pdf': [Errno 2] No such file or directory: 'nope.pdf'");
  EXPECT_EQ(Text("merge_pdfs", {{"pdf_paths", {"three.pdf"}}, {"output_path", ""}}),
            "Error merging PDFs: [Errno 2] No such file or directory: ''");
  EXPECT_EQ(Text("merge_pdfs", {{"pdf_paths", {"three.pdf"}}, {"output_path", "http://x/y.pdf"}}),
            "Error: Output path cannot be a URL, must be a local file path");

  EXPECT_EQ(Text("extract_pdf_pages",
                 {{"source_path", "three.pdf"}, {"page_numbers", {3, 0, 1, 9}}, {"output_path", "sub.pdf"}}),
            "Successfully extracted 2 pages from 'three.pdf' to 'sub.pdf'\nExtracted pages: [3, 1]\n"
            "Source PDF total pages: 3");
  EXPECT_EQ(Text("read_pdf_pages", {{"pdf_file_path", "sub.pdf"}, {"end_page", 2}}),
            "PDF total pages: 2\nExtracted page range: 1-2\n\n=== Page 1 ===\nGamma three\nApple tart\n\n\n"
            "=== Page 2 ===\nAlpha one\napple pie\n");
  EXPECT_EQ(Text("extract_pdf_pages", {{"source_path", "three.pdf"}, {"page_numbers", {7}}, {"output_path", "x.pdf"}}),
            "Error: No valid pages to extract from PDF (total pages: 3)");
  // upstream words a missing output directory as the source not found.
  EXPECT_EQ(Text("extract_pdf_pages",
                 {{"source_path", "three.pdf"}, {"page_numbers", {1}}, {"output_path", "no/dir.pdf"}}),
            "Error: File not found 'three.pdf'");
  EXPECT_FALSE(Exists(workspace_ + "/x.pdf"));
}

TEST_F(PdfToolsTest, SearchPagingAndExpiry) {
  EXPECT_EQ(Text("search_pdf_content", {{"pdf_file_path", "three.pdf"}, {"pattern", "zzz"}}),
            "No matches found for pattern: zzz");
  EXPECT_EQ(Text("search_pdf_content", {{"pdf_file_path", "notes.txt"}, {"pattern", "a"}}),
            "Error: Could not extract text from PDF or PDF is empty");
  std::string first = Text("search_pdf_content", {{"pdf_file_path", "three.pdf"}, {"pattern", "apple"}, {"page_size", 5}});
  ASSERT_GT(first.size(), 100u);
  const std::string id = first.substr(first.find("Search ID: ") + 11, 8);
  EXPECT_EQ(first, "Warning: Page size 5 is out of range (10-50). Using default value 10.\nSearch ID: " + id +
                       "\nPattern: apple\nTotal matches: 2\nPage: 1/1\nResults per page: 10\n\n"
                       "Match 1:\n  Page: 1\n  Text: \"apple\"\n  Context: ...Alpha one\n[apple] pie\n...\n\n"
                       "Match 2:\n  Page: 3\n  Text: \"Apple\"\n  Context: ...Gamma three\n[Apple] tart\n...\n\n");
  EXPECT_EQ(Text("search_pdf_next_page", {{"search_id", id}}), "Already on last page (1/1)");
  EXPECT_EQ(Text("search_pdf_prev_page", {{"search_id", id}}), "Already on first page (1)");
  EXPECT_EQ(Text("search_pdf_go_page", {{"search_id", id}, {"page_number", 2}}),
            "Error: Page number 2 is out of range (1-1)");
  EXPECT_EQ(Text("search_pdf_info", {{"search_id", id}}),
            "Search Session Information:\nSearch ID: " + id +
                "\nPDF Path: three.pdf\nPattern: apple\nTotal matches: 2\nCurrent page: 1/1\nResults per page: 10\n"
                "Last accessed: 2023-11-14 22:13:20\n");
  // Idle past the TTL, the session goes at the next cleanup (more than 20 sessions).
  clock_->now += 31LL * 60 * 1'000'000;
  for (int i = 0; i < 21; ++i) Text("search_pdf_content", {{"pdf_file_path", "three.pdf"}, {"pattern", "tart"}});
  EXPECT_EQ(Text("search_pdf_next_page", {{"search_id", id}}), "Error: Search session '" + id + "' not found or expired");
}

TEST_F(PdfToolsTest, Klavis) {
  Open("klavis");
  Json r = Call("pdf_tools_get_pdf_info", {{"file_path", "plain.pdf"}});
  EXPECT_EQ(r["content"][0]["text"],
            "{\n  \"file_path\": \"plain.pdf\",\n  \"num_pages\": 1,\n  \"metadata\": {},\n  \"page_sizes\": [\n"
            "    {\n      \"page\": 1,\n      \"width\": 612.0,\n      \"height\": 792.0\n    }\n  ],\n"
            "  \"is_encrypted\": false\n}");
  r = Call("pdf_tools_read_pdf", {{"file_path", "../outside.pdf"}});
  EXPECT_EQ(r["content"][0]["text"], "{\n  \"error\": \"Unexpected error: Access denied: ../outside.pdf is outside "
                                     "workspace directory\"\n}");
  r = Call("pdf_tools_extract_pages", {{"input_file", "three.pdf"}, {"output_file", "a/b/out.pdf"}, {"page_numbers", {2, 4}}});
  EXPECT_EQ(r["content"][0]["text"], "{\n  \"error\": \"Invalid page number 4. PDF has 3 pages.\"\n}");
  r = Call("pdf_tools_extract_pages", {{"input_file", "three.pdf"}, {"output_file", "a/b/out.pdf"}, {"page_numbers", {2}}});
  EXPECT_EQ(r["content"][0]["text"],
            "{\n  \"success\": true,\n  \"output_file\": \"a/b/out.pdf\",\n  \"pages_extracted\": 1,\n"
            "  \"message\": \"Successfully extracted 1 pages to a/b/out.pdf\"\n}");
  EXPECT_TRUE(Exists(workspace_ + "/a/b/out.pdf"));
  EXPECT_EQ(Err("pdf_tools_read_pdf", Json::object()), "Input validation error: 'file_path' is a required property");
}

}  // namespace
}  // namespace sbx::servers::pdf_tools

namespace sbx::servers::pdf_tools {
namespace {

TEST(PdfToolsOptions, CheckedAtStartup) {
  auto o = OptionsFromSettings(Json{{"max_file_bytes", 1000}, {"search_ttl_seconds", 5}, {"helper_cpu_seconds", 2}});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->max_file_bytes, 1000u);
  EXPECT_EQ(o->search_ttl_seconds, 5);
  EXPECT_EQ(HelperLimits(*o).cpu_seconds, 2);
  EXPECT_EQ(OptionsFromSettings(Json{{"helper_timeout_seconds", 0}}).error().message,
            "pdf-tools: helper_timeout_seconds must be an integer from 1 to 600");
  EXPECT_EQ(OptionsFromSettings(Json{{"max_text_bytes", "big"}}).error().message,
            "pdf-tools: max_text_bytes must be an integer from 1024 to 8388608");
  EXPECT_EQ(OptionsFromSettings(Json{{"workspace", "/"}}).error().message,
            "pdf-tools: unknown setting \"workspace\" (known: max_file_bytes, helper_memory_bytes, "
            "helper_cpu_seconds, helper_timeout_seconds, max_text_bytes, search_ttl_seconds)");
  EXPECT_EQ(OptionsFromSettings(Json::array()).error().message, "pdf-tools: settings must be a JSON object");
}

}  // namespace
}  // namespace sbx::servers::pdf_tools
