// Which paths the tools may touch: upstream's validatePath (home expansion,
// resolution against the working directory, its allowedDirectories check
// and message, symbolic links resolved for existing paths), decided in the
// kernel.
//
// Every path is resolved through descriptors from the workspace root with
// filesystem::PathPolicy: one component at a time, no link followed by the
// kernel, links followed only while they stay inside the workspace. The
// resolved real path must then lie inside one of the configured
// allowedDirectories too. What comes back is a descriptor-based Target the
// tools operate on (openat/mkdirat/renameat relative to it), so a link
// swapped in after the check cannot redirect them.
//
// Deliberate differences from upstream (which only compares strings):
// - the workspace is a hard limit: allowedDirectories [] or ["/"] (upstream:
//   the whole file system) mean the workspace; a configured directory
//   outside it allows nothing;
// - a symbolic link that resolves outside is refused (upstream follows it);
// - the comparison is exact; upstream lower-cases both sides, so on Linux
//   "/DATA/x" passed its check (and could be created outside).
//
// Thread-safety: immutable after construction; Validate may run
// concurrently.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "servers/filesystem/resolver.h"

namespace sbx::servers::desktop_commander {

struct ValidPath {
  // What upstream's validatePath returns: the real path of an existing
  // path, else the absolute path; used in messages as upstream prints them.
  std::string path;
  filesystem::Target target;
  // errno of a resolution that failed other than with ENOENT (a file used
  // as a directory, a link loop): upstream validates such a path and fails
  // in the operation, which reports it with its own system call name.
  int deferred_errno = 0;

  bool exists() const { return deferred_errno == 0 && target.exists; }
  // Throws upstream's (Node's) message for the deferred failure, if any.
  void ThrowIfDeferred(std::string_view syscall) const;
};

class PathValidator {
 public:
  PathValidator(std::string workspace, std::string home);

  const std::string& workspace() const { return workspace_; }
  const std::string& home() const { return home_; }

  // upstream's path.resolve(process.cwd(), expandHome(requested)).
  std::string Absolute(std::string_view requested) const;

  // upstream's validatePath against `allowed` (the configuration's
  // allowedDirectories value). Throws filesystem::FsError with upstream's
  // message ("Path not allowed: …") or Node's.
  ValidPath Validate(std::string_view requested, const Json& allowed) const;

 private:
  std::string NotAllowed(std::string_view requested, const std::vector<std::string>& shown) const;

  std::string workspace_;
  std::string home_;
  filesystem::PathPolicy policy_;
};

}  // namespace sbx::servers::desktop_commander
