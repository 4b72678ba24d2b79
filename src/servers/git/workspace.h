// Confinement of every path a git tool touches to the workspace root,
// decided in the kernel: a path is resolved from an O_PATH descriptor of the
// root one component at a time with O_NOFOLLOW; symbolic links are read here
// and followed only while their targets stay inside the root (as realpath(3)
// would follow them); a link or a ".." that leaves is reported as outside
// without anything outside being opened. The caller gets a descriptor of the
// object and its real path.
//
// Paths are first normalised lexically (os.path.normpath), as git itself
// treats pathspecs: "a/link/../b" is "a/b", whatever "link" is.
//
// Thread-safety: a Workspace is used by one call (one thread) at a time.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/unique_fd.h"

namespace sbx::servers::git {

// What resolving a path found.
struct Location {
  enum class Kind {
    kFound,    // exists inside the root: `fd` and `real` are set
    kMissing,  // inside the root, but some component does not exist (or is not a directory)
    kOutside,  // leaves the root (lexically or through a link)
    kLoop,     // too many symbolic links (ELOOP)
    kError,    // another error of the file system; `error` holds errno
  };
  Kind kind = Kind::kError;
  UniqueFd fd;       // O_PATH, kFound only
  std::string real;  // the real path (kFound), or the resolved prefix plus the rest (kMissing)
  bool is_dir = false;
  bool is_file = false;  // a regular file
  int error = 0;
};

class Workspace {
 public:
  // Opens the root (which must be an existing directory; it is trusted and
  // may itself be reached through links). Throws ToolFailure otherwise.
  explicit Workspace(const std::string& root);

  // The root as configured, normalised.
  const std::string& root() const { return root_; }

  // Whether `absolute` (normalised) is the root or lies below it, lexically.
  bool Contains(std::string_view absolute) const;

  // Resolves `absolute` (need not be normalised). Follows links inside.
  Location Resolve(std::string_view absolute) const;

  // Reads a regular file inside the root (links followed inside only), at
  // most `limit` bytes; nullopt when it is missing, outside or not a file.
  std::optional<std::string> ReadFile(std::string_view absolute, std::size_t limit = 64u << 20) const;

 private:
  // Maps an absolute path inside the root (configured or real spelling) to
  // its components below the root; nullopt when outside.
  std::optional<std::vector<std::string>> Below(std::string_view normalised) const;

  std::string root_;
  std::string root_real_;
  UniqueFd root_fd_;
};

// The path joined lexically: `base` + "/" + `rest` unless `rest` is absolute.
std::string JoinPath(std::string_view base, std::string_view rest);

}  // namespace sbx::servers::git
