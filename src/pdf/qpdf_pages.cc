// Page surgery with qpdf (merge, extract). A translation unit of its own,
// built as C++17: qpdf 11.3's JSON.hh does not compile with clang's C++20
// library checks (the fuzz build), and nothing here needs C++20.
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <exception>
#include <memory>
#include <new>

#include "pdf/commands.h"

namespace sbx::pdf {
namespace {

// qpdf reading `pdf`, recovering what it can as PyPDF2 does, silently.
std::unique_ptr<QPDF> OpenQpdf(const std::string& pdf, const std::string& name) {
  auto q = std::make_unique<QPDF>();
  q->setSuppressWarnings(true);
  q->processMemoryFile(name.c_str(), pdf.data(), pdf.size());
  return q;
}

std::string WriteQpdf(QPDF& q) {
  QPDFWriter w(q);
  w.setOutputMemory();
  // Deterministic output: the same pages give the same bytes.
  w.setStaticID(false);
  w.setDeterministicID(true);
  w.write();
  auto buffer = w.getBufferSharedPointer();
  return std::string(reinterpret_cast<const char*>(buffer->getBuffer()), buffer->getSize());
}

// qpdf's exception texts vary with the damage; one fixed text for all keeps
// tool results stable. Memory is told apart: the file may be fine.
std::string QpdfMessage(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "the PDF needs more memory than the helper may use";
  return kUnreadablePdf;
}

}  // namespace

Json Merge(const std::vector<std::string>& pdfs, std::string& output) {
  output.clear();
  Json counts = Json::array();
  std::vector<std::unique_ptr<QPDF>> inputs;
  QPDF out;
  out.emptyPDF();
  QPDFPageDocumentHelper out_pages(out);
  for (std::size_t i = 0; i < pdfs.size(); ++i) {
    try {
      inputs.push_back(OpenQpdf(pdfs[i], "input"));
      auto pages = QPDFPageDocumentHelper(*inputs.back()).getAllPages();
      for (auto& page : pages) out_pages.addPage(page, false);
      counts.push_back(pages.size());
    } catch (const std::exception& e) {
      Json error = ErrorReply(QpdfMessage(e));
      error["input"] = i;
      return error;
    }
  }
  try {
    output = WriteQpdf(out);
  } catch (const std::exception& e) {
    output.clear();
    return ErrorReply(QpdfMessage(e));
  }
  return Json{{"page_counts", std::move(counts)}};
}

Json Extract(const std::string& pdf, const std::vector<long long>& wanted, std::string& output) {
  output.clear();
  try {
    auto in = OpenQpdf(pdf, "input");
    auto pages = QPDFPageDocumentHelper(*in).getAllPages();
    const long long total = static_cast<long long>(pages.size());
    Json extracted = Json::array();
    QPDF out;
    out.emptyPDF();
    QPDFPageDocumentHelper out_pages(out);
    for (long long n : wanted) {
      if (n < 1 || n > total) continue;
      // A page listed twice appears twice: qpdf copies it the second time.
      out_pages.addPage(pages[static_cast<std::size_t>(n - 1)], false);
      extracted.push_back(n);
    }
    if (!extracted.empty()) output = WriteQpdf(out);
    return Json{{"page_count", total}, {"extracted", std::move(extracted)}};
  } catch (const std::exception& e) {
    output.clear();
    return ErrorReply(QpdfMessage(e));
  }
}

}  // namespace sbx::pdf
