// The confinement resolver: where a path beneath a root really leads, found
// without letting the kernel follow anything inside the root.
//
// It computes realpath(3) through descriptors: from an O_PATH descriptor of
// the root it opens one component at a time (openat2 with RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS and O_NOFOLLOW, so the kernel
// itself refuses to follow a link or a ".." for it), reads each symbolic
// link itself and decides where it points. The rules (the filesystem
// server's, which every server touching paths shares):
//
// - Symbolic links: a link, or chain of links, whose target stays inside
//   the root is followed the way realpath would, absolute targets naming the
//   root by its real path included; one that leaves is refused (EXDEV). A
//   loop fails with ELOOP after 40 links (glibc's realpath limit). Outside
//   the root the walk only reads links and file types, never content, to
//   compute the real path realpath would report.
// - ".." is taken by popping held descriptors, never by the kernel.
// - Magic links (/proc/self/fd/N and the like) are read like any link: their
//   text decides, so they cannot jump anywhere the text does not say.
// - Hard links: a name inside the root is inside, whatever other names its
//   inode has (a hard link to an outside file reads the shared content, as
//   the kernel would). Writers must therefore never modify an existing inode
//   in place: create a new file and rename it over the name (ReplaceFile in
//   create.h), so the inode's other names keep their content. Inside the
//   jail /data is its own mount, where link(2) to outside files gives EXDEV.
//
// The caller gets the real path (for its messages), an O_PATH descriptor of
// a directory inside the root and the names below it, and operates relative
// to that descriptor (openat/mkdirat/renameat2 with no link following), so a
// link swapped in after the check cannot redirect it.
//
// Limit: the root is trusted to stay in place; a directory renamed out of
// the root while a call holds it carries that call with it, as with
// openat2(RESOLVE_BENEATH). Inside the jail /data is a mount point.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "confine/dir_cursor.h"
#include "confine/failure.h"
#include "core/result.h"
#include "core/unique_fd.h"

namespace sbx::confine {

// Where a resolved path lives.
struct Resolved {
  // The real path when the whole path exists, else the real path of the
  // deepest existing directory followed by the requested names. For messages.
  std::string path;
  // O_PATH descriptor of a directory inside the root.
  UniqueFd base;
  // Names below `base` leading to the target (no "." or ".."); empty when the
  // target is `base` itself (the root).
  std::vector<std::string> rest;
  // Whether the whole path resolved (then `rest` holds at most one name).
  bool exists = false;
};

// The non-empty components of `path` split at '/' (no normalization).
std::vector<std::string> Components(std::string_view path);

// Whether `path` equals `dir` or lies below it, compared component-wise on
// the strings as given (both absolute and normalized): "/data2" is not in
// "/data".
bool IsWithin(std::string_view path, std::string_view dir);

// realpath(3) step by step over a set of roots (their real paths). The walk
// starts at "/" and holds a DirCursor while it is inside a root. For callers
// that add their own steps (the filesystem server's Unicode fallback); others
// use Root below. Every method returns 0 or realpath's errno.
class RealpathWalk {
 public:
  // `real_roots` must outlive the walk.
  explicit RealpathWalk(const std::vector<std::string>& real_roots);

  // Resolves `pending` (components, "." and ".." allowed) from where the
  // walk stands.
  int Walk(std::deque<std::string> pending);

  bool inside() const { return cursor_.has_value(); }
  bool at_file() const { return final_; }  // the last part is not a directory
  std::string path() const;                // real path so far
  DirCursor& cursor() { return *cursor_; }  // only while inside()

  // The walk's end as a Resolved (exists = true; must be inside()). The walk
  // is spent.
  int Take(Resolved& out);

 private:
  void MaybeEnterRoot();
  void Splice(const std::string& target, std::deque<std::string>& pending);
  int Up();
  bool IsRoot(const std::string& p) const;
  std::string PathWith(const std::string& c) const;

  const std::vector<std::string>& roots_;
  std::vector<std::string> parts_;   // components of the real path so far
  std::optional<DirCursor> cursor_;  // set while the walk is inside a root
  std::size_t root_depth_ = 0;       // parts_ of the root the cursor started at
  bool final_ = false;
};

// One allowed directory: what a server touching paths holds. Immutable after
// Open; Resolve may run concurrently.
class Root {
 public:
  // `path`: absolute. If it is itself a symbolic link it is resolved here,
  // once (configuration is trusted); Resolve accepts paths under either
  // spelling and reports real paths. Failure: Wording of {errno, "open", path}.
  static Result<Root> Open(const std::string& path, const Wording& wording = PlainWording);

  const std::string& real() const { return roots_[0]; }

  // Resolves `path` (absolute, or relative to the root) by the rules above.
  // "." and ".." are first taken lexically, as path.resolve does; a path
  // that then is not under the root fails with EXDEV naming it, and so does
  // one whose links lead out (naming the real path reached). Names that do
  // not exist are returned in `rest` below the deepest existing directory
  // (exists = false) for the caller to create; a dangling link is not
  // missing but broken (ENOENT). A NUL byte fails with EINVAL. Failures are
  // Wording of {errno, "realpath", path}.
  Result<Resolved> Resolve(std::string_view path, const Wording& wording = PlainWording) const;

 private:
  std::vector<std::string> roots_;  // the real path (one, as RealpathWalk wants a set)
  std::string given_;               // the configured spelling, normalized
};

}  // namespace sbx::confine
