#include "servers/arxiv/query.h"

#include <array>
#include <optional>
#include <utility>

namespace sbx::servers::arxiv {

std::string UpstreamQuery(std::string_view query, const std::vector<std::string>& categories) {
  std::string q(query);
  bool has_field = false;
  for (const char* prefix : {"all:", "ti:", "abs:", "au:", "cat:"})
    has_field = has_field || q.find(prefix) != std::string::npos;
  if (!has_field) {
    if (q.find('"') != std::string::npos) {
      q = "all:" + q;
    } else {
      std::vector<std::string> words = PythonSplit(q);
      if (words.size() > 1) {
        std::string joined;
        for (const std::string& w : words) joined += (joined.empty() ? "all:" : " AND all:") + w;
        q = joined;
      } else {
        q = "all:" + q;  // the query as given, spaces included
      }
    }
  }
  if (!categories.empty()) {
    std::string filter;
    for (const std::string& c : categories) filter += (filter.empty() ? "cat:" : " OR cat:") + c;
    q = "(" + q + ") AND (" + filter + ")";
  }
  return q;
}

enum class Field { kAll, kTitle, kAuthor, kAbstract, kComment, kJournal, kCategory, kReport, kId };

struct ArxivQuery::Node {
  enum Kind { kTerm, kAnd, kOr, kAndNot, kNothing } kind = kNothing;
  Field field = Field::kAll;
  TermTokens term;
  std::vector<std::shared_ptr<const Node>> children;
};

namespace {

// Mutable while parsing, so runs of one operator collect into one node
// (a long query stays a shallow tree).
using NodePtr = std::shared_ptr<ArxivQuery::Node>;
using Node = ArxivQuery::Node;

Analyzer AnalyzerFor(Field f) {
  switch (f) {
    case Field::kAuthor:
    case Field::kReport: return Analyzer::kName;
    case Field::kCategory:
    case Field::kId: return Analyzer::kExact;
    default: return Analyzer::kText;
  }
}

std::optional<Field> FieldNamed(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, Field>, 9> kFields = {{
      {"all", Field::kAll}, {"ti", Field::kTitle}, {"au", Field::kAuthor},
      {"abs", Field::kAbstract}, {"co", Field::kComment}, {"jr", Field::kJournal},
      {"cat", Field::kCategory}, {"rn", Field::kReport}, {"id", Field::kId},
  }};
  for (const auto& [n, f] : kFields)
    if (n == name) return f;
  return std::nullopt;
}

struct Token {
  enum Kind { kOpen, kClose, kPhrase, kWord } kind;
  std::string text;
};

std::vector<Token> Lex(std::string_view s) {
  std::vector<Token> out;
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (space(c)) {
      ++i;
    } else if (c == '(' || c == ')') {
      out.push_back({c == '(' ? Token::kOpen : Token::kClose, ""});
      ++i;
    } else if (c == '"') {
      std::size_t end = s.find('"', i + 1);
      if (end == std::string_view::npos) end = s.size();
      out.push_back({Token::kPhrase, std::string(s.substr(i + 1, end - i - 1))});
      i = end + 1;
    } else {
      std::size_t j = i;
      while (j < s.size() && !space(s[j]) && s[j] != '(' && s[j] != ')' && s[j] != '"') ++j;
      out.push_back({Token::kWord, std::string(s.substr(i, j - i))});
      i = j;
    }
  }
  return out;
}

bool IsOperator(const Token& t) {
  return t.kind == Token::kWord && (t.text == "AND" || t.text == "OR" || t.text == "ANDNOT");
}

NodePtr Term(Field field, std::string_view text) {
  TermTokens tokens = AnalyzeTerm(text, AnalyzerFor(field));
  if (tokens.tokens.empty()) return nullptr;  // nothing searchable: the clause drops out
  auto n = std::make_shared<Node>();
  n->kind = Node::kTerm;
  n->field = field;
  n->term = std::move(tokens);
  return n;
}

// Combines two clauses; a null clause (dropped) leaves the other.
NodePtr Combine(Node::Kind kind, NodePtr left, NodePtr right) {
  if (!right) return left;
  if (!left) {
    if (kind != Node::kAndNot) return right;
    // Only an exclusion: like a purely negative Lucene query, matches nothing.
    auto none = std::make_shared<Node>();
    none->kind = Node::kNothing;
    return none;
  }
  if (left->kind == kind) {
    left->children.push_back(std::move(right));
    return left;
  }
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->children = {std::move(left), std::move(right)};
  return n;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<NodePtr> Parse() {
    NodePtr root = Or(Field::kAll, 0);
    while (!Done()) {  // stray ')' at top level: skip and go on
      ++pos_;
      root = Combine(Node::kOr, root, Or(Field::kAll, 0));
    }
    if (too_deep_)
      return MakeError(ErrorCode::kInvalidArgument,
                       "query nests parentheses deeper than " + std::to_string(ArxivQuery::kMaxDepth) + " levels");
    return root;
  }

 private:
  bool Done() const { return pos_ >= tokens_.size(); }
  const Token& Peek() const { return tokens_[pos_]; }

  NodePtr Or(Field field, int depth) {
    NodePtr left = And(field, depth);
    while (!Done() && Peek().kind != Token::kClose) {
      if (Peek().kind == Token::kWord && Peek().text == "OR") ++pos_;
      left = Combine(Node::kOr, left, And(field, depth));
    }
    return left;
  }

  NodePtr And(Field field, int depth) {
    NodePtr left = Primary(field, depth);
    while (!Done() && Peek().kind == Token::kWord && (Peek().text == "AND" || Peek().text == "ANDNOT")) {
      Node::Kind kind = Peek().text == "AND" ? Node::kAnd : Node::kAndNot;
      ++pos_;
      left = Combine(kind, left, Primary(field, depth));
    }
    return left;
  }

  NodePtr Primary(Field field, int depth) {
    while (!Done() && IsOperator(Peek())) ++pos_;  // an operator with nothing before it
    if (Done() || Peek().kind == Token::kClose) return nullptr;
    Token t = tokens_[pos_++];
    if (t.kind == Token::kOpen) {
      if (depth >= ArxivQuery::kMaxDepth) {
        too_deep_ = true;
        pos_ = tokens_.size();
        return nullptr;
      }
      NodePtr inner = Or(field, depth + 1);
      if (!Done() && Peek().kind == Token::kClose) ++pos_;
      return inner;
    }
    if (t.kind == Token::kPhrase) return Term(field, t.text);
    if (std::size_t colon = t.text.find(':'); colon != std::string::npos) {
      if (auto named = FieldNamed(t.text.substr(0, colon))) {
        std::string rest = t.text.substr(colon + 1);
        if (!rest.empty()) return Term(*named, rest);
        // "ti:" alone: the prefix applies to what follows ("ti:(…)", 'ti:"…"').
        return Primary(*named, depth);
      }
    }
    return Term(field, t.text);
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  bool too_deep_ = false;
};

bool MatchTerm(const Node& n, const IndexedPaper& p) {
  switch (n.field) {
    case Field::kAll: return ContainsPhrase(p.all, n.term);
    case Field::kTitle: return ContainsPhrase(p.title, n.term);
    case Field::kAuthor: return ContainsPhrase(p.authors, n.term);
    case Field::kAbstract: return ContainsPhrase(p.abstract, n.term);
    case Field::kComment: return ContainsPhrase(p.comment, n.term);
    case Field::kJournal: return ContainsPhrase(p.journal, n.term);
    case Field::kCategory: return ContainsPhrase(p.categories, n.term);
    case Field::kReport: return ContainsPhrase(p.report, n.term);
    case Field::kId: return ContainsPhrase(p.ids, n.term);
  }
  return false;
}

bool Evaluate(const Node& n, const IndexedPaper& p) {
  switch (n.kind) {
    case Node::kTerm: return MatchTerm(n, p);
    case Node::kAnd:
      for (const auto& c : n.children)
        if (!Evaluate(*c, p)) return false;
      return true;
    case Node::kOr:
      for (const auto& c : n.children)
        if (Evaluate(*c, p)) return true;
      return false;
    case Node::kAndNot:  // the first child and none of the others
      if (!Evaluate(*n.children[0], p)) return false;
      for (std::size_t i = 1; i < n.children.size(); ++i)
        if (Evaluate(*n.children[i], p)) return false;
      return true;
    case Node::kNothing: return false;
  }
  return false;
}

}  // namespace

Result<ArxivQuery> ArxivQuery::Parse(std::string_view search_query) {
  if (search_query.size() > kMaxQueryBytes)
    return MakeError(ErrorCode::kInvalidArgument,
                     "query is longer than " + std::to_string(kMaxQueryBytes) + " bytes");
  auto root = Parser(Lex(search_query)).Parse();
  if (!root) return root.error();
  ArxivQuery q;
  q.root_ = *root;
  return q;
}

bool ArxivQuery::Matches(const IndexedPaper& paper) const { return root_ && Evaluate(*root_, paper); }

}  // namespace sbx::servers::arxiv
