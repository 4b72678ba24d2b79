#include "servers/git/rev_parse.h"

#include <cctype>
#include <optional>
#include <regex>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"
#include "servers/git/refs.h"
#include "servers/git/rev_parse_internal.h"

namespace sbx::servers::git {
namespace {

bool IsHexShort(const std::string& s) {
  if (s.size() < 4 || s.size() > 40) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// short_to_long: git cat-file --batch-check resolves the prefix.
std::optional<std::string> ShortToLong(const Repository& repo, const std::string& hex) {
  auto h = LookupObject(repo, hex);
  if (!h) return std::nullopt;
  return h->sha;
}

// _describe_to_long: "v1-3-gabc123", "v1-gabc123", "abc123-dirty".
std::optional<std::string> DescribeToLong(const Repository& repo, const std::string& name) {
  static const std::regex kPatterns[] = {
      std::regex(R"(^[^\n]+-\d+-g([0-9A-Fa-f]{4,40})(?:-dirty)?$)"),
      std::regex(R"(^[^\n]+-g([0-9A-Fa-f]{4,40})(?:-dirty)?$)"),
      std::regex(R"(^([0-9A-Fa-f]{4,40})-dirty$)"),
  };
  std::string subject = name;
  if (!subject.empty() && subject.back() == '\n') subject.pop_back();  // re's $ allows one
  for (const auto& re : kPatterns) {
    std::smatch m;
    if (!std::regex_match(subject, m, re)) continue;
    std::string hex = m[1].str();
    if (hex.size() == 40) return hex;
    return ShortToLong(repo, hex);
  }
  return std::nullopt;
}

const char* const kRefBases[] = {"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s",
                                 "refs/remotes/%s/HEAD"};

std::string Expand(const char* base, const std::string& name) {
  std::string b = base;
  return b.replace(b.find("%s"), 2, name);
}

// name_to_object(repo, name, return_ref=True).
std::string NameToRef(const Repository& repo, const std::string& name) {
  for (const char* base : kRefBases) {
    std::string path = Expand(base, name);
    RefInfo info = DereferenceRecursive(repo, path);
    if (info.sha) return path;
  }
  // GitPython raises BadObject here, whose str() itself fails; say what it meant.
  Fail("Couldn't find reference named " + py::Repr(name));
}

// _first_rev_token.
std::optional<std::size_t> FirstRevToken(const std::string& rev) {
  for (std::size_t i = 0; i < rev.size(); ++i) {
    char c = rev[i];
    if (c == '^' || c == '~' || c == ':') return i;
    if (c == '@') {
      char next = i + 1 < rev.size() ? rev[i + 1] : '\0';
      bool end = i + 1 >= rev.size();
      if (i == 0 && (end || next == '^' || next == '~' || next == ':' || next == '{')) return i;
      if (!end && next == '{') return i;
    }
  }
  return std::nullopt;
}

std::size_t FindClosingBrace(const std::string& rev, std::size_t start) {
  int depth = 1;
  bool escaped = false;
  for (std::size_t i = start + 1; i < rev.size(); ++i) {
    char c = rev[i];
    if (escaped) escaped = false;
    else if (c == '\\') escaped = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return i;
  }
  Fail("Missing closing brace to define type in " + rev);
}

ObjectHeader DerefTag(const Repository& repo, ObjectHeader obj) {
  for (int i = 0; i < 64 && obj.type == "tag"; ++i) obj = TagTarget(ReadObjects(repo, {obj.sha})[0].content);
  return obj;
}

std::string TreeOf(const Repository& repo, const ObjectHeader& commit) {
  return ParseCommit(commit.sha, ReadObjects(repo, {commit.sha})[0].content).tree;
}

// Tree.join / Tree.__getitem__ (KeyError: its str() is the repr of the message).
ObjectHeader TreeItem(const Repository& repo, const std::string& tree, const std::string& name,
                      const std::string& shown) {
  for (const auto& e : ListTree(repo, tree))
    if (e.name == name) return ObjectHeader{e.sha, e.type == "commit" ? "submodule" : e.type};
  Fail(py::Repr("Blob or Tree named " + py::Repr(shown) + " not found"));
}

ObjectHeader TreeLookup(const Repository& repo, ObjectHeader obj, const std::string& path) {
  if (obj.type != "tree") obj = ObjectHeader{TreeOf(repo, revparse::ToCommit(repo, obj)), "tree"};
  if (path.empty()) return obj;
  if (path.find('/') == std::string::npos) return TreeItem(repo, obj.sha, path, path);
  ObjectHeader tree = obj, item = obj;
  std::size_t i = 0;
  for (;;) {
    std::size_t j = path.find('/', i);
    bool last = j == std::string::npos;
    std::string token = path.substr(i, last ? std::string::npos : j - i);
    item = TreeItem(repo, tree.sha, token, token);
    if (item.type == "tree") {
      tree = item;
    } else {
      if (!last) Fail(py::Repr("Blob or Tree named " + py::Repr(path) + " not found"));
      return item;
    }
    if (last) break;
    i = j + 1;
  }
  if (item.sha == obj.sha) Fail(py::Repr("Blob or Tree named " + py::Repr(path) + " not found"));
  return item;
}

// _index_lookup: ":path" or ":<stage>:path" from the index.
ObjectHeader IndexLookup(const Repository& repo, const std::string& spec) {
  if (spec.empty()) Fail("':' must be followed by a path");
  int stage = 0;
  std::string path = spec;
  if (spec.size() >= 2 && spec[1] == ':' && spec[0] >= '0' && spec[0] <= '3') {
    stage = spec[0] - '0';
    path = spec.substr(2);
  }
  GitOutput r = repo.Run({"ls-files", "--stage", "-z", "--", ":(literal)" + path});
  std::size_t i = 0;
  while (r.status == 0 && !path.empty() && i < r.out.size()) {
    std::size_t z = r.out.find('\0', i);
    if (z == std::string::npos) z = r.out.size();
    std::string rec = r.out.substr(i, z - i);
    i = z + 1;
    // "<mode> <sha> <stage>\t<path>"
    std::size_t tab = rec.find('\t');
    if (tab == std::string::npos || tab < 44 || rec.substr(tab + 1) != path) continue;
    if (rec[tab - 1] - '0' == stage) return ObjectHeader{rec.substr(rec.find(' ') + 1, 40), "blob"};
  }
  Fail(BadNameText("Path " + py::Repr(path) + " did not exist in the index at stage " + std::to_string(stage)));
}

// _peel: "^{…}".
ObjectHeader Peel(const Repository& repo, const ObjectHeader& obj, const std::string& type, const std::string& rev) {
  if (!type.empty() && type[0] == '/') return revparse::FindCommitByMessage(repo, obj, type.substr(1), true);
  if (type.empty()) return obj.type == "tag" ? DerefTag(repo, obj) : obj;
  if (type == "object") return obj;
  if (type == "commit") return revparse::ToCommit(repo, obj);
  if (type == "tree") return obj.type != "tree" ? ObjectHeader{TreeOf(repo, revparse::ToCommit(repo, obj)), "tree"} : obj;
  if (type == "blob" || type == "tag") {
    ObjectHeader o = type == "blob" && obj.type == "tag" ? DerefTag(repo, obj) : obj;
    if (o.type == type) return o;
    Fail("Could not accommodate requested object type " + py::Repr(type) + ", got " + o.type);
  }
  Fail("Invalid output type: " + type + " ( in " + rev + " )");
}

// "~N" / "^N" by git (the same first-parent / nth-parent walk); nullopt
// when there are not enough parents.
std::optional<ObjectHeader> Ancestor(const Repository& repo, const ObjectHeader& commit, char token,
                                     const std::string& digits) {
  std::string n = digits.empty() ? "1" : digits;
  if (n.size() > 9) n = "999999999";  // more than any history; git's own counter would overflow
  auto h = LookupObject(repo, commit.sha + token + n);
  if (!h) return std::nullopt;
  return h;
}

std::string Canonical(const std::string& digits) {
  std::size_t nz = digits.find_first_not_of('0');
  return digits.empty() ? "1" : nz == std::string::npos ? "0" : digits.substr(nz);
}

}  // namespace

std::string BadNameText(const std::string& text) { return "Ref '" + text + "' did not resolve to an object"; }

namespace revparse {

ObjectHeader ToCommit(const Repository& repo, ObjectHeader obj) {
  if (obj.type == "tag") obj = DerefTag(repo, obj);
  if (obj.type != "commit") Fail("Cannot convert object " + ObjectRepr(obj) + " to type commit");
  return obj;
}

std::string CurrentReflogRef(const Repository& repo) {
  HeadState head = ReadHead(repo);
  return head.branch ? *head.branch : "HEAD";
}

}  // namespace revparse

ObjectHeader NameToObject(const Repository& repo, const std::string& name) {
  std::optional<std::string> sha;
  if (IsHexShort(name)) sha = name.size() != 40 ? ShortToLong(repo, name) : std::optional<std::string>(name);
  if (!sha) {
    for (const char* base : kRefBases) {
      RefInfo info = DereferenceRecursive(repo, Expand(base, name));
      if (info.sha) {
        sha = info.sha;
        break;
      }
    }
  }
  if (!sha) sha = DescribeToLong(repo, name);
  if (!sha) Fail(BadNameText(name));
  return ObjectFromSha(repo, *sha);
}

ObjectHeader RevParse(const Repository& repo, const std::string& rev) {
  if (rev.rfind(":/", 0) == 0) return revparse::FindCommitByMessage(repo, std::nullopt, rev.substr(2), false);
  if (rev.rfind(":", 0) == 0) return IndexLookup(repo, rev.substr(1));
  auto first = FirstRevToken(rev);
  if (!first) return NameToObject(repo, rev);

  ObjectHeader obj;
  std::optional<std::string> ref;
  std::size_t start;
  if (*first == 0) {
    if (rev[0] != '@') Fail("Revision specifier must start with an object name: " + rev);
    ref = revparse::CurrentReflogRef(repo);
    obj = RefCommit(repo, *ref);
    start = rev.rfind("@{", 0) == 0 ? 0 : 1;
  } else {
    if (rev[*first] == '@') {
      ref = NameToRef(repo, rev.substr(0, *first));
      obj = RefCommit(repo, *ref);
    } else {
      obj = NameToObject(repo, rev.substr(0, *first));
    }
    start = *first;
  }

  while (start < rev.size()) {
    char token = rev[start];
    if (token == '@') {
      if (start + 1 >= rev.size() || rev[start + 1] != '{')
        Fail("Invalid @ token in revision specifier: " + rev);
      std::size_t end = FindClosingBrace(rev, start + 1);
      std::optional<std::string> follow = (*first != 0 && start == *first) ? ref : std::nullopt;
      obj = revparse::ApplyReflog(repo, follow, rev.substr(start + 2, end - start - 2));
      ref.reset();
      start = end + 1;
      continue;
    }
    if (token == ':') return TreeLookup(repo, obj, rev.substr(start + 1));
    ++start;
    if (token == '^' && start < rev.size() && rev[start] == '{') {
      std::size_t end = FindClosingBrace(rev, start);
      obj = Peel(repo, obj, rev.substr(start + 1, end - start - 1), rev);
      ref.reset();
      start = end + 1;
      continue;
    }
    std::string digits;
    while (start < rev.size() && std::isdigit(static_cast<unsigned char>(rev[start]))) digits += rev[start++];
    if (token != '~' && token != '^') Fail("Invalid token: " + py::Repr(std::string(1, token)));
    obj = revparse::ToCommit(repo, obj);
    if (token == '^' && Canonical(digits) == "0") continue;
    auto next = Ancestor(repo, obj, token, digits);
    if (!next)
      Fail(BadNameText("Invalid revision spec '" + rev + "' - not enough parent commits to reach '" + token +
                       Canonical(digits) + "'"));
    obj = *next;
  }
  return obj;
}

}  // namespace sbx::servers::git
