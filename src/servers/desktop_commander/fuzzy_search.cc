#include "servers/desktop_commander/fuzzy_search.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>
#include <vector>

#include "servers/filesystem/node_errors.h"

namespace sbx::servers::desktop_commander {
namespace {

constexpr std::int64_t kInfinity = std::numeric_limits<std::int64_t>::max();

// String.prototype.substring: both ends clamped to [0, length], swapped
// when the start is past the end.
std::u16string_view Substring(std::u16string_view s, std::int64_t from, std::int64_t to) {
  auto len = static_cast<std::int64_t>(s.size());
  from = std::clamp<std::int64_t>(from, 0, len);
  to = std::clamp<std::int64_t>(to, 0, len);
  if (from > to) std::swap(from, to);
  return s.substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
}

class Search {
 public:
  Search(std::u16string_view text, std::u16string_view query, std::uint64_t budget)
      : text_(text), query_(query), budget_(budget) {}

  std::int64_t Distance(std::int64_t from, std::int64_t to) {
    std::u16string_view segment = Substring(text_, from, to);
    std::size_t shorter = std::min(segment.size(), query_.size()), longer = std::max(segment.size(), query_.size());
    if (work_ + static_cast<std::uint64_t>(longer) * ((shorter + 63) / 64) > budget_)
      throw filesystem::FsError(
          "The search text was not found exactly, and looking for a near match in a file this size would take too "
          "long (" + std::to_string(text_.size()) + " characters searched for " + std::to_string(query_.size()) +
          " characters); use a shorter, exact old_string");
    return EditDistance(segment, query_, work_);
  }

  FuzzyMatch Recursive(std::int64_t start, std::int64_t end, std::int64_t parent) {
    auto q = static_cast<std::int64_t>(query_.size());
    if (end - start <= 2 * q) return Iterative(start, end, parent);
    std::int64_t mid = start + (end - start) / 2;
    std::int64_t left_end = std::min(end, mid + q);
    std::int64_t right_start = std::max(start, mid - q);
    std::int64_t left = Distance(start, left_end);
    std::int64_t right = Distance(right_start, end);
    std::int64_t best = std::min({left, parent, right});
    if (parent == best) return Iterative(start, end, parent);
    if (left < right) return Recursive(start, left_end, best);
    return Recursive(right_start, end, best);
  }

  FuzzyMatch Iterative(std::int64_t start, std::int64_t end, std::int64_t parent) {
    std::int64_t best = parent, best_start = start, best_end = end;
    std::int64_t next = Distance(best_start + 1, best_end);
    while (next < best) {
      best = next;
      ++best_start;
      next = Distance(best_start + 1, best_end);
    }
    next = Distance(best_start, best_end - 1);
    while (next < best) {
      best = next;
      --best_end;
      next = Distance(best_start, best_end - 1);
    }
    FuzzyMatch m;
    m.start = best_start;
    m.end = best_end;
    m.value = std::u16string(Substring(text_, best_start, best_end));
    m.distance = best;
    return m;
  }

