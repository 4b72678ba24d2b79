#include "servers/arxiv/analysis.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>

#include "core/strings.h"
#include "python_text/repr.h"

namespace sbx::servers::arxiv {
namespace {

bool IsStopWord(std::string_view w) {
  // Lucene's English stop set (StandardAnalyzer / EnglishAnalyzer).
  static constexpr std::array<std::string_view, 33> kStop = {
      "a",   "an",   "and",   "are",  "as",   "at",    "be",    "but",  "by",   "for",  "if",
      "in",  "into", "is",    "it",   "no",   "not",   "of",    "on",   "or",   "such", "that",
      "the", "their", "then", "there", "these", "they", "this", "to",   "was",  "will", "with"};
  return std::find(kStop.begin(), kStop.end(), w) != kStop.end();
}

// Drops an English plural ending: "-ies" → "-y" (not after a or e), "-s" →
// "" unless the word ends in -us, -ss or one of -ies/-aes/-ees/-oes kept
// whole. Words under three letters stay.
std::string DropPlural(std::string w) {
  const std::size_t n = w.size();
  if (n < 3 || w[n - 1] != 's') return w;
  const char before = w[n - 2];
  if (before == 'u' || before == 's') return w;
  if (before == 'e') {
    const char third = w[n - 3];
    if (n > 3 && third == 'i' && w[n - 4] != 'a' && w[n - 4] != 'e') {
      w.resize(n - 3);
      return w + "y";
    }
    if (third == 'i' || third == 'a' || third == 'o' || third == 'e') return w;
  }
  w.pop_back();
  return w;
}

void AppendUtf8(std::string& out, UChar32 c) {
  char buf[U8_MAX_LENGTH];
  int32_t len = 0;
  U8_APPEND_UNSAFE(buf, len, c);
  out.append(buf, static_cast<std::size_t>(len));
}

// Letters-and-digits runs of `text`, compatibility-decomposed, without
// combining marks, case-folded.
std::vector<std::string> FoldedWords(std::string_view text) {
  // Plain ASCII (most metadata) needs no decomposition: lower-case the
  // letters and split at everything else, as the general path would.
  if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    std::vector<std::string> words;
    std::string current;
    for (char c : text) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        current += c;
      } else if (c >= 'A' && c <= 'Z') {
        current += static_cast<char>(c - 'A' + 'a');
      } else if (!current.empty()) {
        words.push_back(std::move(current));
        current.clear();
      }
    }
    if (!current.empty()) words.push_back(std::move(current));
    return words;
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkd = icu::Normalizer2::getNFKDInstance(status);
  icu::UnicodeString source = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  icu::UnicodeString decomposed = U_SUCCESS(status) ? nfkd->normalize(source, status) : source;
  if (U_FAILURE(status)) decomposed = source;
  std::vector<std::string> words;
  std::string current;
  for (int32_t i = 0; i < decomposed.length();) {
    UChar32 c = decomposed.char32At(i);
    i += U16_LENGTH(c);
    if (u_charType(c) == U_NON_SPACING_MARK) continue;
    if (u_isalnum(c)) {
      AppendUtf8(current, u_foldCase(c, U_FOLD_CASE_DEFAULT));
    } else if (!current.empty()) {
      words.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) words.push_back(std::move(current));
  return words;
}

std::string_view TrimAscii(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || (s.front() >= '\t' && s.front() <= '\r'))) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || (s.back() >= '\t' && s.back() <= '\r'))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<std::string> AnalyzeField(std::string_view text, Analyzer analyzer) {
  if (analyzer == Analyzer::kExact) {
    std::string_view t = TrimAscii(text);
    if (t.empty()) return {};
    return {strings::AsciiLower(t)};
  }
  std::vector<std::string> words = FoldedWords(text);
  if (analyzer == Analyzer::kText)
    for (std::string& w : words) w = DropPlural(std::move(w));
  return words;
}

TermTokens AnalyzeTerm(std::string_view text, Analyzer analyzer) {
  TermTokens out;
  text = TrimAscii(text);
  while (!text.empty() && text.back() == '*') {
    out.prefix_last = true;
    text.remove_suffix(1);
  }
  if (analyzer == Analyzer::kExact) {
    out.tokens = AnalyzeField(text, Analyzer::kExact);
    return out;
  }
  std::vector<std::string> words = FoldedWords(text);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const bool last_prefix = out.prefix_last && i + 1 == words.size();
    if (last_prefix) {
      out.tokens.push_back(words[i]);
    } else if (IsStopWord(words[i])) {
      out.tokens.emplace_back();
    } else {
      out.tokens.push_back(analyzer == Analyzer::kText ? DropPlural(words[i]) : words[i]);
    }
  }
  // Stop words at either end constrain nothing.
  while (!out.tokens.empty() && out.tokens.back().empty()) {
    out.tokens.pop_back();
    out.prefix_last = false;
  }
  auto first = std::find_if(out.tokens.begin(), out.tokens.end(), [](const std::string& t) { return !t.empty(); });
  out.tokens.erase(out.tokens.begin(), first);
  return out;
}

bool ContainsPhrase(const std::vector<std::string>& tokens, const TermTokens& term) {
  const std::size_t n = term.tokens.size();
  if (n == 0 || tokens.size() < n) return false;
  for (std::size_t p = 0; p + n <= tokens.size(); ++p) {
    bool match = true;
    for (std::size_t k = 0; k < n && match; ++k) {
      const std::string& want = term.tokens[k];
      const std::string& have = tokens[p + k];
      if (want.empty()) match = have != kBoundaryToken;
      else if (k + 1 == n && term.prefix_last) match = have.starts_with(want);
      else match = have == want;
    }
    if (match) return true;
  }
  return false;
}

namespace {

// Calls `on_char(begin, end, is_space)` for each code point of `text`
// (malformed bytes count as one non-space character each).
template <class F>
void ForEachChar(std::string_view text, F on_char) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int32_t>(text.size());
  for (int32_t i = 0; i < length;) {
    int32_t start = i;
    UChar32 c = 0;
    U8_NEXT(s, i, length, c);
    on_char(static_cast<std::size_t>(start), static_cast<std::size_t>(i), c >= 0 && py::IsSpace(static_cast<char32_t>(c)));
  }
}

}  // namespace

std::vector<std::string> PythonSplit(std::string_view text) {
  std::vector<std::string> words;
  std::string current;
  ForEachChar(text, [&](std::size_t b, std::size_t e, bool space) {
    if (!space) {
      current.append(text.substr(b, e - b));
    } else if (!current.empty()) {
      words.push_back(std::move(current));
      current.clear();
    }
  });
  if (!current.empty()) words.push_back(std::move(current));
  return words;
}

std::string CollapseSpaces(std::string_view text) {
  std::string out;
  bool in_space = false;
  ForEachChar(text, [&](std::size_t b, std::size_t e, bool space) {
    if (space) {
      if (!in_space) out += ' ';
    } else {
      out.append(text.substr(b, e - b));
    }
    in_space = space;
  });
  return out;
}

}  // namespace sbx::servers::arxiv
