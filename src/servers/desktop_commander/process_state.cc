#include "servers/desktop_commander/process_state.h"

#include <array>
#include <vector>

#include "core/utf8.h"
#include "js_text/string.h"

namespace sbx::servers::desktop_commander {
namespace {

using js::IsWhitespace;

// upstream's REPL_PROMPTS flattened in declaration order (repeats kept:
// the first that the last line contains is the one reported).
constexpr std::array<std::string_view, 20> kPrompts = {
    ">>> ", "... ", "> ",  "... ", "> ",     "+ ",      "julia> ", "       ", "$ ",      "# ",
    "% ",   "bash-", "zsh-", "mysql> ", "    -> ", "=# ",     "-# ",     "redis> ",  "> ",      "... "};

constexpr std::string_view kCompletion[] = {"process finished", "command completed", "[process completed]",
                                            "program terminated", "exit code:"};
constexpr std::string_view kErrors[] = {"error:",     "exception:",  "traceback",      "syntaxerror",
                                        "nameerror",  "typeerror",   "valueerror",     "referenceerror",
                                        "uncaught",   "at object."};

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// A case-insensitive search for an ASCII pattern (what /…/i does for one).
bool ContainsIgnoreCase(std::string_view text, std::string_view lower_pattern) {
  if (lower_pattern.size() > text.size()) return false;
  for (std::size_t i = 0; i + lower_pattern.size() <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < lower_pattern.size() && Lower(text[i + k]) == lower_pattern[k]) ++k;
    if (k == lower_pattern.size()) return true;
  }
  return false;
}

bool IsLineTerminator(char32_t c) { return c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029; }

std::u32string Decode(std::string_view utf8) {
  std::u16string u16 = utf8::ToUtf16(utf8);
  return std::u32string(u16.begin(), u16.end());  // code units: what a non-unicode RegExp walks
}

std::string Encode(const std::u32string& s) {
  return utf8::FromUtf16(std::u16string(s.begin(), s.end()));
}

bool LineStart(const std::u32string& s, std::size_t p) { return p == 0 || IsLineTerminator(s[p - 1]); }

std::size_t SkipSpaces(const std::u32string& s, std::size_t p) {
  while (p < s.size() && js::IsWhitespace(s[p])) ++p;
  return p;
}

// /^\s*\^/m: a caret with only white space before it back to a line start.
bool CaretAtLineStart(const std::u32string& s) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (s[k] != '^') continue;
    for (std::size_t j = k;; --j) {
      if (j == 0 || IsLineTerminator(s[j - 1])) return true;
      if (!js::IsWhitespace(s[j - 1])) break;
    }
  }
  return false;
}

bool StartsAt(const std::u32string& s, std::size_t p, std::u32string_view what) {
  return s.compare(p, what.size(), what) == 0;
}

// s.replace(/^<prefix>\s*/gm, '') (first match only unless `global`).
std::u32string RemoveAtLineStarts(const std::u32string& s, std::u32string_view prefix, bool global) {
  std::u32string out;
  std::size_t i = 0;
  bool done = false;
  while (i < s.size()) {
    if (!done && LineStart(s, i) && StartsAt(s, i, prefix)) {
      i = SkipSpaces(s, i + prefix.size());
      done = !global;
      continue;
    }
    out.push_back(s[i++]);
  }
  return out;
}

// s.replace(/\n<prefix>\s*$/, '')
std::u32string RemoveTrailingPrompt(std::u32string s, std::u32string_view prefix) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\n' || !StartsAt(s, i + 1, prefix)) continue;
    if (SkipSpaces(s, i + 1 + prefix.size()) == s.size()) {
      s.erase(i);
      break;
    }
  }
  return s;
}

std::u32string Trim(const std::u32string& s) {
  std::size_t b = SkipSpaces(s, 0), e = s.size();
  while (e > b && js::IsWhitespace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

}  // namespace

ProcessState AnalyzeProcessState(std::string_view output) {
  ProcessState state;
  if (output.empty() || js::Trim(output).empty()) return state;
  std::vector<std::string_view> lines;
  for (std::size_t i = 0;;) {
    std::size_t j = output.find('\n', i);
    lines.push_back(output.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  std::string_view last = lines.back();
  for (std::string_view prompt : kPrompts) {
    if (last.find(prompt) != std::string_view::npos) {
      state.waiting_for_input = true;
      state.detected_prompt = std::string(prompt);
      return state;
    }
  }
  for (std::string_view marker : kCompletion) {
    if (ContainsIgnoreCase(output, marker)) {
      state.finished = true;
      state.running = false;
      return state;
    }
  }
  std::size_t first = lines.size() > 3 ? lines.size() - 3 : 0;
  std::string last_few;
  for (std::size_t i = first; i < lines.size(); ++i) {
    if (i > first) last_few += '\n';
    last_few += lines[i];
  }
  bool error = CaretAtLineStart(Decode(last_few));
  for (std::string_view marker : kErrors) error = error || ContainsIgnoreCase(last_few, marker);
  if (error) {
    state.finished = true;
    state.running = false;
  }
  return state;
}

bool EndsWithQuickPrompt(std::string_view chunk) {
  std::string_view t = js::Trim(chunk);
  // Leading white space is irrelevant: only the end matters.
  if (t.empty()) return false;
  char c = t.back();
  return c == '>' || c == '$' || c == '#';
}

std::string CleanProcessOutput(std::string_view output, std::string_view input_sent) {
  std::u32string cleaned = Decode(output);
  if (!input_sent.empty()) {
    for (std::size_t i = 0;;) {
      std::size_t j = input_sent.find('\n', i);
      std::string_view line = input_sent.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i);
      std::u32string trimmed = Decode(js::Trim(line));
      if (!trimmed.empty()) cleaned = RemoveAtLineStarts(cleaned, trimmed, false);
      if (j == std::string_view::npos) break;
      i = j + 1;
    }
  }
  cleaned = RemoveAtLineStarts(cleaned, U">>>", true);
  cleaned = RemoveAtLineStarts(cleaned, U">", true);
  cleaned = RemoveAtLineStarts(cleaned, U"...", true);
  cleaned = RemoveAtLineStarts(cleaned, U"+", true);
  cleaned = RemoveTrailingPrompt(std::move(cleaned), U">>>");
  cleaned = RemoveTrailingPrompt(std::move(cleaned), U">");
  cleaned = RemoveTrailingPrompt(std::move(cleaned), U"+");
  return Encode(Trim(cleaned));
}

std::string FormatProcessState(const ProcessState& state, const std::string& p) {
  if (state.waiting_for_input)
    return "Process " + p + " is waiting for input (detected: \"" +
           std::string(js::Trim(state.detected_prompt)) + "\")";
  if (state.finished) return "Process " + p + " has finished execution";
  return "Process " + p + " is running";
}

}  // namespace sbx::servers::desktop_commander
