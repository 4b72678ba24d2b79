#include "pdf/python_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdint>

#include "core/utf8.h"

namespace sbx::pdf {

struct PythonRegex::Code {
  pcre2_code* code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

namespace {

// Enough for any sane search of a page; a catastrophic pattern hits it in
// well under a second instead of spinning until the CPU limit.
constexpr std::uint32_t kMatchLimit = 10'000'000;
constexpr std::uint32_t kDepthLimit = 100'000;

struct MatchState {
  pcre2_match_data* data;
  pcre2_match_context* context;
  MatchState(const pcre2_code* code)
      : data(pcre2_match_data_create_from_pattern(code, nullptr)), context(pcre2_match_context_create(nullptr)) {
    pcre2_set_match_limit(context, kMatchLimit);
    pcre2_set_depth_limit(context, kDepthLimit);
  }
  ~MatchState() {
    pcre2_match_data_free(data);
    pcre2_match_context_free(context);
  }
};

}  // namespace

std::optional<PythonRegex> PythonRegex::Compile(const std::string& pattern) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  // MATCH_INVALID_UTF: page text from poppler is UTF-8, but a damaged font
  // map must not turn a search into undefined behaviour.
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS | PCRE2_MULTILINE | PCRE2_MATCH_INVALID_UTF,
                                   &error, &offset, nullptr);
  if (code == nullptr) return std::nullopt;
  auto holder = std::make_shared<Code>();
  holder->code = code;
  return PythonRegex(std::move(holder));
}

bool PythonRegex::ForEachMatch(const std::string& text, const std::function<bool(std::size_t, std::size_t)>& found,
                               std::string& failure) const {
  MatchState state(code_->code);
  if (state.data == nullptr || state.context == nullptr) {
    failure = "out of memory for the search";
    return false;
  }
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  std::size_t at = 0;
  std::uint32_t options = 0;
  while (at <= text.size()) {
    int rc = pcre2_match(code_->code, subject, text.size(), at, options, state.data, state.context);
    if (rc == PCRE2_ERROR_NOMATCH) {
      if (options == 0) return true;
      // No non-empty match where an empty one was: step one code point on.
      options = 0;
      if (at >= text.size()) return true;
      at = utf8::NextBoundary(text, at + 1);
      continue;
    }
    if (rc < 0) {
      failure = rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT
                    ? "the pattern needs too much backtracking on this text; simplify it"
                    : "the pattern could not be matched against this text";
      return false;
    }
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(state.data);
    const std::size_t start = ovector[0], end = ovector[1];
    if (!found(start, end)) return false;
    at = end;
    // After an empty match, look for a non-empty one at the same place
    // before moving on (finditer's rule since Python 3.7).
    options = start == end ? PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED : 0;
  }
  return true;
}

}  // namespace sbx::pdf