 private:
  std::u16string_view text_, query_;
  std::uint64_t budget_;
  std::uint64_t work_ = 0;
};

}  // namespace

std::int64_t EditDistance(std::u16string_view a, std::u16string_view b, std::uint64_t& work) {
  // The shorter string is the pattern (its rows go in 64-bit words), the
  // longer the text walked column by column.
  std::u16string_view pattern = a.size() <= b.size() ? a : b;
  std::u16string_view text = a.size() <= b.size() ? b : a;
  const std::size_t m = pattern.size(), n = text.size();
  if (m == 0) return static_cast<std::int64_t>(n);
  const std::size_t words = (m + 63) / 64;
  work += static_cast<std::uint64_t>(n) * words;

  std::unordered_map<char16_t, std::vector<std::uint64_t>> peq;
  for (std::size_t i = 0; i < m; ++i) {
    auto& v = peq[pattern[i]];
    if (v.empty()) v.assign(words, 0);
    v[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  std::vector<std::uint64_t> pv(words, ~std::uint64_t{0}), mv(words, 0);
  const std::uint64_t last_bit = std::uint64_t{1} << ((m - 1) % 64);
  std::int64_t score = static_cast<std::int64_t>(m);
  for (std::size_t j = 0; j < n; ++j) {
    auto found = peq.find(text[j]);
    const std::uint64_t* eq_words = found == peq.end() ? nullptr : found->second.data();
    int carry = 1;  // D[0][j] - D[0][j-1]: the top row grows by one per column
    for (std::size_t k = 0; k < words; ++k) {
      std::uint64_t eq = eq_words ? eq_words[k] : 0;
      std::uint64_t xv = eq | mv[k];
      if (carry < 0) eq |= 1;
      std::uint64_t xh = (((eq & pv[k]) + pv[k]) ^ pv[k]) | eq;
      std::uint64_t ph = mv[k] | ~(xh | pv[k]);
      std::uint64_t mh = pv[k] & xh;
      std::uint64_t high = k + 1 == words ? last_bit : std::uint64_t{1} << 63;
      int out = (ph & high) ? 1 : (mh & high) ? -1 : 0;
      ph <<= 1;
      mh <<= 1;
      if (carry < 0) mh |= 1;
      else if (carry > 0) ph |= 1;
      pv[k] = mh | ~(xv | ph);
      mv[k] = ph & xv;
      carry = out;
    }
    score += carry;
  }
  return score;
}

FuzzyMatch FuzzyIndexOf(std::u16string_view text, std::u16string_view query, std::uint64_t budget) {
  Search search(text, query, budget);
  return search.Recursive(0, static_cast<std::int64_t>(text.size()), kInfinity);
}

double SimilarityRatio(std::u16string_view a, std::u16string_view b) {
  std::size_t longer = std::max(a.size(), b.size());
  if (longer == 0) return 1;
  std::uint64_t work = 0;
  std::int64_t d = EditDistance(a, b, work);
  return 1 - static_cast<double>(d) / static_cast<double>(longer);
}

namespace {

// The common prefix and suffix lengths upstream's two diff helpers compute.
void CommonEnds(std::u16string_view e, std::u16string_view a, std::size_t& prefix, std::size_t& suffix) {
  std::size_t min = std::min(e.size(), a.size());
  prefix = 0;
  while (prefix < min && e[prefix] == a[prefix]) ++prefix;
  suffix = 0;
  while (suffix < min - prefix && e[e.size() - 1 - suffix] == a[a.size() - 1 - suffix]) ++suffix;
}

}  // namespace

std::u16string HighlightDifferences(std::u16string_view expected, std::u16string_view actual) {
  std::size_t prefix, suffix;
  CommonEnds(expected, actual, prefix, suffix);
  std::u16string out(expected.substr(0, prefix));
  out += u"{-";
  out += expected.substr(prefix, expected.size() - suffix - prefix);
  out += u"-}{+";
  out += actual.substr(prefix, actual.size() - suffix - prefix);
  out += u"+}";
  out += expected.substr(expected.size() - suffix);
  return out;
}

CharacterCodes CharacterCodeData(std::u16string_view expected, std::u16string_view actual) {
  std::size_t prefix, suffix;
  CommonEnds(expected, actual, prefix, suffix);
  std::u16string diff(expected.substr(prefix, expected.size() - suffix - prefix));
  diff += actual.substr(prefix, actual.size() - suffix - prefix);
  std::map<char16_t, std::size_t> counts;  // sorted by code, as upstream sorts its report
  for (char16_t c : diff) ++counts[c];
  CharacterCodes out;
  for (const auto& [code, count] : counts) {
    if (!out.report.empty()) out.report += ',';
    std::string shown;
    if (code < 32 || code > 126) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(code));
      shown = buf;
    } else {
      shown = std::string(1, static_cast<char>(code));
    }
    out.report += std::to_string(code) + ":" + std::to_string(count) + "[" + shown + "]";
  }
  out.unique = counts.size();
  out.diff_length = diff.size();
  return out;
}

}  // namespace sbx::servers::desktop_commander
