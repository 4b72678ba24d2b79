#include "servers/git/patch_index.h"

#include <cctype>

#include "servers/git/python_text.h"

namespace sbx::servers::git {
namespace {

// The line starting at `pos` (without its newline) and where the next one
// starts; `has_newline` tells (?:\n|$) which way it matched.
struct Line {
  std::string_view text;
  std::size_t next = 0;
  bool has_newline = false;
};

Line LineAt(std::string_view s, std::size_t pos) {
  std::size_t nl = s.find('\n', pos);
  if (nl == std::string_view::npos) return Line{s.substr(pos), s.size(), false};
  return Line{s.substr(pos, nl - pos), nl + 1, true};
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool AllHex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// `"?[ab]/.+?"?` up to the end of the line (the b-side fallback).
bool MatchesSideToEnd(std::string_view rest, std::size_t p) {
  if (p < rest.size() && rest[p] == '"') ++p;
  return p + 2 < rest.size() && (rest[p] == 'a' || rest[p] == 'b') && rest[p + 1] == '/';
}

// "diff --git <a> <b>": the lazy split re_header makes.
bool SplitFallback(std::string_view rest, std::string& a, std::string& b) {
  std::size_t q = (!rest.empty() && rest[0] == '"') ? 1 : 0;
  if (q + 1 >= rest.size() || (rest[q] != 'a' && rest[q] != 'b') || rest[q + 1] != '/') return false;
  for (std::size_t e = q + 3; e < rest.size(); ++e) {
    if (rest[e] == '"' && e + 1 < rest.size() && rest[e + 1] == ' ' && MatchesSideToEnd(rest, e + 2)) {
      a = std::string(rest.substr(0, e + 1));
      b = std::string(rest.substr(e + 2));
      return true;
    }
    if (rest[e] == ' ' && MatchesSideToEnd(rest, e + 1)) {
      a = std::string(rest.substr(0, e));
      b = std::string(rest.substr(e + 1));
      return true;
    }
  }
  return false;
}

// decode_path: /dev/null → None, C quoting and octal escapes undone, the
// a/ or b/ prefix dropped.
std::optional<std::string> DecodePath(std::string path, bool has_ab_prefix) {
  if (path == "/dev/null") return std::nullopt;
  if (path.size() >= 2 && path.front() == '"' && path.back() == '"') {
    std::string inner = path.substr(1, path.size() - 2);
    // bytes.replace chain: \n, \t, \", \\ in that order.
    auto replace_all = [](std::string s, const std::string& from, const std::string& to) {
      std::string r;
      std::size_t i = 0;
      for (std::size_t j; (j = s.find(from, i)) != std::string::npos; i = j + from.size()) r += s.substr(i, j - i) + to;
      return r + s.substr(i);
    };
    inner = replace_all(inner, "\\n", "\n");
    inner = replace_all(inner, "\\t", "\t");
    inner = replace_all(inner, "\\\"", "\"");
    path = replace_all(inner, "\\\\", "\\");
  }
  // _octal_byte_re: "\\ddd" → that byte.
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '\\' && i + 3 < path.size() && AllDigits(std::string_view(path).substr(i + 1, 3))) {
      int value = (path[i + 1] - '0') * 64 + (path[i + 2] - '0') * 8 + (path[i + 3] - '0');
      bool octal = path[i + 1] <= '7' && path[i + 2] <= '7' && path[i + 3] <= '7';
      if (octal && value < 256) {
        out += static_cast<char>(value);
        i += 3;
        continue;
      }
    }
    out += path[i];
  }
  if (has_ab_prefix && (StartsWith(out, "a/") || StartsWith(out, "b/"))) out = out.substr(2);
  return py::DecodeUtf8Replace(out);
}

struct Header {
  std::size_t start = 0, end = 0;
  std::string a_fallback, b_fallback;
  std::optional<std::string> rename_from, rename_to, a_path, b_path;
};

// re_header at `pos` (a line start); nullopt when its first line does not match.
std::optional<Header> MatchHeader(std::string_view s, std::size_t pos) {
  Line first = LineAt(s, pos);
  if (!first.has_newline || !StartsWith(first.text, "diff --git ")) return std::nullopt;
  Header h;
  h.start = pos;
  if (!SplitFallback(first.text.substr(11), h.a_fallback, h.b_fallback)) return std::nullopt;
  pos = first.next;
  auto after = [](std::string_view line, std::string_view prefix) { return line.substr(prefix.size()); };

  // old mode / new mode
  Line l1 = LineAt(s, pos), l2 = LineAt(s, l1.next);
  if (l1.has_newline && StartsWith(l1.text, "old mode ") && AllDigits(after(l1.text, "old mode ")) &&
      StartsWith(l2.text, "new mode ") && AllDigits(after(l2.text, "new mode ")) && pos < s.size())
    pos = l2.next;
  // similarity index / rename from / rename to
  auto similarity = [&](std::string_view line) {
    if (!StartsWith(line, "similarity index ") || line.empty() || line.back() != '%') return false;
    return AllDigits(line.substr(17, line.size() - 18));
  };
  l1 = LineAt(s, pos);
  l2 = LineAt(s, l1.next);
  Line l3 = LineAt(s, l2.next);
  if (pos < s.size() && l1.has_newline && similarity(l1.text) && l2.has_newline && StartsWith(l2.text, "rename from ") &&
      StartsWith(l3.text, "rename to ")) {
    h.rename_from = std::string(after(l2.text, "rename from "));
    h.rename_to = std::string(after(l3.text, "rename to "));
    pos = l3.next;
  }
  for (std::string_view prefix : {"new file mode ", "deleted file mode "}) {
    Line l = LineAt(s, pos);
    if (pos < s.size() && StartsWith(l.text, prefix) && l.text.size() > prefix.size()) pos = l.next;
  }
  l1 = LineAt(s, pos);
  l2 = LineAt(s, l1.next);
  l3 = LineAt(s, l2.next);
  if (pos < s.size() && l1.has_newline && similarity(l1.text) && l2.has_newline && StartsWith(l2.text, "copy from ") &&
      StartsWith(l3.text, "copy to "))
    pos = l3.next;
  // index <a>..<b>[ <mode>]
  Line idx = LineAt(s, pos);
  if (pos < s.size() && StartsWith(idx.text, "index ")) {
    std::string_view rest = after(idx.text, "index ");
    std::size_t dots = rest.find("..");
    std::size_t end = dots == std::string_view::npos ? dots : dots + 2;
    while (end != std::string_view::npos && end < rest.size() && std::isxdigit(static_cast<unsigned char>(rest[end]))) ++end;
    if (dots != std::string_view::npos && AllHex(rest.substr(0, dots)) && end > dots + 2) pos = idx.next;
  }
  // --- <path> / +++ <path>, trailing tabs and the like ignored
  for (std::string_view prefix : {"--- ", "+++ "}) {
    Line l = LineAt(s, pos);
    if (pos >= s.size() || !StartsWith(l.text, prefix)) continue;
    std::string_view rest = after(l.text, prefix);
    std::size_t stop = rest.find_first_of("\t\r\f\v");
    std::string_view path = rest.substr(0, stop);
    if (stop != std::string_view::npos && rest.substr(stop).find_first_not_of("\t\r\f\v") != std::string_view::npos)
      continue;
    (prefix[0] == '-' ? h.a_path : h.b_path) = std::string(path);
    pos = l.next;
  }
  h.end = pos;
  return h;
}

std::optional<std::string> PickBestPath(const std::optional<std::string>& path, const std::optional<std::string>& rename,
                                        const std::string& fallback) {
  if (path && !path->empty()) return DecodePath(*path, true);
  if (rename && !rename->empty()) return DecodePath(*rename, false);
  if (!fallback.empty()) return DecodePath(fallback, true);
  return std::nullopt;
}

}  // namespace

std::vector<PatchDiff> ParsePatchIndex(const std::string& text) {
  std::vector<PatchDiff> out;
  std::optional<Header> previous;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::optional<Header> h = MatchHeader(text, pos);
    if (!h) {
      std::size_t nl = text.find('\n', pos);
      pos = nl == std::string::npos ? text.size() : nl + 1;
      continue;
    }
    if (previous) out.back().diff = text.substr(previous->end, h->start - previous->end);
    out.push_back(PatchDiff{PickBestPath(h->a_path, h->rename_from, h->a_fallback),
                            PickBestPath(h->b_path, h->rename_to, h->b_fallback), ""});
    previous = h;
    // The next search starts where this match ended (always a line start).
    pos = h->end > h->start ? h->end : h->start + 1;
  }
  if (previous) out.back().diff = text.substr(previous->end);
  return out;
}

}  // namespace sbx::servers::git
