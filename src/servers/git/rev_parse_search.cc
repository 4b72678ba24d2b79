// The parts of GitPython's rev_parse that read history rather than names:
// reflog selectors (@{N}, @{-N}, @{upstream}, @{date}) read from the reflog
// files as GitPython reads them, and message searches (:/regex,
// ^{/regex}) walked in GitPython's order.
#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"
#include "servers/git/refs.h"
#include "servers/git/rev_parse.h"
#include "servers/git/rev_parse_internal.h"

namespace sbx::servers::git::revparse {
namespace {

struct ReflogEntry {
  std::string new_sha, message;
  std::int64_t time = 0;
};

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Python's int(str) for plain decimal text (an optional sign, digits,
// surrounding blanks); nullopt where int() raises ValueError.
std::optional<long long> PyInt(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  s = s.substr(b);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s = s.substr(1);
  }
  if (!AllDigits(s)) return std::nullopt;
  if (s.size() > 17) s = "99999999999999999";
  long long v = std::stoll(s);
  return negative ? -v : v;
}

// The reflog of `ref` (git dir first, then the common dir), oldest first;
// nullopt when there is no file.
std::optional<std::vector<ReflogEntry>> ReadReflog(const Repository& repo, const std::string& ref) {
  auto text = repo.ReadGitFile("logs/" + ref);
  if (!text) text = repo.ReadGitFile("logs/" + ref, true);
  if (!text) return std::nullopt;
  std::vector<ReflogEntry> out;
  std::size_t i = 0;
  while (i < text->size()) {
    std::size_t nl = text->find('\n', i);
    if (nl == std::string::npos) nl = text->size();
    std::string line = text->substr(i, nl - i);
    i = nl + 1;
    if (line.size() < 82) continue;
    ReflogEntry e;
    e.new_sha = line.substr(41, 40);
    std::size_t tab = line.find('\t');
    std::string info = line.substr(0, tab);
    if (tab != std::string::npos) e.message = line.substr(tab + 1);
    std::size_t gt = info.find('>', 82);
    if (gt != std::string::npos) {
      std::size_t sp = info.find(' ', gt + 2);
      e.time = PyInt(info.substr(gt + 2, sp == std::string::npos ? std::string::npos : sp - gt - 2)).value_or(0);
    }
    out.push_back(std::move(e));
  }
  return out;
}

// GitPython's parse_date for the forms a reflog selector can use here:
// "<epoch> <tz>" and ISO 8601 "YYYY-MM-DD[T ]HH:MM:SS[ ±hhmm]" (the offset
// is ignored, as GitPython ignores it there).
std::optional<std::int64_t> ParseDate(const std::string& spec) {
  if (std::count(spec.begin(), spec.end(), ' ') == 1 && spec.find(':') == std::string::npos) {
    std::string ts = spec.substr(0, spec.find(' '));
    if (!ts.empty() && ts[0] == '@') ts = ts.substr(1);
    std::string tz = spec.substr(spec.find(' ') + 1);
    if (tz.size() != 5 || (tz[0] != '+' && tz[0] != '-') || !AllDigits(tz.substr(1))) return std::nullopt;
    return PyInt(ts);
  }
  std::string s = spec;
  if (s.size() >= 6 && (s[s.size() - 5] == '+' || s[s.size() - 5] == '-')) {
    if (!AllDigits(s.substr(s.size() - 4))) return std::nullopt;
    s = s.substr(0, s.size() - 6);
  }
  int y, mo, d, h, mi, se;
  char sep;
  int used = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &y, &mo, &d, &sep, &h, &mi, &se, &used) != 7 ||
      static_cast<std::size_t>(used) != s.size() || (sep != 'T' && sep != ' '))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 61) return std::nullopt;
  // days_from_civil
  int yy = mo <= 2 ? y - 1 : y;
  const int era = (yy >= 0 ? yy : yy - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(yy - era * 400);
  const unsigned doy = (153 * static_cast<unsigned>(mo + (mo > 2 ? -3 : 9)) + 2) / 5 + static_cast<unsigned>(d) - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  std::int64_t days = static_cast<std::int64_t>(era) * 146097 + static_cast<std::int64_t>(doe) - 719468;
  return days * 86400 + h * 3600 + mi * 60 + se;
}

