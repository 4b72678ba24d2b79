#include "servers/filesystem/minimatch.h"

#include <algorithm>

#include "core/utf8.h"
#include "servers/filesystem/brace_expansion.h"
#include "servers/filesystem/glob_regex.h"
#include "servers/filesystem/minimatch_ast.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::filesystem {
namespace {

using S = std::u16string;

constexpr std::size_t kMaxPatternLength = 1024 * 64;
constexpr int kMaxGlobstarRecursion = 200;

// String.prototype.split(/\/+/)
std::vector<S> SlashSplit(const S& s) {
  std::vector<S> out;
  S cur;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == u'/') {
      out.push_back(cur);
      cur.clear();
      while (i + 1 < s.size() && s[i + 1] == u'/') ++i;
    } else {
      cur.push_back(s[i]);
    }
  }
  out.push_back(cur);
  return out;
}

bool EndsWith(const S& s, const S& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool NotFastExtChar(char16_t c) {
  return c != u'+' && c != u'@' && c != u'!' && c != u'?' && c != u'*' && c != u'[' && c != u'(';
}

}  // namespace

struct Minimatch::Segment {
  enum Kind { kLiteral, kGlobstar, kRegex } kind = kLiteral;
  enum Fast { kNone, kStar, kStarDotExt, kQmarks, kStarDotStar, kDotStar } fast = kNone;
  S literal;               // kLiteral; the extension for kStarDotExt / kQmarks
  std::size_t length = 0;  // kQmarks: the whole segment's length
  std::shared_ptr<const JsRegex> re;

  bool Test(const S& f, bool dot) const {
    bool is_dots = f == u"." || f == u"..";
    bool starts_dot = !f.empty() && f[0] == u'.';
    switch (fast) {
      case kStar:
        return !f.empty() && (dot ? !is_dots : !starts_dot);
      case kStarDotExt:
        return (dot || !starts_dot) && EndsWith(f, literal);
      case kQmarks:
        return f.size() == length && (dot ? !is_dots : !starts_dot) &&
               (literal.empty() || EndsWith(f, literal));
      case kStarDotStar:
        return (dot ? !is_dots : !starts_dot) && f.find(u'.') != S::npos;
      case kDotStar:
        return !is_dots && starts_dot;
      case kNone:
        break;
    }
    return re->Test(f);
  }
};

Minimatch::~Minimatch() = default;

