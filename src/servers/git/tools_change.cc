// The tools that change the repository: git_commit, git_add, git_reset,
// git_create_branch, git_checkout.
#include <pwd.h>
#include <unistd.h>

#include <cctype>
#include <ctime>
#include <random>

#include "servers/git/failure.h"
#include "servers/git/git_objects.h"
#include "servers/git/python_text.h"
#include "servers/git/refs.h"
#include "servers/git/rev_parse.h"
#include "servers/git/tools_internal.h"
#include "servers/git/variants.h"

namespace sbx::servers::git::tools {
namespace {

// GitPython's get_user_id(): "<login>@<node name>".
std::string DefaultUserId() {
  std::string login = "root";
  struct passwd pw {}, *found = nullptr;
  char buf[4096];
  if (::getpwuid_r(::geteuid(), &pw, buf, sizeof buf, &found) == 0 && found) login = pw.pw_name;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return login + "@" + host;
}

// Actor._main_actor: the configured user.name / user.email, else the
// server's default (Options), else GitPython's.
std::pair<std::string, std::string> Identity(const Repository& repo) {
  const Options& o = repo.options();
  std::string id = DefaultUserId();
  std::string name = repo.ConfigValue("user.name").value_or("");
  std::string email = repo.ConfigValue("user.email").value_or("");
  if (name.empty()) name = !o.author_name.empty() ? o.author_name : id.substr(0, id.find('@'));
  if (email.empty()) email = !o.author_email.empty() ? o.author_email : id;
  return {name, email};
}

// altz_to_utctz_str.
std::string UtcTz(long altz) {
  long a = altz < 0 ? -altz : altz;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%c%02ld%02ld", altz >= 60 ? '-' : '+', a / 3600, a % 3600 / 60);
  return buf;
}

std::string Strip(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

// UnmergedEntriesError's text for the first unmerged index entry.
std::optional<std::string> FirstUnmerged(const Repository& repo) {
  GitOutput r = repo.Run({"ls-files", "--stage", "-z"});
  std::size_t i = 0;
  while (i < r.out.size()) {
    std::size_t z = r.out.find('\0', i);
    if (z == std::string::npos) z = r.out.size();
    std::string rec = r.out.substr(i, z - i);
    i = z + 1;
    std::size_t tab = rec.find('\t');
    if (tab != std::string::npos && tab >= 2 && rec[tab - 1] != '0') return rec;
  }
  return std::nullopt;
}

// tempfile.NamedTemporaryFile's name in the git dir (shown in read-tree's cmdline).
std::string TemporaryName(const std::string& dir) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
  std::random_device rd;
  std::string name = dir + "/tmp";
  for (int i = 0; i < 8; ++i) name += kChars[rd() % (sizeof kChars - 1)];
  return name;
}

}  // namespace

// git_commit: repo.index.commit(message) — the index written as a tree, a
// commit object serialized as GitPython serializes it, HEAD moved.
std::string Commit(Repository& repo, const Json& args) {
  const std::string message = args.at("message").get<std::string>();
  std::vector<std::string> parents;
  RefInfo head = DereferenceRecursive(repo, "HEAD");
  if (head.sha) {
    auto obj = LookupObject(repo, *head.sha);
    if (obj) {
      if (obj->type == "tag") obj = TagTarget(ReadObjects(repo, {obj->sha})[0].content);
      if (obj->type != "commit")
        Fail("Symbolic Reference pointed to object " + ObjectRepr(*obj) + ", commit was required");
      parents.push_back(obj->sha);
    }
  }
  GitOutput tree = repo.Run({"write-tree"});
  if (tree.status != 0) {
    if (auto entry = FirstUnmerged(repo)) Fail(*entry);
    Fail(GitCommandErrorText({"write-tree"}, tree.status, tree.out, Strip(tree.err)));
  }
  auto [name, email] = Identity(repo);
  std::time_t now = std::time(nullptr);
  std::tm local {};
  ::localtime_r(&now, &local);
  std::string when = std::to_string(static_cast<long long>(now)) + " " + UtcTz(-local.tm_gmtoff);
  std::string object = "tree " + Strip(tree.out) + "\n";
  for (const auto& p : parents) object += "parent " + p + "\n";
  object += "author " + name + " <" + email + "> " + when + "\n";
  object += "committer " + name + " <" + email + "> " + when + "\n\n" + message;
  std::string sha = Strip(repo.Call({"hash-object", "-t", "commit", "-w", "--stdin"}, {}, object));
  std::vector<std::string> update = {"update-ref"};
  std::string log = parents.empty() ? "commit (initial): " + message : message;
  if (!Strip(log).empty()) update.insert(update.end(), {"-m", log});
  update.insert(update.end(), {"HEAD", sha, parents.empty() ? "" : parents[0]});
  repo.Call(update);
  return "Changes committed successfully with hash " + sha;
}

// git_add: ["."] stages everything; otherwise each path must resolve inside
// the work tree, then `git add -- <files>`.
std::string Add(Repository& repo, const Json& args) {
  std::vector<std::string> files;
  for (const auto& f : args.at("files")) files.push_back(f.get<std::string>());
  const AddMode mode = BehaviourOf(repo.options().variant).add;
  if (mode == AddMode::kIndexAdd || (mode == AddMode::kDotThenIndex && files != std::vector<std::string>{"."})) {
    IndexAdd(repo, files);
    return "Files staged successfully";
  }
  if (files.size() == 1 && files[0] == ".") {
      repo.Call({"add", "--", "."}, {"add", "."});
    return "Files staged successfully";
  }
  const std::string root = repo.working_tree().value_or(repo.common_dir());
  Location root_loc = repo.workspace().Resolve(root);
  const std::string root_real = root_loc.kind == Location::Kind::kFound ? root_loc.real : root;
  auto inside = [&](const std::string& p) {
    return p == root_real || p.rfind(root_real == "/" ? "/" : root_real + "/", 0) == 0;
  };
  for (const auto& f : files) {
    if (f.find('\0') != std::string::npos) Fail("embedded null byte");
    const std::string outside = "Path '" + f + "' is outside the repository '" + root_real + "'";
    std::string target = py::NormPath(JoinPath(root_real, f));
    if (!inside(target)) Fail(outside);
    Location loc = repo.workspace().Resolve(target);
    if (loc.kind == Location::Kind::kLoop) Fail("Invalid path: '" + f + "'");
    if (loc.kind == Location::Kind::kOutside) Fail(outside);
    if ((loc.kind == Location::Kind::kFound || loc.kind == Location::Kind::kMissing) && !inside(loc.real))
      Fail(outside);
  }
  std::vector<std::string> cmd = {"add", "--"};
  cmd.insert(cmd.end(), files.begin(), files.end());
  repo.Call(cmd);
  return "Files staged successfully";
}

// git_reset: repo.index.reset() — the index read back from HEAD's tree.
std::string Reset(Repository& repo, const Json&) {
  repo.Call({"read-tree", "--reset", "HEAD"},
            {"read-tree", "--index-output=" + TemporaryName(repo.git_dir()), "HEAD"});
  return "All staged changes reset";
}

// git_create_branch: repo.references[base] or repo.active_branch, then
// repo.create_head(name, base) (Head.create: name check, rev_parse of the
// base, "already exists" check on the loose ref file, commit type check).
std::string CreateBranch(Repository& repo, const Json& args) {
  const std::string name = args.at("branch_name").get<std::string>();
  auto base_branch = OptionalString(args, "base_branch");
  // Before 2026.3.15 no guard: the name reaches git only as refs/heads/<name>
  // and the base is looked up among the refs, so neither is an option.
  if (BehaviourOf(repo.options().variant).late_dash_guards) {
    RefuseDash("branch name", name);
    if (base_branch && !base_branch->empty()) RefuseDash("base branch", *base_branch);
  }
  std::string base;
  if (base_branch && !base_branch->empty()) {
    for (const auto& path : ListReferences(repo)) {
      if (ReferenceName(path) == *base_branch) {
        base = path;
        break;
      }
    }
    if (base.empty()) Fail("No item found with id " + *base_branch);
  } else {
    base = ActiveBranch(repo);
  }
  const std::string full = name.rfind("refs/heads/", 0) == 0 ? name : "refs/heads/" + name;
  if (auto problem = RefNameProblem(full)) Fail(*problem);
  // _create resolves str(reference), which for a Reference is its name.
  ObjectHeader target = RevParse(repo, ReferenceName(base));
  if (auto existing = repo.ReadGitFile(full, true)) {
    std::string current = Strip(*existing);
    if (current != target.sha)
      Fail("Reference at " + py::Repr(full) + " does already exist, pointing to " + py::Repr(current) +
           ", requested was " + py::Repr(target.sha));
  }
  // GitPython writes whatever object the base names into the ref file, an
  // annotated tag included; git refuses a tag in refs/heads, so the branch
  // gets the commit the tag points to. No reflog entry, as with GitPython.
  std::string value = target.sha;
  if (target.type == "tag") {
    if (auto commit = LookupObject(repo, target.sha + "^{commit}")) value = commit->sha;
  }
  repo.Call({"-c", "core.logAllRefUpdates=false", "update-ref", "--no-deref", full, value});
  return "Created branch '" + name + "' from '" + ReferenceName(base) + "'";
}

// git_checkout: the '-' guard, repo.rev_parse(branch_name), git checkout.
std::string Checkout(Repository& repo, const Json& args) {
  const std::string name = args.at("branch_name").get<std::string>();
  // Kept in every variant: before 2025.12.17 upstream handed such a value to
  // git checkout as an option.
  RefuseDash("branch name", name);
  if (BehaviourOf(repo.options().variant).checked_refs) {
    RevParse(repo, name);
    repo.Call({"checkout", name, "--"}, {"checkout", name});
  } else {
    // Before the rev_parse check git decides: a branch (remote-tracking
    // names create one), a commit, or else a path restored from the index.
    repo.Call({"checkout", name});
  }
  return "Switched to branch '" + name + "'";
}

}  // namespace sbx::servers::git::tools
