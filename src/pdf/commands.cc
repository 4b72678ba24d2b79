#include "pdf/commands.h"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <algorithm>
#include <climits>
#include <exception>
#include <memory>
#include <mutex>
#include <new>

#include "pdf/markdown.h"

namespace sbx::pdf {
namespace {

void Quiet(const std::string&, void*) {}

// Poppler prints its diagnostics to stderr unless told otherwise.
void SilencePoppler() {
  static std::once_flag once;
  std::call_once(once, [] { poppler::set_debug_error_function(Quiet, nullptr); });
}

std::string Utf8(const poppler::ustring& s) {
  poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

// Poppler ends a page's text with a blank line and a form feed (its page
// separator); without them the text ends as PyPDF2's does, with the last
// line's newline.
std::string PageText(const poppler::page* page) {
  if (page == nullptr) return {};
  std::string text = Utf8(page->text(poppler::rectf(), poppler::page::non_raw_non_physical_layout));
  if (text.ends_with('\f')) text.pop_back();
  if (text.ends_with("\n\n")) text.pop_back();
  return text;
}

const char* kUnreadable = "the file is not a readable PDF (damaged, truncated or another format)";

// The document, or null with `error` set.
std::unique_ptr<poppler::document> Open(const std::string& pdf, Json& error) {
  SilencePoppler();
  if (pdf.size() > static_cast<std::size_t>(INT32_MAX)) {
    error = ErrorReply("the PDF is too large to open", "too_large");
    return nullptr;
  }
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size())));
  if (!doc) {
    error = ErrorReply(kUnreadable);
    return nullptr;
  }
  if (doc->is_locked()) {
    error = ErrorReply("the PDF is password-protected");
    return nullptr;
  }
  return doc;
}

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
  return kUnreadable;
}

}  // namespace

Json ErrorReply(const std::string& message, const char* code) {
  return Json{{"error", message}, {"code", code}};
}

Json PageTexts(const std::string& pdf, long long first, long long last, const TextBounds& bounds) {
  Json error;
  auto doc = Open(pdf, error);
  if (!doc) return error;
  const long long total = doc->pages();
  // pdf-tools-mcp's validate_page_range, step by step.
  if (first < 1) first = 1;
  if (last < 1) last = 1;
  if (first > total) first = total;
  if (last > total) last = total;
  if (first > last) std::swap(first, last);
  Json texts = Json::array();
  std::uint64_t bytes = 0;
  for (long long i = std::max(first, 1LL); i <= last; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(static_cast<int>(i - 1)));
    std::string text = PageText(page.get());
    bytes += text.size();
    if (bytes > bounds.max_output_bytes)
      return ErrorReply("the text of the PDF is larger than " + std::to_string(bounds.max_output_bytes) + " bytes",
                        "too_large");
    texts.push_back(std::move(text));
  }
  return Json{{"page_count", total}, {"first", first}, {"last", last}, {"pages", std::move(texts)}};
}

Json Info(const std::string& pdf) {
  Json error;
  auto doc = Open(pdf, error);
  if (!doc) return error;
  Json metadata = Json::object();
  for (const std::string& key : doc->info_keys()) metadata[key] = Utf8(doc->info_key(key));
  Json sizes = Json::array();
  const int total = doc->pages();
  for (int i = 0; i < total; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    poppler::rectf box = page ? page->page_rect(poppler::media_box) : poppler::rectf();
    sizes.push_back(Json::array({box.width(), box.height()}));
  }
  return Json{{"page_count", total},
              {"metadata", std::move(metadata)},
              {"page_sizes", std::move(sizes)},
              {"encrypted", doc->is_encrypted()}};
}

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

Json Markdown(const std::string& pdf, int max_pages, std::uint64_t max_output_bytes) {
  auto md = PdfToMarkdown(pdf, PdfLimits{max_pages, max_output_bytes}, nullptr);
  if (!md) return ErrorReply(md.error().message, md.error().code == ErrorCode::kTooLarge ? "too_large" : "invalid_argument");
  return Json{{"markdown", std::move(*md)}};
}

}  // namespace sbx::pdf