Minimatch::Minimatch(const std::string& pattern_utf8, bool dot) : dot_(dot) {
  S pattern = utf8::ToUtf16(pattern_utf8);
  if (pattern.size() > kMaxPatternLength) throw FsError("pattern is too long");
  if (!pattern.empty() && pattern[0] == u'#') {
    comment_ = true;
    return;
  }
  if (pattern.empty()) {
    empty_ = true;
    return;
  }
  std::size_t bangs = 0;
  while (bangs < pattern.size() && pattern[bangs] == u'!') ++bangs;
  negate_ = bangs % 2 == 1;
  pattern = pattern.substr(bangs);

  std::vector<S> glob_set;
  for (auto& g : BraceExpand(pattern))
    if (std::find(glob_set.begin(), glob_set.end(), g) == glob_set.end()) glob_set.push_back(g);

  for (const auto& glob : glob_set) {
    // levelOneOptimize: collapse "**/**", drop "<name>/.."
    std::vector<S> parts;
    for (auto& part : SlashSplit(glob)) {
      const S* prev = parts.empty() ? nullptr : &parts.back();
      if (part == u"**" && prev && *prev == u"**") continue;
      if (part == u".." && prev && !prev->empty() && *prev != u".." && *prev != u"." &&
          *prev != u"**") {
        parts.pop_back();
        continue;
      }
      parts.push_back(part);
    }
    if (parts.empty()) parts.push_back(S());

    std::vector<Segment> segments;
    for (const auto& part : parts) {
      Segment seg;
      if (part == u"**") {
        seg.kind = Segment::kGlobstar;
        segments.push_back(std::move(seg));
        continue;
      }
      if (part.empty()) {
        segments.push_back(std::move(seg));
        continue;
      }
      std::size_t stars = 0;
      while (stars < part.size() && part[stars] == u'*') ++stars;
      std::size_t qmarks = 0;
      while (qmarks < part.size() && part[qmarks] == u'?') ++qmarks;
      auto rest_plain = [&](std::size_t from) {
        return std::all_of(part.begin() + static_cast<std::ptrdiff_t>(from), part.end(),
                           NotFastExtChar);
      };
      if (stars == part.size()) {
        seg.fast = Segment::kStar;
      } else if (stars > 0 && rest_plain(stars)) {
        seg.fast = Segment::kStarDotExt;
        seg.literal = part.substr(stars);
      } else if (qmarks > 0 && rest_plain(qmarks)) {
        seg.fast = Segment::kQmarks;
        seg.literal = part.substr(qmarks);
        seg.length = part.size();
      } else if (stars > 0 && stars < part.size() && part[stars] == u'.' &&
                 stars + 1 < part.size() &&
                 std::all_of(part.begin() + static_cast<std::ptrdiff_t>(stars) + 1, part.end(),
                             [](char16_t c) { return c == u'*'; })) {
        seg.fast = Segment::kStarDotStar;
      } else if (part.size() >= 2 && part[0] == u'.' &&
                 std::all_of(part.begin() + 1, part.end(), [](char16_t c) { return c == u'*'; })) {
        seg.fast = Segment::kDotStar;
      }
      glob::SegmentPattern compiled = glob::CompileSegment(part, dot_);
      if (!compiled.magic) {
        seg.kind = Segment::kLiteral;
        seg.fast = Segment::kNone;
        seg.literal = compiled.literal;
      } else {
        seg.kind = Segment::kRegex;
        std::string error;
        seg.re = JsRegex::Compile(u"^" + compiled.source + u"$", compiled.unicode, error);
        if (!seg.re) throw FsError(error);
      }
      segments.push_back(std::move(seg));
    }
    set_.push_back(std::move(segments));
  }
}

bool Minimatch::Match(const std::string& path) const {
  if (comment_) return false;
  if (empty_) return path.empty();
  auto file = SlashSplit(utf8::ToUtf16(path));
  for (const auto& pattern : set_)
    if (MatchParts(file, pattern)) return !negate_;
  return negate_;
}

bool Minimatch::MatchOne(const std::vector<S>& file, const std::vector<Segment>& pattern,
                         std::size_t fi, std::size_t pi, std::size_t fl) const {
  std::size_t pl = pattern.size();
  for (; fi < fl && pi < pl; ++fi, ++pi) {
    const Segment& p = pattern[pi];
    if (p.kind == Segment::kGlobstar) return false;
    bool hit = p.kind == Segment::kLiteral ? file[fi] == p.literal : p.Test(file[fi], dot_);
    if (!hit) return false;
  }
  if (fi == fl && pi == pl) return true;
  if (fi == fl) return false;  // not partial
  return fi == fl - 1 && file[fi].empty();
}

