// How paper fields and query terms become comparable tokens for the local
// search index, standing in for the analysis arXiv's search engine applies.
// Text is decomposed, stripped of accents and case-folded (ICU), so
// "Schölkopf" finds "Scholkopf"; tokens are runs of letters and digits.
// Title, abstract, comment and journal reference also drop English plural
// endings (Lucene's minimal English stemmer rules: "transformers" finds
// "transformer"), and query words on Lucene's English stop list ("the",
// "of", "and", "or", …) match anything, as a stop filter would make them.
//
// Thread-safety: all functions are pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sbx::servers::arxiv {

enum class Analyzer {
  kText,   // folded, stop words, plural endings dropped (ti, abs, co, jr)
  kName,   // folded, stop words (au, rn)
  kExact,  // the whole value, trimmed and ASCII-lowercased (cat, id)
};

// Put between the tokens of separate values of one field (the authors), so
// that no phrase spans two of them; matches no query token.
inline constexpr std::string_view kBoundaryToken = "\x01";

// The tokens of a paper's field value, in order (stop words kept, so a
// phrase's positions line up with the text).
std::vector<std::string> AnalyzeField(std::string_view text, Analyzer analyzer);

// A query word or phrase analyzed for one kind of field.
struct TermTokens {
  // "" stands for any one token (a stop word inside a phrase); never first
  // or last. Empty when nothing searchable is left (a stop word alone).
  std::vector<std::string> tokens;
  bool prefix_last = false;  // written with a trailing '*': the last token is a prefix
};
TermTokens AnalyzeTerm(std::string_view text, Analyzer analyzer);

// Whether `tokens` holds the phrase `term` at consecutive positions.
bool ContainsPhrase(const std::vector<std::string>& tokens, const TermTokens& term);

// Python's str.split(): the words between runs of white space.
std::vector<std::string> PythonSplit(std::string_view text);

// re.sub(r"\s+", " ", text): every run of white space becomes one space.
std::string CollapseSpaces(std::string_view text);

}  // namespace sbx::servers::arxiv
