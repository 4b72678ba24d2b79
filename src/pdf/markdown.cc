#include "pdf/markdown.h"

#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-page.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace sbx::pdf {
namespace {

struct Line {
  std::string text;
  double top = 0, bottom = 0;
  double size = 0;  // tallest word box on the line, rounded to 0.5 pt
};

// Word boxes are the font size times the font's ascent-to-descent span, so
// their heights rank font sizes. (Asking poppler for the fonts themselves
// makes it locate system fonts through fontconfig for every non-embedded
// font: slower, and fontconfig keeps allocations it never frees.)
double RoundSize(double size) { return std::round(size * 2) / 2; }

std::string Utf8(const poppler::ustring& s) {
  poppler::byte_array bytes = s.to_utf8();
  return std::string(bytes.begin(), bytes.end());
}

// The page's words grouped into lines, in poppler's reading order.
std::vector<Line> PageLines(const poppler::page& page) {
  std::vector<Line> lines;
  double last_center = 0, last_height = 0, last_right = 0;
  bool last_space = false;
  for (const poppler::text_box& box : page.text_list()) {
    std::string word = Utf8(box.text());
    if (word.empty()) continue;
    const poppler::rectf r = box.bbox();
    const double height = std::max(r.height(), 0.1);
    const double center = r.y() + height / 2;
    const bool same_line = !lines.empty() &&
                           std::abs(center - last_center) <= 0.5 * std::min(height, last_height) &&
                           r.x() >= last_right - 2 * height;
    if (!same_line) {
      lines.push_back(Line{"", r.y(), r.y() + height, 0});
    } else if (last_space || r.x() - last_right > 0.15 * height) {
      lines.back().text += ' ';
    }
    Line& line = lines.back();
    line.text += word;
    line.top = std::min(line.top, r.y());
    line.bottom = std::max(line.bottom, r.y() + height);
    line.size = std::max(line.size, RoundSize(height));
    last_center = center;
    last_height = height;
    last_right = r.x() + r.width();
    last_space = box.has_space_after();
  }
  return lines;
}

// Heading level by font size: sizes clearly above the body size, largest first.
std::map<double, int> HeadingLevels(const std::vector<std::vector<Line>>& pages) {
  std::map<double, std::size_t> chars_by_size;
  for (const auto& lines : pages)
    for (const Line& l : lines) chars_by_size[l.size] += l.text.size();
  double body = 0;
  std::size_t most = 0;
  for (const auto& [size, chars] : chars_by_size)
    if (chars > most) most = chars, body = size;
  std::map<double, int> levels;
  int level = 0;
  for (auto it = chars_by_size.rbegin(); it != chars_by_size.rend(); ++it)
    if (it->first > body * 1.15) levels[it->first] = std::min(++level, 6);
  return levels;
}

void AppendPage(std::string& out, const std::vector<Line>& lines, const std::map<double, int>& levels) {
  std::string block;
  int block_level = -1;
  const Line* prev = nullptr;
  auto flush = [&] {
    if (block.empty()) return;
    if (!out.empty() && !out.ends_with("\n\n")) out += "\n\n";
    if (block_level > 0) out += std::string(static_cast<std::size_t>(block_level), '#') + " ";
    out += block;
    block.clear();
  };
  for (const Line& line : lines) {
    auto found = levels.find(line.size);
    int level = found == levels.end() ? 0 : found->second;
    const std::string& text = line.text;
    const bool new_block = prev == nullptr || level != block_level || line.top < prev->top ||
                           line.top - prev->bottom > 0.7 * (prev->bottom - prev->top);
    if (new_block) {
      flush();
      block_level = level;
      block = text;
    } else {
      block += (level > 0 ? " " : "\n") + text;
    }
    prev = &line;
  }
  flush();
  out += "\n\n-----\n\n";
}

void Quiet(const std::string&, void*) {}

}  // namespace

Result<std::string> PdfToMarkdown(const std::string& pdf, const PdfLimits& limits,
                                  const std::function<bool()>& cancelled) {
  static std::mutex poppler_mu;
  static std::once_flag quiet_once;
  std::call_once(quiet_once, [] { poppler::set_debug_error_function(Quiet, nullptr); });
  std::lock_guard lock(poppler_mu);

  if (pdf.size() > static_cast<std::size_t>(INT32_MAX))
    return MakeError(ErrorCode::kInvalidArgument, "the PDF is too large to open");
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(pdf.data(), static_cast<int>(pdf.size())));
  if (!doc) return MakeError(ErrorCode::kInvalidArgument, "the PDF could not be opened (damaged or not a PDF)");
  if (doc->is_locked()) return MakeError(ErrorCode::kInvalidArgument, "the PDF is password-protected");
  const int pages = doc->pages();
  if (pages > limits.max_pages)
    return MakeError(ErrorCode::kInvalidArgument, "the PDF has " + std::to_string(pages) +
                                                      " pages, more than the limit of " +
                                                      std::to_string(limits.max_pages));
  std::vector<std::vector<Line>> page_lines;
  std::uint64_t text_bytes = 0;
  for (int i = 0; i < pages; ++i) {
    if (cancelled && cancelled()) return MakeError(ErrorCode::kUnavailable, "cancelled");
    std::unique_ptr<poppler::page> page(doc->create_page(i));
    page_lines.push_back(page ? PageLines(*page) : std::vector<Line>{});
    for (const Line& l : page_lines.back()) text_bytes += l.text.size() + 1;
    if (text_bytes > limits.max_output_bytes) break;
  }
  std::string out;
  const std::map<double, int> levels = HeadingLevels(page_lines);
  for (const auto& lines : page_lines) AppendPage(out, lines, levels);
  if (out.size() > limits.max_output_bytes)
    return MakeError(ErrorCode::kTooLarge, "the paper's text is larger than " +
                                               std::to_string(limits.max_output_bytes) + " bytes");
  return out;
}

}  // namespace sbx::pdf
