#include "pdf/test_pdfs.h"

#include <cstdio>

namespace sbx::pdf::testing {
std::string PdfString(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string AssemblePdf(const std::vector<std::string>& objects, const std::string& trailer_extra) {
  std::string out = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.size());
    out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  char line[32];
  for (std::size_t offset : offsets) {
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
    out += line;
  }
  out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R" + trailer_extra +
         " >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

std::string MakePdf(const std::vector<std::vector<std::string>>& pages, const std::map<std::string, std::string>& info) {
  // Objects: 1 catalog, 2 pages, 3 font, 4 info, then page/content pairs.
  std::vector<std::string> objects;
  std::string kids;
  for (std::size_t i = 0; i < pages.size(); ++i) kids += std::to_string(5 + 2 * i) + " 0 R ";
  objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(pages.size()) + " >>");
  objects.push_back("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  std::string info_dict = "<< ";
  for (const auto& [key, value] : info) info_dict += "/" + key + " (" + PdfString(value) + ") ";
  objects.push_back(info_dict + ">>");
  for (std::size_t i = 0; i < pages.size(); ++i) {
    std::string content = "BT /F1 12 Tf 14 TL 72 720 Td\n";
    for (const std::string& line : pages[i]) content += "(" + PdfString(line) + ") Tj T*\n";
    content += "ET\n";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                      "/Contents " + std::to_string(6 + 2 * i) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "endstream");
  }
  return AssemblePdf(objects, info.empty() ? "" : " /Info 4 0 R");
}

}  // namespace sbx::pdf::testing
