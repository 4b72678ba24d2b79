// The JavaScript regular expressions minimatch builds for one path segment,
// evaluated without backtracking.
//
// minimatch turns each glob segment into JS regex source (lookaheads for dot
// rules and !(…) extglobs, lazy stars, character classes, \p{…} classes with
// the u flag). This compiles that source — the ECMAScript syntax subset those
// generators emit, with JavaScript's rules for it (UTF-16 code units without
// the u flag, code points with it; Annex B identity escapes; "." excluding
// line terminators) — and answers RegExp#test by computing, per node and
// start position, the set of end positions (memoized where a node repeats),
// so hostile patterns cost polynomial time rather than exponential.
//
// Thread-safety: a compiled JsRegex is immutable; Test may run concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace sbx::servers::filesystem {

class JsRegex {
 public:
  struct Node;
  // Compiles `source` (without slashes) with or without the u flag. On a
  // syntax error returns null and sets `error` to V8's message
  // ("Invalid regular expression: /…/u: Invalid escape").
  static std::shared_ptr<const JsRegex> Compile(const std::u16string& source, bool unicode,
                                                std::string& error);

  // RegExp.prototype.test on `input`. Adds the steps taken to this thread's
  // StepsUsed() counter (so a caller can bound a whole walk).
  bool Test(const std::u16string& input) const;

  // Evaluation steps taken by Test on this thread since the last reset.
  static std::uint64_t StepsUsed();
  static void ResetSteps();

  ~JsRegex();

 private:
  JsRegex() = default;
  std::unique_ptr<Node> root_;
  bool unicode_ = false;
  int node_count_ = 0;
};

}  // namespace sbx::servers::filesystem
