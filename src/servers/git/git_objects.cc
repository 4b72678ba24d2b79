#include "servers/git/git_objects.h"

#include <cctype>

#include "servers/git/failure.h"

namespace sbx::servers::git {
namespace {

std::string Lines(const std::vector<std::string>& names) {
  std::string in;
  for (const auto& n : names) in += n + "\n";
  return in;
}

// "<sha> <type> <size>" → header; anything else (missing, ambiguous) → nullopt.
std::optional<ObjectHeader> ParseHeader(const std::string& line, std::size_t* size = nullptr) {
  std::size_t a = line.find(' ');
  std::size_t b = a == std::string::npos ? a : line.find(' ', a + 1);
  if (b == std::string::npos || line.find(' ', b + 1) != std::string::npos) return std::nullopt;
  ObjectHeader h{line.substr(0, a), line.substr(a + 1, b - a - 1)};
  if (size) *size = std::stoull(line.substr(b + 1));
  return h;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Python's int() of an optionally signed digit run, saturated.
std::int64_t ToInt(std::string_view digits) {
  bool negative = !digits.empty() && digits[0] == '-';
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
  std::int64_t v = 0;
  for (char c : digits) {
    if (v > (INT64_MAX - 9) / 10) return negative ? INT64_MIN : INT64_MAX;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

// utctz_to_altz: "+0130" → seconds west of UTC.
std::int64_t UtcTzToAltz(std::string_view tz) {
  std::int64_t n = ToInt(tz);
  std::int64_t a = n < 0 ? -n : n;
  std::int64_t seconds = (a / 100) * 3600 + (a % 100) * 60;
  return n < 0 ? seconds : -seconds;
}

// Actor._from_string.
Actor ActorFromString(const std::string& s) {
  // r"(.*) <(.*?)>": the last " <" that some ">" follows.
  for (std::size_t k = s.rfind(" <"); k != std::string::npos; k = k ? s.rfind(" <", k - 1) : std::string::npos) {
    std::size_t close = s.find('>', k + 2);
    if (close != std::string::npos) return Actor{s.substr(0, k), s.substr(k + 2, close - k - 2)};
    if (k == 0) break;
  }
  // r"<(.*)>": from the first "<" to the last ">" after it.
  std::size_t open = s.find('<');
  if (open != std::string::npos) {
    std::size_t close = s.rfind('>');
    if (close != std::string::npos && close > open) return Actor{s.substr(open + 1, close - open - 1), std::nullopt};
  }
  return Actor{s, std::nullopt};
}

// parse_actor_and_date with r"^.+? (.*) (\d+) ([+-]\d+).*$", falling back
// to r"^.+? (.*)$".
void ParseActorLine(std::string line, Actor& actor, py::DateTime& when) {
  if (!line.empty() && line.back() == '\n') line.pop_back();
  std::size_t first = line.size() > 1 ? line.find(' ', 1) : std::string::npos;
  std::string who = line;
  std::int64_t epoch = 0, altz = 0;
  if (first != std::string::npos && line.find('\n') == std::string::npos) {
    who = line.substr(first + 1);
    for (std::size_t e = line.size(); e-- > first + 1;) {
      if (line[e] != ' ') continue;
      std::size_t d = e + 1;
      while (d < line.size() && IsDigit(line[d])) ++d;
      if (d == e + 1 || d >= line.size() || line[d] != ' ') continue;
      std::size_t s = d + 1;
      if (s >= line.size() || (line[s] != '+' && line[s] != '-')) continue;
      std::size_t t = s + 1;
      while (t < line.size() && IsDigit(line[t])) ++t;
      if (t == s + 1) continue;
      who = line.substr(first + 1, e - first - 1);
      epoch = ToInt(std::string_view(line).substr(e + 1, d - e - 1));
      altz = UtcTzToAltz(std::string_view(line).substr(s, t - s));
      break;
    }
  }
  actor = ActorFromString(who);
  when.timestamp = epoch;
  when.offset_east = static_cast<int>(altz > INT32_MAX || altz < -INT32_MAX ? 86400 * 2 : -altz);
}

std::string NextLine(const std::string& raw, std::size_t& pos) {
  if (pos >= raw.size()) return "";
  std::size_t nl = raw.find('\n', pos);
  std::size_t end = nl == std::string::npos ? raw.size() : nl + 1;
  std::string line = raw.substr(pos, end - pos);
  pos = end;
  return line;
}

std::string Strip(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::string LastToken(const std::string& line) {
  std::string s = Strip(line);
  std::size_t sp = s.find_last_of(" \t");
  return sp == std::string::npos ? s : s.substr(sp + 1);
}

}  // namespace

std::vector<std::optional<ObjectHeader>> LookupObjects(const Repository& repo, const std::vector<std::string>& names) {
  GitOutput r = repo.Run({"cat-file", "--batch-check"}, Lines(names));
  std::vector<std::optional<ObjectHeader>> out;
  std::size_t pos = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::string line = NextLine(r.out, pos);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    out.push_back(r.status == 0 ? ParseHeader(line) : std::nullopt);
  }
  return out;
}

std::optional<ObjectHeader> LookupObject(const Repository& repo, const std::string& name) {
  // A name with a newline would be two batch lines; no object has one.
  if (name.find('\n') != std::string::npos || name.empty()) return std::nullopt;
  return LookupObjects(repo, {name})[0];
}

std::vector<RawObject> ReadObjects(const Repository& repo, const std::vector<std::string>& names) {
  std::vector<RawObject> out;
  if (names.empty()) return out;
  GitOutput r = repo.Run({"cat-file", "--batch"}, Lines(names));
  if (r.truncated) Fail("git cat-file: the objects are larger than the server's max_output_bytes setting");
  std::size_t pos = 0;
  for (const auto& name : names) {
    std::string line = NextLine(r.out, pos);
    if (!line.empty() && line.back() == '\n') line.pop_back();
    std::size_t size = 0;
    auto h = ParseHeader(line, &size);
    if (!h || pos + size > r.out.size()) Fail("BadObject: " + name);
    out.push_back(RawObject{h->sha, h->type, r.out.substr(pos, size)});
    pos += size + 1;
  }
  return out;
}

std::string ActorRepr(const Actor& actor) {
  return "<git.Actor \"" + actor.name + " <" + actor.email.value_or("None") + ">\">";
}

CommitInfo ParseCommit(const std::string& sha, const std::string& raw) {
  CommitInfo c;
  c.sha = sha;
  std::size_t pos = 0;
  std::string line = NextLine(raw, pos);
  {
    std::string s = Strip(line);
    std::size_t sp = s.find(' ');
    c.tree = sp == std::string::npos ? "" : s.substr(sp + 1, s.find(' ', sp + 1) - sp - 1);
  }
  std::string next;
  for (;;) {
    next = NextLine(raw, pos);
    if (next.rfind("parent", 0) != 0) break;
    c.parents.push_back(LastToken(next));
  }
  std::string author_line = next;
  std::string committer_line = NextLine(raw, pos);
  next = NextLine(raw, pos);
  while (next.rfind("mergetag ", 0) == 0) {
    next = NextLine(raw, pos);
    while (!next.empty() && next[0] == ' ') next = NextLine(raw, pos);
  }
  // Headers until a blank line; only "encoding" matters here.
  for (std::string buf = Strip(next); !buf.empty(); buf = Strip(NextLine(raw, pos)))
    if (buf.rfind("encoding ", 0) == 0) c.encoding = buf.substr(buf.find(' ') + 1);
  ParseActorLine(py::DecodeReplace(author_line, c.encoding), c.author, c.authored);
  ParseActorLine(py::DecodeReplace(committer_line, c.encoding), c.committer, c.committed);
  c.message = py::DecodeReplace(pos < raw.size() ? std::string_view(raw).substr(pos) : "", c.encoding);
  return c;
}

std::vector<CommitInfo> ReadCommits(const Repository& repo, const std::vector<std::string>& shas) {
  std::vector<CommitInfo> out;
  for (const auto& o : ReadObjects(repo, shas)) out.push_back(ParseCommit(o.sha, o.content));
  return out;
}

ObjectHeader TagTarget(const std::string& raw) {
  ObjectHeader h;
  std::size_t pos = 0;
  for (std::string line = NextLine(raw, pos); !Strip(line).empty(); line = NextLine(raw, pos)) {
    std::string s = Strip(line);
    if (s.rfind("object ", 0) == 0) h.sha = s.substr(7);
    if (s.rfind("type ", 0) == 0) h.type = s.substr(5);
  }
  return h;
}

std::vector<TreeEntry> ListTree(const Repository& repo, const std::string& tree_sha) {
  GitOutput r = repo.Run({"ls-tree", "-z", tree_sha});
  if (r.status != 0) Fail("BadObject: " + tree_sha);
  std::vector<TreeEntry> out;
  std::size_t i = 0;
  while (i < r.out.size()) {
    std::size_t z = r.out.find('\0', i);
    if (z == std::string::npos) z = r.out.size();
    std::string rec = r.out.substr(i, z - i);
    i = z + 1;
    std::size_t tab = rec.find('\t');
    std::size_t a = rec.find(' ');
    std::size_t b = a == std::string::npos ? a : rec.find(' ', a + 1);
    if (tab == std::string::npos || b == std::string::npos || b > tab) continue;
    out.push_back(TreeEntry{rec.substr(0, a), rec.substr(a + 1, b - a - 1), rec.substr(b + 1, tab - b - 1),
                            rec.substr(tab + 1)});
  }
  return out;
}

std::string ObjectClassName(const std::string& type) {
  if (type == "commit") return "Commit";
  if (type == "tree") return "Tree";
  if (type == "blob") return "Blob";
  if (type == "tag") return "TagObject";
  return type;
}

std::string ObjectRepr(const ObjectHeader& object) {
  return "<git." + ObjectClassName(object.type) + " \"" + object.sha + "\">";
}

}  // namespace sbx::servers::git
