#include "servers/filesystem/brace_expansion.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

namespace sbx::servers::filesystem {
namespace {

using S = std::u16string;
using SV = std::u16string_view;

// The package's bounds.
constexpr double kMax = 100000;
constexpr double kMaxLength = 4000000;
constexpr int kMaxDepth = 1000;
constexpr int kMaxRewrites = 1000;
constexpr std::int64_t kMaxSteps = 20000000;
constexpr std::int64_t kCallSteps = 16;

// Placeholders for escaped characters while expanding (same lengths as the
// package's, since lengths count against its bounds).
using namespace std::string_literals;
const S kEscSlash = u"\0SLASH0.4183062794117301\0"s;
const S kEscOpen = u"\0OPEN0.7306851295862118\0"s;
const S kEscClose = u"\0CLOSE0.2907453170235629\0"s;
const S kEscComma = u"\0COMMA0.9451288473618213\0"s;
const S kEscPeriod = u"\0PERIOD0.1362487055213984\0"s;

struct Budget {
  std::int64_t remaining = kMaxSteps;
};

S ReplaceAll(const S& s, SV from, SV to) {
  S out;
  std::size_t i = 0;
  for (;;) {
    std::size_t j = s.find(from, i);
    if (j == S::npos) break;
    out.append(s, i, j - i);
    out.append(to);
    i = j + from.size();
  }
  out.append(s, i, S::npos);
  return out;
}

S EscapeBraces(const S& s) {
  S r = ReplaceAll(s, u"\\\\", kEscSlash);
  r = ReplaceAll(r, u"\\{", kEscOpen);
  r = ReplaceAll(r, u"\\}", kEscClose);
  r = ReplaceAll(r, u"\\,", kEscComma);
  return ReplaceAll(r, u"\\.", kEscPeriod);
}

S UnescapeBraces(const S& s) {
  S r = ReplaceAll(s, kEscSlash, u"\\");
  r = ReplaceAll(r, kEscOpen, u"{");
  r = ReplaceAll(r, kEscClose, u"}");
  r = ReplaceAll(r, kEscComma, u",");
  return ReplaceAll(r, kEscPeriod, u".");
}

bool IsLineTerminator(char16_t c) { return c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029; }
bool IsDigit(char16_t c) { return c >= u'0' && c <= u'9'; }
bool IsAlpha(char16_t c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); }

// balanced-match's range('{', '}', str).
std::optional<std::pair<std::size_t, std::size_t>> Range(SV str) {
  std::ptrdiff_t ai = static_cast<std::ptrdiff_t>(str.find(u'{'));
  if (ai < 0) return std::nullopt;
  std::ptrdiff_t bi = static_cast<std::ptrdiff_t>(str.find(u'}', static_cast<std::size_t>(ai) + 1));
  if (bi <= 0) return std::nullopt;
  std::vector<std::ptrdiff_t> begs;
  std::ptrdiff_t left = static_cast<std::ptrdiff_t>(str.size()), right = -1;
  std::optional<std::pair<std::size_t, std::size_t>> result;
  std::ptrdiff_t i = ai;
  auto find = [&](char16_t c, std::ptrdiff_t from) {
    std::size_t p = str.find(c, static_cast<std::size_t>(from));
    return p == SV::npos ? std::ptrdiff_t{-1} : static_cast<std::ptrdiff_t>(p);
  };
  while (i >= 0 && !result) {
    if (i == ai) {
      begs.push_back(i);
      ai = find(u'{', i + 1);
    } else if (begs.size() == 1) {
      std::ptrdiff_t r = begs.back();
      begs.pop_back();
      result = std::make_pair(static_cast<std::size_t>(r), static_cast<std::size_t>(bi));
    } else {
      std::ptrdiff_t beg = begs.back();
      begs.pop_back();
      if (beg < left) {
        left = beg;
        right = bi;
      }
      bi = find(u'}', i + 1);
    }
    i = ai < bi && ai >= 0 ? ai : bi;
  }
  if (!begs.empty() && right >= 0)
    result = std::make_pair(static_cast<std::size_t>(left), static_cast<std::size_t>(right));
  return result;
}

struct Match {
  std::size_t end;
  S pre, body, post;
  bool unmatched;
};

std::optional<Match> BalancedWithBudget(const S& str, const S& masked, Budget& budget) {
  if (budget.remaining < 0) return std::nullopt;
  auto r = Range(masked);
  std::size_t first_open = masked.find(u'{');
  bool unmatched = r && first_open != S::npos && first_open < r->first;
  budget.remaining -= r && !unmatched ? static_cast<std::int64_t>(r->second) + 1
                                      : static_cast<std::int64_t>(str.size());
  if (!r || budget.remaining < 0) return std::nullopt;
  return Match{r->second, str.substr(0, r->first),
               str.substr(r->first + 1, r->second - r->first - 1), str.substr(r->second + 1),
               unmatched};
}

S MaskUnmatchedOpens(const S& masked, Budget& budget) {
  budget.remaining -= static_cast<std::int64_t>(masked.size());
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < masked.size(); ++i) {
    if (masked[i] == u'{') {
      open.push_back(i);
    } else if (masked[i] == u'}' && !open.empty()) {
      open.pop_back();
    }
  }
  S out = masked;
  for (std::size_t at : open) out[at] = u'\0';
  return out;
}

