#include "servers/filesystem/minimatch_class.h"

#include <optional>
#include <string>
#include <vector>

#include "js_text/string.h"

namespace sbx::servers::filesystem::glob {
namespace {

using S = std::u16string;

bool StartsWith(const S& s, const S& prefix, std::size_t at = 0) {
  return at <= s.size() && s.compare(at, prefix.size(), prefix) == 0;
}

}  // namespace

bool IsLineTerminator(char16_t c) { return c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029; }
// regExpEscape: /[-[\]{}()*+?.,\\^$|#\s]/g -> '\\$&'
S RegExpEscape(const S& s) {
  static const S kSpecial = u"-[]{}()*+?.,\\^$|#";
  S out;
  for (char16_t c : s) {
    if (kSpecial.find(c) != S::npos || js::IsWhitespace(c)) out.push_back(u'\\');
    out.push_back(c);
  }
  return out;
}

// braceEscape: /[[\]\\-]/g -> '\\$&'
S BraceEscape(const S& s) {
  S out;
  for (char16_t c : s) {
    if (c == u'[' || c == u']' || c == u'\\' || c == u'-') out.push_back(u'\\');
    out.push_back(c);
  }
  return out;
}

// minimatch's parseClass: the glob's bracket expression at `pos`.
ClassResult ParseClass(const S& glob, std::size_t pos) {
  struct Posix {
    const char16_t* name;
    const char16_t* unip;
    bool u;
    bool neg;
  };
  static const Posix kPosix[] = {
      {u"[:alnum:]", u"\\p{L}\\p{Nl}\\p{Nd}", true, false},
      {u"[:alpha:]", u"\\p{L}\\p{Nl}", true, false},
      {u"[:ascii:]", u"\\x00-\\x7f", false, false},
      {u"[:blank:]", u"\\p{Zs}\\t", true, false},
      {u"[:cntrl:]", u"\\p{Cc}", true, false},
      {u"[:digit:]", u"\\p{Nd}", true, false},
      {u"[:graph:]", u"\\p{Z}\\p{C}", true, true},
      {u"[:lower:]", u"\\p{Ll}", true, false},
      {u"[:print:]", u"\\p{C}", true, false},
      {u"[:punct:]", u"\\p{P}", true, false},
      {u"[:space:]", u"\\p{Z}\\t\\r\\n\\v\\f", true, false},
      {u"[:upper:]", u"\\p{Lu}", true, false},
      {u"[:word:]", u"\\p{L}\\p{Nl}\\p{Nd}\\p{Pc}", true, false},
      {u"[:xdigit:]", u"A-Fa-f0-9", false, false},
  };
  std::vector<S> ranges, negs;
  std::size_t i = pos + 1;
  bool saw_start = false, uflag = false, escaping = false, negate = false;
  std::size_t end_pos = pos;
  std::optional<char16_t> range_start;
  while (i < glob.size()) {
    char16_t c = glob[i];
    if ((c == u'!' || c == u'^') && i == pos + 1) {
      negate = true;
      ++i;
      continue;
    }
    if (c == u']' && saw_start && !escaping) {
      end_pos = i + 1;
      break;
    }
    saw_start = true;
    if (c == u'\\' && !escaping) {
      escaping = true;
      ++i;
      continue;
    }
    if (c == u'[' && !escaping) {
      bool matched = false;
      for (const auto& p : kPosix) {
        S name = p.name;
        if (!StartsWith(glob, name, i)) continue;
        if (range_start) return {u"$.", false, glob.size() - pos, true};
        i += name.size();
        (p.neg ? negs : ranges).push_back(p.unip);
        uflag = uflag || p.u;
        matched = true;
        break;
      }
      if (matched) continue;
    }
    escaping = false;
    if (range_start) {
      if (c > *range_start) {
        ranges.push_back(BraceEscape(S(1, *range_start)) + u"-" + BraceEscape(S(1, c)));
      } else if (c == *range_start) {
        ranges.push_back(BraceEscape(S(1, c)));
      }
      range_start.reset();
      ++i;
      continue;
    }
    if (StartsWith(glob, u"-]", i + 1)) {
      ranges.push_back(BraceEscape(S(1, c) + u"-"));
      i += 2;
      continue;
    }
    if (StartsWith(glob, u"-", i + 1)) {
      range_start = c;
      i += 2;
      continue;
    }
    ranges.push_back(BraceEscape(S(1, c)));
    ++i;
  }
  if (end_pos < i) return {u"", false, 0, false};
  if (ranges.empty() && negs.empty()) return {u"$.", false, glob.size() - pos, true};
  if (negs.empty() && ranges.size() == 1 && !negate) {
    const S& r = ranges[0];
    bool one = (r.size() == 1 && !IsLineTerminator(r[0])) ||
               (r.size() == 2 && r[0] == u'\\' && !IsLineTerminator(r[1]));
    if (one) return {RegExpEscape(r.size() == 2 ? r.substr(1) : r), false, end_pos - pos, false};
  }
  auto join = [](const std::vector<S>& v) {
    S out;
    for (const auto& x : v) out += x;
    return out;
  };
  S sranges = u"[" + S(negate ? u"^" : u"") + join(ranges) + u"]";
  S snegs = u"[" + S(negate ? u"" : u"^") + join(negs) + u"]";
  S comb = !ranges.empty() && !negs.empty() ? u"(" + sranges + u"|" + snegs + u")"
           : !ranges.empty()                ? sranges
                                            : snegs;
  return {comb, uflag, end_pos - pos, true};
}

S Unescape(const S& s) {
  // /((?!\\).|^)\[([^/\\])\]/g -> '$1$2'
  S first;
  for (std::size_t k = 0; k < s.size();) {
    auto bracketed = [&](std::size_t at) {
      return at + 2 < s.size() && s[at] == u'[' && s[at + 1] != u'/' && s[at + 1] != u'\\' &&
             s[at + 2] == u']';
    };
    if (s[k] != u'\\' && !IsLineTerminator(s[k]) && bracketed(k + 1)) {
      first += s[k];
      first += s[k + 2];
      k += 4;
      continue;
    }
    if (k == 0 && bracketed(0)) {
      first += s[1];
      k = 3;
      continue;
    }
    first += s[k++];
  }
  // /\\([^/])/g -> '$1'
  S out;
  for (std::size_t k = 0; k < first.size();) {
    if (first[k] == u'\\' && k + 1 < first.size() && first[k + 1] != u'/') {
      out += first[k + 1];
      k += 2;
      continue;
    }
    out += first[k++];
  }
  return out;
}

}  // namespace sbx::servers::filesystem::glob
