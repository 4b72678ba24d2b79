// Test helper: writes small, valid PDFs by hand (Letter pages, the standard
// Helvetica fonts, one text run per line), so tests need no binary fixture.
#pragma once

#include <string>
#include <vector>

namespace sbx::servers::arxiv::testing {

struct PdfLine {
  double x = 72;
  double y = 72;  // from the top of the page, in points
  double size = 11;
  bool bold = false;
  std::string text;  // Latin-1 subset: ASCII only in these tests
};

// A PDF with one page per element of `pages`.
std::string MakePdf(const std::vector<std::vector<PdfLine>>& pages);

}  // namespace sbx::servers::arxiv::testing
