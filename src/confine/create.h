// Creating beneath a root: directories as needed, and files replaced whole.
//
// MakeDirectories is "mkdir -p" where each step is opened with OpenBeneath
// from the root (a link inside may lead anywhere else inside; none may lead
// out) and each missing directory is made with mkdirat in the descriptor of
// its parent, so nothing is created outside whatever is planted meanwhile.
//
// ReplaceFile writes a new file beside the target and renames it over the
// name (readers see the old or the new content whole, never a part). It
// never writes into an existing inode, which is the hard-link rule of
// resolver.h: a name inside the root that shares its inode with a file
// outside gets a new inode, and the outside file keeps its content.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "confine/failure.h"
#include "core/result.h"
#include "core/unique_fd.h"

namespace sbx::confine {

// Opens (O_PATH) the directory `rel_dir` beneath `root`, making the missing
// ones with `mode` ("" = `root` itself). Failures: Wording of {errno,
// "mkdir" or "open", the prefix of `rel_dir` that failed}; EXDEV when a
// link leads out.
Result<UniqueFd> MakeDirectories(int root, const std::string& rel_dir, mode_t mode,
                                 const Wording& wording = PlainWording);

struct Replacement {
  // The temporary's name in the same directory: each upstream has its own
  // pattern, and it must not exist (O_EXCL).
  std::string temp_name;
  mode_t mode = 0666;       // creation mode (the umask applies)
  bool exact_mode = false;  // fchmod to `mode` after creating (the umask does not apply)
};

// Replaces `name` in directory `dirfd` with `data`: the temporary is
// created O_EXCL | O_NOFOLLOW, written, closed and renamed over `name`. On
// failure the temporary is removed and `name` is unchanged. Failures:
// Wording of {errno, "open"|"fchmod"|"write"|"close"|"rename", temp_name,
// name (rename only)}.
Status ReplaceFile(int dirfd, const std::string& name, std::string_view data, const Replacement& how,
                   const Wording& wording = PlainWording);

}  // namespace sbx::confine
