#include "pdf/commands.h"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <algorithm>
#include <climits>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string_view>

#include "pdf/markdown.h"
#include "core/utf8.h"
#include "pdf/python_regex.h"

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
    error = ErrorReply(kUnreadablePdf);
    return nullptr;
  }
  if (doc->is_locked()) {
    error = ErrorReply("the PDF is password-protected");
    return nullptr;
  }
  return doc;
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

namespace {

// Upstream slices its context in code points (text[start - 100:end + 100]);
// the text is UTF-8 here, so count lead bytes, not bytes.
bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::size_t BackCodePoints(const std::string& text, std::size_t at, std::size_t n) {
  while (n > 0 && at > 0) {
    --at;
    while (at > 0 && IsContinuation(text[at])) --at;
    --n;
  }
  return at;
}

std::size_t ForwardCodePoints(const std::string& text, std::size_t at, std::size_t n) {
  for (; n > 0 && at < text.size(); --n) at = utf8::NextBoundary(text, at + 1);
  return at;
}

}  // namespace

Json Search(const std::string& pdf, const std::string& pattern, std::size_t context, std::size_t max_matches,
            const TextBounds& bounds) {
  Json error;
  auto doc = Open(pdf, error);
  if (!doc) return error;
  const int total = doc->pages();
  Json matches = Json::array();
  auto re = PythonRegex::Compile(pattern);
  // As upstream: a pattern Python's re refuses finds nothing (it catches
  // re.error and reports no matches).
  if (!re) return Json{{"page_count", total}, {"matches", std::move(matches)}};
  std::uint64_t bytes = 0, text_bytes = 0;
  for (int i = 0; i < total; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    const std::string text = PageText(page.get());
    text_bytes += text.size();
    if (text_bytes > bounds.max_output_bytes)
      return ErrorReply("the text of the PDF is larger than " + std::to_string(bounds.max_output_bytes) + " bytes",
                        "too_large");
    std::string failure;
    bool more = re->ForEachMatch(text, [&](std::size_t start, std::size_t end) {
      const std::size_t from = BackCodePoints(text, start, context);
      const std::size_t to = ForwardCodePoints(text, end, context);
      Json match = Json::array({i + 1, text.substr(start, end - start), text.substr(from, start - from),
                                text.substr(end, to - end)});
      bytes += (end - start) + (start - from) + (to - end) + 16;
      if (matches.size() >= max_matches || bytes > bounds.max_output_bytes) {
        failure = "the search found more matches than the server keeps (at most " + std::to_string(max_matches) +
                  " matches or " + std::to_string(bounds.max_output_bytes) + " bytes of them); narrow the pattern";
        return false;
      }
      matches.push_back(std::move(match));
      return true;
    }, failure);
    if (!more) return ErrorReply(failure, "too_large");
  }
  return Json{{"page_count", total}, {"matches", std::move(matches)}};
}

Json Markdown(const std::string& pdf, int max_pages, std::uint64_t max_output_bytes) {
  auto md = PdfToMarkdown(pdf, PdfLimits{max_pages, max_output_bytes}, nullptr);
  if (!md) return ErrorReply(md.error().message, md.error().code == ErrorCode::kTooLarge ? "too_large" : "invalid_argument");
  return Json{{"markdown", std::move(*md)}};
}

}  // namespace sbx::pdf