bool CommaSetFollows(const S& str, Budget& budget) {
  budget.remaining -= static_cast<std::int64_t>(str.size());
  if (budget.remaining < 0) return false;
  bool close = false;
  for (std::size_t k = str.size(); k-- > 0;) {
    char16_t c = str[k];
    if (c == u'}') {
      close = true;
    } else if (IsLineTerminator(c)) {
      close = false;
    } else if (c == u',' && close && (k + 1 >= str.size() || str[k + 1] != u',')) {
      return true;
    }
  }
  return false;
}

std::vector<S> Split(const S& s, char16_t sep) {
  std::vector<S> out;
  std::size_t i = 0;
  for (;;) {
    std::size_t j = s.find(sep, i);
    if (j == S::npos) {
      out.push_back(s.substr(i));
      return out;
    }
    out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
}

std::optional<std::vector<S>> ParseCommaParts(S str, Budget& budget) {
  std::vector<S> parts;
  S carry;
  for (;;) {
    auto m = BalancedWithBudget(str, str, budget);
    if (budget.remaining < 0) return std::nullopt;
    if (!m) {
      auto tail = Split(str, u',');
      tail[0] = carry + tail[0];
      parts.insert(parts.end(), tail.begin(), tail.end());
      return parts;
    }
    auto p = Split(m->pre, u',');
    p[0] = carry + p[0];
    p.back() += u"{" + m->body + u"}";
    if (m->post.empty()) {
      parts.insert(parts.end(), p.begin(), p.end());
      return parts;
    }
    carry = p.back();
    p.pop_back();
    parts.insert(parts.end(), p.begin(), p.end());
    str = m->post;
  }
}

std::vector<S> Combine(const std::vector<S>& acc, const S& pre, const std::vector<S>& values,
                       bool drop_empties, Budget& budget) {
  std::vector<S> out;
  double length = 0;
  std::optional<std::vector<S>> non_empty;
  for (const auto& a : acc) {
    S prefix = a + pre;
    const std::vector<S>* vs = &values;
    if (drop_empties && prefix.empty()) {
      if (!non_empty) {
        non_empty.emplace();
        for (const auto& v : values)
          if (!v.empty()) non_empty->push_back(v);
      }
      vs = &*non_empty;
    }
    for (const auto& v : *vs) {
      if (static_cast<double>(out.size()) >= kMax) goto done;
      S expansion = prefix + v;
      if (length + static_cast<double>(expansion.size()) > kMaxLength) goto done;
      length += static_cast<double>(expansion.size());
      out.push_back(std::move(expansion));
    }
  }
done:
  budget.remaining -= static_cast<std::int64_t>(out.size());
  return out;
}

// Matches /^-?\d+\.\.-?\d+(?:\.\.-?\d+)?$/ or, with `alpha`,
// /^[a-zA-Z]\.\.[a-zA-Z](?:\.\.-?\d+)?$/.
bool IsSequence(const S& body, bool alpha) {
  std::size_t i = 0;
  auto number = [&]() {
    if (i < body.size() && body[i] == u'-') ++i;
    std::size_t start = i;
    while (i < body.size() && IsDigit(body[i])) ++i;
    return i > start;
  };
  auto dots = [&]() {
    if (body.compare(i, 2, u"..") != 0) return false;
    i += 2;
    return true;
  };
  auto letter = [&]() {
    if (i < body.size() && IsAlpha(body[i])) {
      ++i;
      return true;
    }
    return false;
  };
  if (!(alpha ? letter() : number())) return false;
  if (!dots() || !(alpha ? letter() : number())) return false;
  if (i == body.size()) return true;
  if (!dots() || !number()) return false;
  return i == body.size();
}

// parseInt for the digit strings a sequence allows, else the first unit.
double Numeric(const S& s) {
  bool digits = !s.empty();
  std::size_t i = !s.empty() && s[0] == u'-' ? 1 : 0;
  if (i == s.size()) digits = false;
  for (std::size_t k = i; k < s.size(); ++k)
    if (!IsDigit(s[k])) digits = false;
  if (!digits) return s.empty() ? std::nan("") : static_cast<double>(s[0]);
  double v = 0;
  for (std::size_t k = i; k < s.size(); ++k) v = v * 10 + (s[k] - u'0');
  return i ? -v : v;
}

S NumberToString(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  S out;
  for (const char* p = buf; *p; ++p) out.push_back(static_cast<char16_t>(*p));
  return out;
}

std::optional<std::vector<S>> ExpandSequence(const S& body, bool alpha, Budget& budget) {
  std::vector<S> n;
  for (std::size_t i = 0;;) {
    std::size_t j = body.find(u"..", i);
    if (j == S::npos) {
      n.push_back(body.substr(i));
      break;
    }
    n.push_back(body.substr(i, j - i));
    i = j + 2;
  }
  double x = Numeric(n[0]), y = Numeric(n[1]);
  std::size_t width = std::max(n[0].size(), n[1].size());
  double incr = n.size() == 3 ? std::max(std::fabs(Numeric(n[2])), 1.0) : 1.0;
  bool reverse = y < x;
  if (reverse) incr = -incr;
  bool pad = false;
  for (const auto& part : n) {
    std::size_t k = !part.empty() && part[0] == u'-' ? 1 : 0;
    if (k + 1 < part.size() && part[k] == u'0' && IsDigit(part[k + 1])) pad = true;
  }
  std::int64_t cost = pad ? static_cast<std::int64_t>(width) : 1;
  std::vector<S> out;
  double length = 0;
  for (double i = x; (reverse ? i >= y : i <= y) && static_cast<double>(out.size()) < kMax;
       i += incr) {
    budget.remaining -= cost;
    if (budget.remaining < 0) return std::nullopt;
    S c;
    if (alpha) {
      c = S(1, static_cast<char16_t>(static_cast<std::int64_t>(i)));
      if (c == u"\\") c.clear();
    } else {
      c = NumberToString(i);
      if (pad && c.size() < width) {
        S zeros(width - c.size(), u'0');
        c = i < 0 ? u"-" + zeros + c.substr(1) : zeros + c;
      }
    }
    if (length + static_cast<double>(c.size()) > kMaxLength) break;
    length += static_cast<double>(c.size());
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<S> ExpandRec(S str, int depth, Budget& budget, bool is_top) {
  budget.remaining -= kCallSteps;
  if (depth > kMaxDepth) return {str};
  std::vector<S> acc = {S()};
  int rewrites = 0;
  bool drop_empties = false, first_group = true;
  S masked = str;
  for (;;) {
    auto m = BalancedWithBudget(str, masked, budget);
    if (!m) return Combine(acc, str, {S()}, drop_empties, budget);
    if (m->unmatched) masked = MaskUnmatchedOpens(masked, budget);
    const S& pre = m->pre;
    auto literal = [&]() {
      return Combine(acc, pre + u"{" + m->body + u"}" + m->post, {S()}, drop_empties, budget);
    };
    if (!pre.empty() && pre.back() == u'$') {
      acc =
          Combine(acc, pre + u"{" + m->body + u"}", {S()}, drop_empties && m->post.empty(), budget);
      first_group = false;
      if (m->post.empty()) break;
      str = m->post;
      masked = masked.substr(m->end + 1);
      continue;
    }
    bool numeric_seq = IsSequence(m->body, false), alpha_seq = IsSequence(m->body, true);
    bool is_sequence = numeric_seq || alpha_seq;
    bool is_options = m->body.find(u',') != S::npos;
    if (!is_sequence && !is_options) {
      if (rewrites < kMaxRewrites && CommaSetFollows(m->post, budget)) {
        ++rewrites;
        str = m->pre + u"{" + m->body + kEscClose + m->post;
        masked = masked.substr(0, m->end) + kEscClose + masked.substr(m->end + 1);
        is_top = true;
        continue;
      }
      return literal();
    }
    if (first_group) {
      drop_empties = is_top && !is_sequence;
      first_group = false;
    }
    std::vector<S> values;
    if (is_sequence) {
      auto seq = ExpandSequence(m->body, alpha_seq, budget);
      if (!seq) return literal();
      values = std::move(*seq);
    } else {
      auto parsed = ParseCommaParts(m->body, budget);
      if (!parsed) return literal();
      std::vector<S> n = std::move(*parsed);
      if (n.size() == 1) {
        auto inner = ExpandRec(n[0], depth + 1, budget, false);
        if (budget.remaining < 0) return literal();
        n.clear();
        for (auto& v : inner) n.push_back(u"{" + v + u"}");
        if (n.size() == 1) {
          auto next = Combine(acc, pre + n[0], {S()}, drop_empties && m->post.empty(), budget);
          if (budget.remaining < 0) return literal();
          acc = std::move(next);
          if (m->post.empty()) break;
          str = m->post;
          masked = masked.substr(m->end + 1);
          continue;
        }
      }
      bool drops_empties = drop_empties && m->post.empty() && pre.empty();
      for (const auto& a : acc)
        if (!a.empty()) drops_empties = false;
      double values_length = 0;
      for (const auto& member : n) {
        auto expanded = ExpandRec(member, depth + 1, budget, false);
        if (budget.remaining < 0) return literal();
        bool full = false;
        for (auto& v : expanded) {
          if (drops_empties && v.empty()) continue;
          if (static_cast<double>(values.size()) >= kMax ||
              values_length + static_cast<double>(v.size()) > kMaxLength) {
            full = true;
            break;
          }
          values_length += static_cast<double>(v.size());
          values.push_back(std::move(v));
        }
        if (full) break;
      }
    }
    auto next = Combine(acc, pre, values, drop_empties && m->post.empty(), budget);
    if (budget.remaining < 0) return literal();
    acc = std::move(next);
    if (m->post.empty()) break;
    str = m->post;
    masked = masked.substr(m->end + 1);
  }
  return acc;
}

// /\{(?:(?!\{).)*\}/: a "{" later closed by "}" with no "{" or line break between.
bool HasBraceGroup(const S& s) {
  bool open = false;
  for (char16_t c : s) {
    if (c == u'{') {
      open = true;
    } else if (IsLineTerminator(c)) {
      open = false;
    } else if (c == u'}' && open) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::u16string> BraceExpand(const std::u16string& pattern) {
  if (!HasBraceGroup(pattern)) return {pattern};
  S str = pattern;
  if (str.compare(0, 2, u"{}") == 0) str = u"\\{\\}" + str.substr(2);
  Budget budget;
  auto expanded = ExpandRec(EscapeBraces(str), 0, budget, true);
  for (auto& e : expanded) e = UnescapeBraces(e);
  return expanded;
}

}  // namespace sbx::servers::filesystem
