// Search queries: upstream's rewrite of the user's text into arXiv's
// search_query syntax, and that syntax evaluated against the local index.
//
// The syntax (arXiv API user manual): field prefixes ti: au: abs: co: jr:
// cat: rn: id: all:, "quoted phrases", the operators AND, OR and ANDNOT
// (upper case), and parentheses. As in Lucene, which serves arXiv's API,
// words side by side without an operator are alternatives (OR), AND and
// ANDNOT bind tighter than OR, a word without a prefix searches all fields,
// and a prefix before a parenthesised group applies inside it. Malformed
// input is read leniently (a stray ')' or a dangling operator is dropped, a
// missing ')' or '"' is closed at the end) rather than failing, since
// arXiv's API answers such queries with results too.
//
// Thread-safety: a parsed ArxivQuery is immutable; Matches may run
// concurrently.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "servers/arxiv/analysis.h"

namespace sbx::servers::arxiv {

// Upstream's handle_search rewrite: a query naming none of the prefixes
// all: ti: abs: au: cat: becomes all:<query> when it has a '"', else each
// whitespace-separated word becomes all:<word>, joined with AND; then a
// category list becomes "(<query>) AND (cat:<c1> OR cat:<c2> …)".
std::string UpstreamQuery(std::string_view query, const std::vector<std::string>& categories);

// A paper's fields as tokens (see analysis.h).
struct IndexedPaper {
  std::vector<std::string> title, abstract, comment, journal;  // Analyzer::kText
  std::vector<std::string> authors, report;                   // Analyzer::kName, authors split by kBoundaryToken
  std::vector<std::string> categories, ids;                   // Analyzer::kExact, one token per value
  std::vector<std::string> all;  // every field through Analyzer::kText, values split by kBoundaryToken
};

class ArxivQuery {
 public:
  // Longest query and deepest parenthesis nesting accepted.
  static constexpr std::size_t kMaxQueryBytes = 16 * 1024;
  static constexpr int kMaxDepth = 64;

  // Errors (kInvalidArgument) only for the bounds above.
  static Result<ArxivQuery> Parse(std::string_view search_query);

  // A query with nothing searchable in it (e.g. only stop words) matches
  // no paper, as an empty Lucene query does.
  bool Matches(const IndexedPaper& paper) const;

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
};

}  // namespace sbx::servers::arxiv
