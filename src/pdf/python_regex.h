// Python's `re` as pdf-tools-mcp uses it (re.finditer(pattern, text,
// re.IGNORECASE | re.MULTILINE)), through PCRE2: Python's syntax is PCRE's
// for what agents write (named groups `(?P<name>…)` and `(?P=name)`, inline
// flags `(?i)`, look-behind, `\d`/`\w`/`\s` over Unicode with PCRE2_UCP,
// as str patterns are in Python 3). Matches are found as finditer finds
// them: left to right, an empty match allowed where the previous match
// ended only if that one was not empty at the same place.
//
// Runs in the sandbox-pdf helper only: a pattern that backtracks without
// end stops at PCRE2's match limit (an error, not a hang), and the helper's
// CPU limit is the last bound.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace sbx::pdf {

class PythonRegex {
 public:
  // None when the pattern does not compile (Python's re.error).
  static std::optional<PythonRegex> Compile(const std::string& pattern);

  // Calls `found(start, end)` (byte offsets into `text`, UTF-8) for each
  // match until it returns false; returns false then, or when matching
  // fails (the match limit), with `failure` saying why; true otherwise.
  bool ForEachMatch(const std::string& text, const std::function<bool(std::size_t, std::size_t)>& found,
                    std::string& failure) const;

 private:
  struct Code;
  explicit PythonRegex(std::shared_ptr<Code> code) : code_(std::move(code)) {}
  std::shared_ptr<Code> code_;
};

}  // namespace sbx::pdf
