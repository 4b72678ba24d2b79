#include "servers/filesystem/glob_regex.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "core/utf8.h"
#include "servers/filesystem/glob_regex_syntax.h"

namespace sbx::servers::filesystem {

namespace {

// Work bound for one Test: past it the segment counts as not matching, the
// same "intentional false negative" minimatch accepts for globstar recursion.
constexpr std::uint64_t kMaxSteps = 20'000'000;
// Memo memory for one Test.
constexpr std::size_t kMaxMemoBytes = 32u << 20;

using regex_syntax::IsWordChar;
using regex_syntax::Units;
using Node = JsRegex::Node;

// End-position sets over an input of n units, as bit vectors.
class Matcher {
 public:
  Matcher(const Units& in, int memo_nodes)
      : in_(in), words_((in.size() + 1 + 63) / 64), memo_(static_cast<std::size_t>(memo_nodes)) {}

  using Set = std::vector<std::uint64_t>;

  bool exhausted() const { return steps_ > kMaxSteps; }
  std::uint64_t steps() const { return steps_; }

  Set Eval(const Node& n, std::size_t pos) {
    Set out(words_, 0);
    if (++steps_ > kMaxSteps) return out;
    switch (n.kind) {
      case Node::kChar:
        if (pos < in_.size() && n.set.Contains(in_[pos])) Put(out, pos + 1);
        return out;
      case Node::kBol:
        if (pos == 0) Put(out, pos);
        return out;
      case Node::kEol:
        if (pos == in_.size()) Put(out, pos);
        return out;
      case Node::kWordBoundary:
      case Node::kNotWordBoundary: {
        bool a = pos > 0 && IsWordChar(in_[pos - 1]);
        bool b = pos < in_.size() && IsWordChar(in_[pos]);
        if ((a != b) == (n.kind == Node::kWordBoundary)) Put(out, pos);
        return out;
      }
      default:
        break;
    }
    if (const Set* known = Lookup(n.memo, pos)) return *known;
    switch (n.kind) {
      case Node::kSeq:
        out = Sequence(n, pos);
        break;
      case Node::kAlt:
        for (const auto& child : n.children) Or(out, Eval(*child, pos));
        break;
      case Node::kLook:
        if (Empty(Eval(*n.children[0], pos)) == n.negative) Put(out, pos);
        break;
      default:
        out = Repeat(n, pos);
        break;
    }
    Store(n.memo, pos, out);
    return out;
  }

 private:
  Set Sequence(const Node& n, std::size_t pos) {
    Set out(words_, 0);
    Put(out, pos);
    for (const auto& child : n.children) {
      Set next(words_, 0);
      for (std::size_t p = 0; p <= in_.size(); ++p) {
        if (!Has(out, p)) continue;
        if (child->kind == Node::kChar) {  // the common case, without a call
          ++steps_;
          if (p < in_.size() && child->set.Contains(in_[p])) Put(next, p + 1);
          continue;
        }
        Or(next, Eval(*child, p));
      }
      out.swap(next);
      if (Empty(out)) break;
    }
    return out;
  }

  Set Repeat(const Node& n, std::size_t pos) {
    const Node& child = *n.children[0];
    Set level(words_, 0);
    Put(level, pos);
    int k = 0;
    for (; k < n.min; ++k) {  // exactly k iterations
      Set next(words_, 0);
      for (std::size_t p = 0; p <= in_.size(); ++p)
        if (Has(level, p)) Or(next, Eval(child, p));
      level.swap(next);
      if (Empty(level)) return level;
    }
    Set reached = level, frontier = level;
    if (child.kind == Node::kChar && n.max < 0) {
      // x* over single characters: every position the run of matches reaches.
      for (std::size_t p = 0; p <= in_.size(); ++p) {
        if (!Has(reached, p)) continue;
        ++steps_;
        if (p < in_.size() && child.set.Contains(in_[p])) Put(reached, p + 1);
      }
      return reached;
    }
    while (!Empty(frontier) && (n.max < 0 || k < n.max)) {
      Set next(words_, 0);
      for (std::size_t p = 0; p <= in_.size(); ++p)
        if (Has(frontier, p)) Or(next, Eval(child, p));
      for (std::size_t w = 0; w < words_; ++w) {
        frontier[w] = next[w] & ~reached[w];
        reached[w] |= next[w];
      }
      ++k;
      if (exhausted()) break;
    }
    return reached;
  }

  const Set* Lookup(int id, std::size_t pos) const {
    const auto& row = memo_[static_cast<std::size_t>(id)];
    if (row.empty() || !row[pos]) return nullptr;
    return &*row[pos];
  }
  void Store(int id, std::size_t pos, const Set& value) {
    auto& row = memo_[static_cast<std::size_t>(id)];
    if (row.empty()) {
      if (memo_bytes_ > kMaxMemoBytes) return;  // keep memory flat; the step bound still holds
      row.resize(in_.size() + 1);
      memo_bytes_ += row.size() * sizeof(std::optional<Set>);
    }
    if (!row[pos]) memo_bytes_ += words_ * sizeof(std::uint64_t);
    row[pos] = value;
  }
  static void Put(Set& s, std::size_t p) { s[p / 64] |= std::uint64_t{1} << (p % 64); }
  static bool Has(const Set& s, std::size_t p) { return (s[p / 64] >> (p % 64)) & 1u; }
  static void Or(Set& a, const Set& b) {
    for (std::size_t i = 0; i < a.size(); ++i) a[i] |= b[i];
  }
  static bool Empty(const Set& s) {
    for (auto w : s)
      if (w) return false;
    return true;
  }

  const Units& in_;
  std::size_t words_;
  std::vector<std::vector<std::optional<Set>>> memo_;
  std::size_t memo_bytes_ = 0;
  std::uint64_t steps_ = 0;
};

}  // namespace

namespace {
thread_local std::uint64_t t_steps = 0;
}  // namespace

std::uint64_t JsRegex::StepsUsed() { return t_steps; }
void JsRegex::ResetSteps() { t_steps = 0; }

JsRegex::~JsRegex() = default;

std::shared_ptr<const JsRegex> JsRegex::Compile(const std::u16string& source, bool unicode,
                                                std::string& error) {
  Units units = regex_syntax::ToUnits(source, unicode);
  std::shared_ptr<JsRegex> re(new JsRegex());
  re->unicode_ = unicode;
  try {
    re->root_ = regex_syntax::Parse(units, unicode, re->node_count_);
  } catch (const regex_syntax::SyntaxError& e) {
    error = "Invalid regular expression: /" + utf8::FromUtf16(source) + "/" + (unicode ? "u" : "") +
            ": " + e.reason;
    return nullptr;
  }
  return re;
}

bool JsRegex::Test(const std::u16string& input) const {
  Units in = regex_syntax::ToUnits(input, unicode_);
  Matcher m(in, node_count_);
  bool anchored =
      root_->kind == Node::kBol || (root_->kind == Node::kSeq && !root_->children.empty() &&
                                    root_->children[0]->kind == Node::kBol);
  bool found = false;
  for (std::size_t start = 0; start <= in.size() && !found; ++start) {
    auto ends = m.Eval(*root_, start);
    for (auto w : ends) found = found || w != 0;
    if (anchored || m.exhausted()) break;
  }
  t_steps += m.steps();
  return found && !m.exhausted();
}

}  // namespace sbx::servers::filesystem
