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
#include <regex>
#include <string_view>

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

std::wstring Wide(const std::string& utf8) {
  std::wstring out;
  for (std::size_t i = 0; i < utf8.size();) {
    unsigned char c = static_cast<unsigned char>(utf8[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) >= utf8.size() + (extra == 0 ? 1 : 0)) {
      out += L'\uFFFD';
      ++i;
      continue;
    }
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    out += static_cast<wchar_t>(cp);
    i += static_cast<std::size_t>(extra) + 1;
  }
  return out;
}

std::string Narrow(std::wstring_view wide) {
  std::string out;
  for (wchar_t w : wide) {
    auto cp = static_cast<char32_t>(w);
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

}  // namespace

Json Search(const std::string& pdf, const std::string& pattern, std::size_t context, std::size_t max_matches,
            const TextBounds& bounds) {
  Json error;
  auto doc = Open(pdf, error);
  if (!doc) return error;
  const int total = doc->pages();
  Json matches = Json::array();
  std::optional<std::wregex> re;
  try {
    re.emplace(Wide(pattern), std::regex::ECMAScript | std::regex::icase | std::regex::multiline);
  } catch (const std::regex_error&) {
    // As upstream: an invalid pattern finds nothing.
  }
  std::uint64_t bytes = 0, text_bytes = 0;
  for (int i = 0; re && i < total; ++i) {
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    const std::string utf8 = PageText(page.get());
    text_bytes += utf8.size();
    if (text_bytes > bounds.max_output_bytes)
      return ErrorReply("the text of the PDF is larger than " + std::to_string(bounds.max_output_bytes) + " bytes",
                        "too_large");
    const std::wstring text = Wide(utf8);
    for (auto it = std::wsregex_iterator(text.begin(), text.end(), *re); it != std::wsregex_iterator(); ++it) {
      const auto start = static_cast<std::size_t>(it->position(0));
      const auto end = start + static_cast<std::size_t>(it->length(0));
      const std::size_t from = start > context ? start - context : 0;
      const std::size_t to = std::min(text.size(), end + context);
      const std::wstring_view view(text);
      Json match = Json::array({i + 1, Narrow(view.substr(start, end - start)), Narrow(view.substr(from, start - from)),
                                Narrow(view.substr(end, to - end))});
      bytes += match[1].get_ref<const std::string&>().size() + match[2].get_ref<const std::string&>().size() +
               match[3].get_ref<const std::string&>().size() + 16;
      if (matches.size() >= max_matches || bytes > bounds.max_output_bytes)
        return ErrorReply("the search found more matches than the server keeps (at most " +
                              std::to_string(max_matches) + " matches or " + std::to_string(bounds.max_output_bytes) +
                              " bytes of them); narrow the pattern",
                          "too_large");
      matches.push_back(std::move(match));
    }
  }
  return Json{{"page_count", total}, {"matches", std::move(matches)}};
}

Json Markdown(const std::string& pdf, int max_pages, std::uint64_t max_output_bytes) {
  auto md = PdfToMarkdown(pdf, PdfLimits{max_pages, max_output_bytes}, nullptr);
  if (!md) return ErrorReply(md.error().message, md.error().code == ErrorCode::kTooLarge ? "too_large" : "invalid_argument");
  return Json{{"markdown", std::move(*md)}};
}

}  // namespace sbx::pdf
