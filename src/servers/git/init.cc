// git_init, listed by release 2025.7.1 only (added by fc32e871, removed by
// eac56e7b). Upstream: git.Repo.init(path=repo_path, mkdir=True) — the
// directories made with os.makedirs(path, 0o755), `git init` run there —
// then "Initialized empty Git repository in <repo.git_dir>" (GitPython's
// wording, whatever git printed, so a reinitialisation reads the same).
// Every exception becomes a normal result "Error initializing repository:
// <str(exception)>". Here the directories are made inside the workspace
// root only (one component at a time, from descriptors), and a path outside
// it is refused as every tool refuses it.
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"
#include "servers/git/repository.h"
#include "servers/git/tools_internal.h"
#include "servers/git/workspace.h"

namespace sbx::servers::git::tools {
namespace {

// An OSError upstream's git_init catches: its str().
struct OsError {
  std::string text;
};

// str(OSError(errno, strerror, filename)).
std::string OsErrorText(int error, const std::string& filename) {
  return "[Errno " + std::to_string(error) + "] " + std::strerror(error) + ": " +
         py::Repr(filename);
}

// os.makedirs(path, 0o755) below the root; returns the directory's
// descriptor (O_PATH) or throws OsError. `outside`
// is the confinement message.
UniqueFd MakeDirectories(const Workspace& ws, const std::string& path, const std::string& outside) {
  Location loc = ws.Resolve(path);
  if (loc.kind == Location::Kind::kFound) {
    // An existing file: subprocess's chdir into it fails.
    if (!loc.is_dir) throw OsError(OsErrorText(ENOTDIR, path));
    return std::move(loc.fd);
  }
  if (loc.kind == Location::Kind::kOutside || !ws.Contains(path)) Fail(outside);
  if (loc.kind == Location::Kind::kLoop) throw OsError(OsErrorText(ELOOP, path));
  if (loc.kind == Location::Kind::kError) throw OsError(OsErrorText(loc.error, path));
  // Missing: from the root down, each missing component made in its parent.
  std::string prefix = ws.root();
  Location parent = ws.Resolve(prefix);
  std::size_t i = prefix.size();
  while (i < path.size()) {
    std::size_t next = path.find('/', i + 1);
    if (next == std::string::npos) next = path.size();
    const std::string name = path.substr(i + 1, next - i - 1);
    prefix = path.substr(0, next);
    i = next;
    if (name.empty()) continue;
    Location here = ws.Resolve(prefix);
    if (here.kind == Location::Kind::kMissing) {
      // makedirs names the directory it failed to make.
      if (!parent.is_dir) throw OsError(OsErrorText(ENOTDIR, prefix));
      if (::mkdirat(parent.fd.get(), name.c_str(), 0755) != 0 && errno != EEXIST)
        throw OsError(OsErrorText(errno, prefix));
      here = ws.Resolve(prefix);
    }
    if (here.kind == Location::Kind::kOutside) Fail(outside);
    if (here.kind != Location::Kind::kFound)
      throw OsError(OsErrorText(here.error ? here.error : ENOENT, prefix));
    // A file: the next component reports ENOTDIR (or, last, the chdir).
    parent = std::move(here);
  }
  if (!parent.is_dir) throw OsError(OsErrorText(ENOTDIR, path));
  return std::move(parent.fd);
}

}  // namespace

std::string Init(const Options& options, const std::string& repo_path,
                 const std::function<bool()>& cancelled) {
  Workspace ws(options.workspace_root);
  const std::string shown = py::PurePathStr(repo_path);
  const std::string outside = "Repository path '" + shown +
                              "' is outside the allowed repository '" +
                              py::PurePathStr(options.workspace_root) + "'";
  const std::string prefix = "Error initializing repository: ";
  // os.path.exists / os.makedirs refuse NUL (a ValueError, caught).
  if (repo_path.find('\0') != std::string::npos) return prefix + "embedded null byte";
  // expand_path: the absolute, normalised path (relative ones from the root).
  const std::string epath = py::NormPath(JoinPath(ws.root(), repo_path));
  try {
    UniqueFd dir = MakeDirectories(ws, epath, outside);
    GitOutput r = RunGitInDirectory(options, dir.get(), {"init"}, cancelled);
    if (r.status != 0) {
      std::string out = r.out, err = r.err;
      if (!out.empty() && out.back() == '\n') out.pop_back();
      if (!err.empty() && err.back() == '\n') err.pop_back();
      return prefix + GitCommandErrorText({"init"}, r.status, out, err);
    }
    // cls(path): the new repository opened as every tool opens one.
    Repository repo(options, repo_path, cancelled);
    return "Initialized empty Git repository in " + repo.git_dir();
  } catch (const OsError& error) {
    return prefix + error.text;
  }
}

}  // namespace sbx::servers::git::tools
