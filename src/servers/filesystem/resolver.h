// Which paths a tool may touch, decided in the kernel.
//
// PathPolicy::Validate reproduces the upstream server's validatePath —
// the same lexical resolution, the same realpath(3) semantics, the same
// error messages — but resolves through descriptors instead of path strings,
// with confine/'s resolver (confine/resolver.h: one component at a time from
// an O_PATH descriptor of an allowed root, each link read and judged by us).
// A link (or chain) whose target stays inside an allowed directory is
// followed the way realpath(3) would; one that leaves is refused with
// upstream's message. What stays here is upstream's surface: home
// expansion, relative paths, the lexical checks, the messages, and the
// Unicode (NFC) fallback for names that do not exist (today's rules). The caller gets the resolved path for messages plus a
// descriptor of a directory inside the root and the names below it, and does
// its operation relative to that descriptor (openat/mkdirat/renameat2/… with
// no symlink following), so a link swapped in after the check cannot redirect
// it.
//
// Rules: today's upstream by default; the 2025.7.1 variant chooses that
// release's (PathPolicy::Rules, below).
//
// Deliberate differences from upstream (it is the one that escapes):
// - upstream compares a copy of the path with surrounding quotes and white
//   space removed, so "/data'" or "/data " (siblings of /data) pass its check;
//   here the path itself must lie inside an allowed directory as well.
//
// Limits: the root is trusted to stay in place; a directory renamed out of
// the root while a call is using it carries that call with it, as with
// openat2(RESOLVE_BENEATH). Inside the jail /data is its own mount, so
// nothing can be renamed out of it.
//
// Thread-safety: a PathPolicy is immutable after construction; Validate may
// run concurrently.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "confine/resolver.h"

namespace sbx::servers::filesystem {

// Where a validated path lives: confine/'s answer (real path for messages,
// a directory descriptor inside the root, the names below it, whether it
// exists), under the name the filesystem tools have always used.
using Target = confine::Resolved;

class PathPolicy {
 public:
  // How a path that does not exist is taken.
  enum class Missing {
    // Today's upstream: the existing part is walked name by name, matching a
    // name in the other Unicode normalization form (NFC/NFD) when the exact
    // one is missing; any depth of missing names below it is taken, and the
    // path is reported from the deepest existing directory's real path.
    kUnicodeWalk,
    // 2025.7.1: exact names only; taken only when the parent directory's
    // realpath succeeds inside (else "Parent directory does not exist:
    // <parent as typed>", whatever failed), and reported as typed. A
    // dangling symbolic link is such a missing name (2025.7.1's realpath
    // said ENOENT): reading it fails as a missing file, and writing or
    // moving onto it replaces the link itself (file_ops never follows it,
    // so the link's target, inside or out, is never touched).
    kParentOnly,
  };
  struct Rules {
    Missing missing = Missing::kUnicodeWalk;
    // Today's upstream refuses "C:\x" and the like on a POSIX host;
    // 2025.7.1 took them as relative names (a file named "C:\x").
    bool refuse_windows_drive_paths = true;
  };

  // `configured`: the directories the server was started with, treated as
  // upstream treats its command-line arguments (home expansion, both the
  // given and the symlink-resolved form kept, inaccessible ones dropped).
  // `rules`: today's by default.
  explicit PathPolicy(const std::vector<std::string>& configured);
  PathPolicy(const std::vector<std::string>& configured, Rules rules);

  // The allowed directories in upstream's form and order.
  const std::vector<std::string>& allowed() const { return allowed_; }

  // Upstream's validatePath. Throws FsError with upstream's message.
  Target Validate(std::string_view requested) const;

  // The absolute path validatePath computes for `requested` before touching
  // the file system (home expansion, relative paths against the allowed
  // directories). Throws FsError for Windows drive paths (when the rules
  // refuse them).
  std::string Lexical(std::string_view requested) const;

  // Whether `path` (absolute, normalized) lies inside an allowed directory
  // lexically (upstream's isPathWithinAllowedDirectories).
  bool Within(std::string_view path) const;

 private:
  std::string Absolute(std::string_view expanded) const;
  Target UnicodeEquivalent(const std::string& absolute) const;
  Target MissingBelowParent(const std::string& absolute) const;
  std::string OutsideMessage(const std::string& absolute) const;
  std::string SymlinkOutsideMessage(const std::string& real) const;

  std::vector<std::string> allowed_;
  std::vector<std::string> real_roots_;  // realpaths of allowed_, the walk's entry points
  std::string home_;
  Rules rules_;
};

}  // namespace sbx::servers::filesystem
