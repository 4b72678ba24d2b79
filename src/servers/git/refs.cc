#include "servers/git/refs.h"

#include <algorithm>
#include <cctype>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"

namespace sbx::servers::git {
namespace {

bool IsHex40(const std::string& s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

std::vector<std::string> SplitWhitespace(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t j = i;
    while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
    if (j > i) out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

// _git_dir: these few live in the (per work tree) git dir, the rest in the
// common dir.
bool InGitDir(const std::string& path) {
  return path == "HEAD" || path == "ORIG_HEAD" || path == "FETCH_HEAD" || path == "index" || path == "logs";
}

std::string Strip(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

std::optional<std::string> RefNameProblem(const std::string& path) {
  const std::string head = "Invalid reference '" + path + "': references cannot ";
  int previous = -1, before_previous = -1;
  for (unsigned char c : path) {
    if (std::string_view(" ~^:?*[\\").find(static_cast<char>(c)) != std::string_view::npos)
      return head +
             "contain spaces, tildes (~), carets (^), colons (:), question marks (?), asterisks (*), open brackets "
             "([) or backslashes (\\)";
    if (c == '.') {
      if (previous < 0 || previous == '/') return head + "start with a period (.) or contain '/.'";
      if (previous == '.') return head + "contain '..'";
    } else if (c == '/') {
      if (previous == '/') return head + "contain '//'";
      if (previous < 0) return head + "start with forward slashes '/'";
    } else if (c == '{' && previous == '@') {
      return head + "contain '@{'";
    } else if (c < 32 || c == 127) {
      return head + "contain ASCII control characters";
    }
    before_previous = previous;
    previous = c;
  }
  if (previous == '.') return head + "end with a period (.)";
  if (previous == '/') return head + "end with a forward slash (/)";
  if (previous == '@' && before_previous < 0) return head + "be '@'";
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    if (part.size() >= 5 && part.compare(part.size() - 5, 5, ".lock") == 0)
      return head + "have slash-separated components that end with '.lock'";
    i = j + 1;
  }
  return std::nullopt;
}

RefInfo ReadRefInfo(const Repository& repo, const std::string& path) {
  RefInfo info;
  if (!path.empty()) {
    if (auto problem = RefNameProblem(path)) {
      info.error = *problem;
      return info;
    }
  }
  std::vector<std::string> tokens;
  if (auto text = repo.ReadGitFile(path, !InGitDir(path))) {
    tokens = SplitWhitespace(*text);
  } else if (auto packed = repo.ReadGitFile("packed-refs", true)) {
    std::size_t i = 0;
    while (i < packed->size()) {
      std::size_t nl = packed->find('\n', i);
      if (nl == std::string::npos) nl = packed->size();
      std::string line = Strip(packed->substr(i, nl - i));
      i = nl + 1;
      if (line.empty() || line[0] == '#' || line[0] == '^') continue;
      std::size_t sp = line.find(' ');
      if (sp != std::string::npos && line.substr(sp + 1) == path) {
        tokens = {line.substr(0, sp), path};
        break;
      }
    }
  }
  if (tokens.empty()) {
    info.error = "Reference at " + py::Repr(path) + " does not exist";
  } else if (tokens[0] == "ref:" && tokens.size() > 1) {
    info.target = tokens[1];
  } else if (IsHex40(tokens[0])) {
    info.sha = tokens[0];
  } else {
    info.error = "Failed to parse reference information from " + py::Repr(path);
  }
  return info;
}

RefInfo DereferenceRecursive(const Repository& repo, const std::string& path) {
  std::string current = path;
  for (int depth = 0; depth < 64; ++depth) {
    RefInfo info = ReadRefInfo(repo, current);
    if (!info.target) return info;
    current = *info.target;
  }
  RefInfo loop;
  loop.error = "Reference at " + py::Repr(current) + " does not exist";
  return loop;
}

ObjectHeader ObjectFromSha(const Repository& repo, const std::string& sha) {
  if (sha == std::string(40, '0')) return ObjectHeader{sha, "commit"};
  auto h = LookupObject(repo, sha);
  if (!h) Fail("SHA b'" + sha + "' could not be resolved, git returned: b'" + sha + " missing'");
  return *h;
}

ObjectHeader RefCommit(const Repository& repo, const std::string& path) {
  RefInfo info = DereferenceRecursive(repo, path);
  if (info.error) Fail(*info.error);
  ObjectHeader obj = ObjectFromSha(repo, *info.sha);
  if (obj.type == "tag") {
    auto raw = ReadObjects(repo, {obj.sha});
    obj = TagTarget(raw[0].content);
  }
  if (obj.type != "commit") Fail("Symbolic Reference pointed to object " + ObjectRepr(obj) + ", commit was required");
  return obj;
}

HeadState ReadHead(const Repository& repo) {
  HeadState state;
  RefInfo info = ReadRefInfo(repo, "HEAD");
  if (info.error) Fail(*info.error);
  if (info.target) state.branch = *info.target;
  else state.sha = *info.sha;
  return state;
}

std::string ActiveBranch(const Repository& repo) {
  HeadState head = ReadHead(repo);
  if (!head.branch) Fail("HEAD is a detached symbolic reference as it points to " + py::Repr(head.sha));
  if (*head.branch == "refs/heads/.invalid")
    Fail("HEAD points to 'refs/heads/.invalid', which Git uses to mark refs as incompatible with older clients");
  return *head.branch;
}

std::vector<std::string> ListReferences(const Repository& repo) {
  GitOutput r = repo.Run({"for-each-ref", "--format=%(refname)", "refs/"});
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < r.out.size()) {
    std::size_t nl = r.out.find('\n', i);
    if (nl == std::string::npos) nl = r.out.size();
    if (nl > i) out.push_back(r.out.substr(i, nl - i));
    i = nl + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReferenceName(const std::string& path) {
  std::size_t first = path.find('/');
  std::size_t second = first == std::string::npos ? first : path.find('/', first + 1);
  return second == std::string::npos ? path : path.substr(second + 1);
}

}  // namespace sbx::servers::git
