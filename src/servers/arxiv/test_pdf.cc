#include "servers/arxiv/test_pdf.h"

#include <cstdio>

#include "pdf/test_pdfs.h"

namespace sbx::servers::arxiv::testing {
namespace {

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

std::string MakePdf(const std::vector<std::vector<PdfLine>>& pages) {
  // Objects: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold, then a
  // page and its content stream per page.
  std::vector<std::string> objects;
  std::string kids;
  for (std::size_t i = 0; i < pages.size(); ++i) kids += std::to_string(5 + 2 * i) + " 0 R ";
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) + " >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  for (std::size_t i = 0; i < pages.size(); ++i) {
    std::string stream;
    for (const PdfLine& l : pages[i])
      stream += "BT /" + std::string(l.bold ? "F2 " : "F1 ") + Num(l.size) + " Tf " + Num(l.x) + " " +
                Num(792 - l.y) + " Td (" + pdf::testing::PdfString(l.text) + ") Tj ET\n";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
                      "/F2 4 0 R >> >> /Contents " +
                      std::to_string(6 + 2 * i) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "endstream");
  }
  return pdf::testing::AssemblePdf(objects);
}

}  // namespace sbx::servers::arxiv::testing