bool Minimatch::MatchParts(const std::vector<S>& file, const std::vector<Segment>& pattern) const {
  auto is_gs = [](const Segment& s) { return s.kind == Segment::kGlobstar; };
  auto first = std::find_if(pattern.begin(), pattern.end(), is_gs);
  if (first == pattern.end()) return MatchOne(file, pattern, 0, 0, file.size());
  std::size_t firstgs = static_cast<std::size_t>(first - pattern.begin());
  std::size_t lastgs =
      pattern.size() - 1 -
      static_cast<std::size_t>(std::find_if(pattern.rbegin(), pattern.rend(), is_gs) -
                               pattern.rbegin());
  std::vector<Segment> head(pattern.begin(),
                            pattern.begin() + static_cast<std::ptrdiff_t>(firstgs));
  std::vector<Segment> body(
      pattern.begin() + static_cast<std::ptrdiff_t>(firstgs) + 1,
      pattern.begin() + static_cast<std::ptrdiff_t>(std::max(lastgs, firstgs + 1)));
  if (lastgs == firstgs) body.clear();
  std::vector<Segment> tail(pattern.begin() + static_cast<std::ptrdiff_t>(lastgs) + 1,
                            pattern.end());

  std::size_t fi = 0;
  if (!head.empty()) {
    if (!MatchOne(file, head, fi, 0, std::min(file.size(), fi + head.size()))) return false;
    fi += head.size();
  }
  std::size_t tail_match = 0;
  if (!tail.empty()) {
    if (tail.size() + fi > file.size()) return false;
    std::size_t tail_start = file.size() - tail.size();
    if (MatchOne(file, tail, tail_start, 0, file.size())) {
      tail_match = tail.size();
    } else {
      if (!file.back().empty() || fi + tail.size() == file.size()) return false;
      --tail_start;
      if (!MatchOne(file, tail, tail_start, 0, file.size())) return false;
      tail_match = tail.size() + 1;
    }
  }
  auto bad_dot = [&](const S& f) {
    return f == u"." || f == u".." || (!dot_ && !f.empty() && f[0] == u'.');
  };
  if (body.empty()) {
    bool saw_some = tail_match > 0;
    for (std::size_t i = fi; i + tail_match < file.size(); ++i) {
      saw_some = true;
      if (bad_dot(file[i])) return false;
    }
    return saw_some;
  }
  // Sections of the body between globstars, each with the last index it may
  // start at (computed exactly as minimatch does).
  std::vector<std::pair<std::vector<Segment>, std::size_t>> sections(1);
  std::vector<std::size_t> sums = {0};
  std::size_t non_gs = 0;
  for (auto& b : body) {
    if (is_gs(b)) {
      sums.push_back(non_gs);
      sections.emplace_back();
    } else {
      sections.back().first.push_back(b);
      ++non_gs;
    }
  }
  long file_length = static_cast<long>(file.size() - tail_match);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    long after =
        file_length - static_cast<long>(sums[sections.size() - 1 - i] + sections[i].first.size());
    sections[i].second = after < 0 ? static_cast<std::size_t>(-1) : static_cast<std::size_t>(after);
  }
  return BodySections(file, sections, fi, 0, 0, tail_match > 0) == 1;
}

// 1: match; 0: no match; -1: no match and stop trying (minimatch's null).
int Minimatch::BodySections(
    const std::vector<S>& file,
    const std::vector<std::pair<std::vector<Segment>, std::size_t>>& sections, std::size_t fi,
    std::size_t bi, int depth, bool saw_tail) const {
  auto bad_dot = [&](const S& f) {
    return f == u"." || f == u".." || (!dot_ && !f.empty() && f[0] == u'.');
  };
  if (bi >= sections.size()) {
    for (std::size_t i = fi; i < file.size(); ++i) {
      saw_tail = true;
      if (bad_dot(file[i])) return 0;
    }
    return saw_tail ? 1 : 0;
  }
  const auto& [body, after] = sections[bi];
  if (after == static_cast<std::size_t>(-1)) return -1;
  while (fi <= after) {
    bool m = MatchOne(file, body, fi, 0, std::min(file.size(), fi + body.size()));
    if (m && depth < kMaxGlobstarRecursion) {
      int sub = BodySections(file, sections, fi + body.size(), bi + 1, depth + 1, saw_tail);
      if (sub != 0) return sub;
    }
    if (fi < file.size() && bad_dot(file[fi])) return 0;
    ++fi;
  }
  return -1;
}

bool GlobMatch(const std::string& path, const std::string& pattern) {
  return Minimatch(pattern, true).Match(path);
}

}  // namespace sbx::servers::filesystem