std::string ReflogSha(const Repository& repo, const std::string& ref, const std::string& spec) {
  auto when = ParseDate(spec);
  if (!when) Fail("Support for additional @{...} modes not implemented");
  auto log = ReadReflog(repo, ref).value_or(std::vector<ReflogEntry>{});
  if (log.empty()) Fail("Invalid revlog date: " + spec);
  for (auto it = log.rbegin(); it != log.rend(); ++it)
    if (it->time <= *when) return it->new_sha;
  return log.front().new_sha;
}

ObjectHeader PreviousCheckout(const Repository& repo, long long nth) {
  if (nth <= 0) Fail("Invalid previous checkout selector: -" + std::to_string(nth));
  auto log = ReadReflog(repo, "HEAD").value_or(std::vector<ReflogEntry>{});
  long long seen = 0;
  const std::string prefix = "checkout: moving from ";
  for (auto it = log.rbegin(); it != log.rend(); ++it) {
    if (it->message.rfind(prefix, 0) != 0) continue;
    std::string rest = it->message.substr(prefix.size());
    if (++seen == nth) return NameToObject(repo, rest.substr(0, rest.find(" to ")));
  }
  Fail("Invalid previous checkout selector: -" + std::to_string(nth));
}

// _tracking_branch_object: branch.<name>.remote/merge → refs/remotes/<remote>/<branch>.
ObjectHeader TrackingBranch(const Repository& repo, const std::optional<std::string>& ref) {
  std::string head;
  if (!ref) {
    HeadState state = ReadHead(repo);
    if (!state.branch) Fail(BadNameText("@{upstream}"));
    head = *state.branch;
  } else if (ref->rfind("refs/heads/", 0) == 0) {
    head = *ref;
  } else {
    Fail(BadNameText(*ref + "@{upstream}"));
  }
  std::string name = ReferenceName(head);
  auto remote = repo.ConfigValue("branch." + name + ".remote");
  auto merge = repo.ConfigValue("branch." + name + ".merge");
  if (!remote || !merge) Fail(BadNameText(name + "@{upstream}"));
  std::string m = *merge;
  if (m.size() >= 2 && m.front() == '"' && m.back() == '"') m = m.substr(1, m.size() - 2);
  if (m.rfind("refs/heads/", 0) != 0) m = "refs/heads/" + m;
  std::string path = *remote + "/" + ReferenceName(m);
  if (path.rfind("refs/remotes/", 0) != 0) path = "refs/remotes/" + path;
  return RefCommit(repo, path);
}

}  // namespace

ObjectHeader ApplyReflog(const Repository& repo, const std::optional<std::string>& ref, std::string content) {
  if (!content.empty() && content[0] == '+') content = content.substr(1);
  if (!content.empty() && content[0] == '-') {
    if (ref) Fail("Previous checkout selectors do not take an explicit ref");
    if (content == "-0") Fail("Negative zero is invalid in reflog selector");
    auto n = PyInt(content.substr(1));
    if (!n || *n <= 0) Fail("Invalid previous checkout selector: " + content);
    return PreviousCheckout(repo, *n);
  }
  std::string lower = content;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "u" || lower == "upstream" || lower == "push") return TrackingBranch(repo, ref);

  std::string which = ref ? *ref : CurrentReflogRef(repo);
  auto entry_no = PyInt(content);
  std::string sha;
  if (!entry_no) {
    sha = ReflogSha(repo, which, content);
  } else if (*entry_no >= 100000000) {
    sha = ReflogSha(repo, which, std::to_string(*entry_no) + " +0000");
  } else if (*entry_no == 0) {
    return RefCommit(repo, which);
  } else {
    auto log = ReadReflog(repo, which);
    if (!log) Fail("[Errno 2] No such file or directory: " + py::Repr(repo.git_dir() + "/logs/" + which));
    long long index = static_cast<long long>(log->size()) - (*entry_no + 1);
    if (*entry_no < 0 || index < 0) Fail("Invalid revlog index: " + std::to_string(*entry_no));
    sha = (*log)[static_cast<std::size_t>(index)].new_sha;
  }
  return ObjectFromSha(repo, sha);
}

