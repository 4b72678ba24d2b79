// PDF → markdown with poppler over PDFs written by the test itself.
#include "servers/arxiv/pdf_markdown.h"

#include <gtest/gtest.h>

#include "servers/arxiv/test_pdf.h"

namespace sbx::servers::arxiv {
namespace {

using testing::MakePdf;
using testing::PdfLine;

const auto kNever = [] { return false; };

std::string TinyPaper() {
  return MakePdf({
      {
          {72, 80, 20, false, "A Tiny Paper on Sandboxes"},
          {72, 110, 11, false, "Ada Lovelace"},
          {72, 140, 11, true, "Abstract"},
          {72, 160, 11, false, "We study sandboxes for agents. They isolate tools"},
          {72, 174, 11, false, "and keep hosts safe."},
          {72, 210, 14, false, "1 Introduction"},
          {72, 235, 11, false, "Sandboxes matter (a lot)."},
      },
      {
          {72, 80, 14, false, "2 Method"},
          {72, 105, 11, false, "We use namespaces and cgroups."},
      },
  });
}

TEST(PdfMarkdown, HeadingsParagraphsAndPageRules) {
  auto md = PdfToMarkdown(TinyPaper(), PdfLimits{}, kNever);
  ASSERT_TRUE(md) << md.error().message;
  EXPECT_EQ(*md,
            "# A Tiny Paper on Sandboxes\n\n"
            "Ada Lovelace\n\n"
            "Abstract\n\n"
            "We study sandboxes for agents. They isolate tools\nand keep hosts safe.\n\n"
            "## 1 Introduction\n\n"
            "Sandboxes matter (a lot).\n\n"
            "-----\n\n"
            "## 2 Method\n\n"
            "We use namespaces and cgroups.\n\n"
            "-----\n\n");
}

TEST(PdfMarkdown, PageLimit) {
  auto md = PdfToMarkdown(TinyPaper(), PdfLimits{1, 1 << 20}, kNever);
  ASSERT_FALSE(md);
  EXPECT_EQ(md.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(md.error().message, "the PDF has 2 pages, more than the limit of 1");
}

TEST(PdfMarkdown, OutputLimit) {
  auto md = PdfToMarkdown(TinyPaper(), PdfLimits{10, 100}, kNever);
  ASSERT_FALSE(md);
  EXPECT_EQ(md.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(md.error().message, "the paper's text is larger than 100 bytes");
}

TEST(PdfMarkdown, NotAPdf) {
  for (const std::string& junk : {std::string(), std::string("hello"), std::string("%PDF-1.4\n1 0 obj\n<<"),
                                  TinyPaper().substr(0, 200)}) {
    auto md = PdfToMarkdown(junk, PdfLimits{}, kNever);
    ASSERT_FALSE(md) << junk.size();
    EXPECT_EQ(md.error().message, "the PDF could not be opened (damaged or not a PDF)");
  }
}

TEST(PdfMarkdown, CancelledBetweenPages) {
  auto md = PdfToMarkdown(TinyPaper(), PdfLimits{}, [] { return true; });
  ASSERT_FALSE(md);
  EXPECT_EQ(md.error().code, ErrorCode::kUnavailable);
}

TEST(PdfMarkdown, EmptyPageKeepsItsRule) {
  auto md = PdfToMarkdown(MakePdf({{{72, 72, 11, false, "Only text."}}, {}}), PdfLimits{}, kNever);
  ASSERT_TRUE(md) << md.error().message;
  EXPECT_EQ(*md, "Only text.\n\n-----\n\n\n\n-----\n\n");
}

}  // namespace
}  // namespace sbx::servers::arxiv
