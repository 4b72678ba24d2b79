// git_add as the releases before the path checks (2025.1.14, 2025.7.1 and
// Klavis's copy of 2025.11.25) did it: GitPython's IndexFile.add(files),
// which stages through its own index writer rather than `git add`. What it
// does that `git add` would not, reproduced with git's options:
//   - .gitignore is not consulted                → -f
//   - a directory adds the files found under it,
//     removals are not staged                    → --ignore-removal
//   - a missing path fails before anything is written, with the OSError
//     of its lstat; an absolute path must start with the work tree.
// What is not reproduced (README "Variants"): a path leaving the work tree
// ("../x", which GitPython would stage as such) is refused with today's
// message; ["."] walks the .git directory too and writes "./"-prefixed
// entries (the bug fixed upstream in a67e3b0a), here it stages the work tree.
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "servers/git/failure.h"
#include "servers/git/python_text.h"
#include "servers/git/tools_internal.h"

namespace sbx::servers::git::tools {
namespace {

bool HasGlob(const std::string& path) { return path.find_first_of("?*[") != std::string::npos; }

// os.path.relpath(path, start) for a normalised absolute `path` below `start`.
std::string RelativeTo(const std::string& path, const std::string& start) {
  if (path == start) return ".";
  std::string prefix = start == "/" ? "/" : start + "/";
  return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

}  // namespace

void IndexAdd(Repository& repo, const std::vector<std::string>& files) {
  // GitPython 3.1.43 index/base.py: add() → _preprocess_add_items turns
  // absolute paths into relative ones (_to_relative_path) for every item
  // first, then _entries_for_paths expands and stores each in turn.
  const std::string tree = repo.working_tree().value_or(repo.common_dir());
  std::vector<std::string> relative;
  for (const auto& f : files) {
    if (!f.empty() && f[0] == '/') {
      const std::string norm = py::NormPath(f);
      // A plain string prefix test, as upstream's startswith.
      if (norm.rfind(tree, 0) != 0)
        Fail("Absolute path " + py::Repr(f) + " is not in git repository at " + py::Repr(tree));
      relative.push_back(RelativeTo(norm, tree));
    } else {
      relative.push_back(f);
    }
  }
  Location root_loc = repo.workspace().Resolve(tree);
  const std::string root_real = root_loc.kind == Location::Kind::kFound ? root_loc.real : tree;
  auto inside = [&](const std::string& p) {
    return p == root_real || p.rfind(root_real == "/" ? "/" : root_real + "/", 0) == 0;
  };
  for (const auto& f : relative) {
    // os.lstat refuses NUL before touching the file system.
    if (f.find('\0') != std::string::npos) Fail("embedded null byte");
    const std::string outside = "Path '" + f + "' is outside the repository '" + root_real + "'";
    std::string target = py::NormPath(JoinPath(root_real, f));
    if (!inside(target)) Fail(outside);
    if (target == root_real) continue;
    // lstat: the last component is not followed (a link is staged as a
    // link, wherever it points); the directories above it must be inside.
    const std::size_t slash = target.rfind('/');
    Location parent = repo.workspace().Resolve(target.substr(0, slash == 0 ? 1 : slash));
    if (parent.kind == Location::Kind::kOutside ||
        (parent.kind == Location::Kind::kFound && !inside(parent.real)))
      Fail(outside);
    if (parent.kind == Location::Kind::kLoop)
      Fail("[Errno 40] Too many levels of symbolic links: " + py::Repr(f));
    int error = ENOENT;
    if (parent.kind == Location::Kind::kFound) {
      struct stat st {};
      const std::string name = target.substr(slash + 1);
      error = !parent.is_dir                                                            ? ENOTDIR
              : ::fstatat(parent.fd.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 ? 0
                                                                                        : errno;
    }
    // _iter_expand_paths yields a missing path as given (a pattern that
    // matches nothing yields nothing); _store_path's lstat then fails.
    if (error != 0 && !HasGlob(f))
      Fail("[Errno " + std::to_string(error) + "] " + std::strerror(error) + ": " + py::Repr(f));
  }
  std::vector<std::string> cmd = {"add", "-f", "--ignore-removal", "--"};
  cmd.insert(cmd.end(), relative.begin(), relative.end());
  repo.Call(cmd);
}

}  // namespace sbx::servers::git::tools