ObjectHeader FindCommitByMessage(const Repository& repo, const std::optional<ObjectHeader>& start,
                                 std::string pattern, bool braced) {
  if (braced) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
      if (pattern[i] == '\\' && i + 1 < pattern.size()) {
        char n = pattern[i + 1];
        if (n != '{' && n != '}' && n != '\\') out += '\\';
        out += n;
        ++i;
      } else {
        out += pattern[i];
      }
    }
    pattern = out;
  }
  if (pattern.empty()) Fail("Revision search requires a pattern");
  bool negated = false;
  if (pattern.rfind("!-", 0) == 0) {
    pattern = pattern.substr(2);
    negated = true;
  } else if (pattern.rfind("!!", 0) == 0) {
    pattern = pattern.substr(1);
  } else if (pattern[0] == '!') {
    Fail("Need one character after /!, typically -");
  }
  std::regex re;
  try {
    re = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error&) {
    Fail("Invalid commit message regex " + py::Repr(pattern));
  }

  // Starting points, then the whole reachable graph with committer dates.
  std::vector<std::string> starts;
  if (start) {
    starts.push_back(ToCommit(repo, *start).sha);
  } else {
    std::vector<std::string> names;
    for (const auto& r : ListReferences(repo)) names.push_back(r + "^{commit}");
    names.push_back("HEAD^{commit}");
    for (const auto& h : LookupObjects(repo, names))
      if (h) starts.push_back(h->sha);
  }
  struct Node {
    std::int64_t date = 0;
    std::vector<std::string> parents;
  };
  std::map<std::string, Node> graph;
  if (!starts.empty()) {
    std::vector<std::string> args = {"rev-list", "--parents", "--timestamp"};
    args.insert(args.end(), starts.begin(), starts.end());
    args.push_back("--");
    std::string out = repo.Call(args);
    std::size_t i = 0;
    while (i < out.size()) {
      std::size_t nl = out.find('\n', i);
      if (nl == std::string::npos) nl = out.size();
      std::string line = out.substr(i, nl - i);
      i = nl + 1;
      std::vector<std::string> f;
      for (std::size_t p = 0; p <= line.size();) {
        std::size_t q = line.find(' ', p);
        if (q == std::string::npos) q = line.size();
        f.push_back(line.substr(p, q - p));
        p = q + 1;
      }
      if (f.size() < 2) continue;
      Node& n = graph[f[1]];
      n.date = PyInt(f[0]).value_or(0);
      n.parents.assign(f.begin() + 2, f.end());
    }
  }
  std::map<std::string, std::string> messages;
  std::vector<std::string> pending = starts;
  std::set<std::string> seen;
  auto date_of = [&](const std::string& s) { return graph.count(s) ? graph[s].date : 0; };
  while (!pending.empty()) {
    std::stable_sort(pending.begin(), pending.end(),
                     [&](const std::string& a, const std::string& b) { return date_of(a) > date_of(b); });
    std::string sha = pending.front();
    pending.erase(pending.begin());
    if (!seen.insert(sha).second) continue;
    if (!messages.count(sha)) {
      std::vector<std::string> batch = {sha};
      for (const auto& p : pending)
        if (batch.size() < 64 && !messages.count(p) && !seen.count(p)) batch.push_back(p);
      for (const auto& c : ReadCommits(repo, batch)) messages[c.sha] = c.message;
    }
    const std::string& message = messages[sha];
    // re's $ also matches before a final newline.
    bool matches = std::regex_search(message, re) ||
                   (!message.empty() && message.back() == '\n' &&
                    std::regex_search(message.substr(0, message.size() - 1), re));
    if (matches != negated) return ObjectHeader{sha, "commit"};
    for (const auto& p : graph[sha].parents) pending.push_back(p);
  }
  Fail(BadNameText("No commit found matching message pattern " + py::Repr(pattern)));
}

}  // namespace sbx::servers::git::revparse
