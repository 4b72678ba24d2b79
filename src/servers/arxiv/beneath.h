// Opening files below a directory descriptor with openat2(RESOLVE_BENEATH |
// RESOLVE_NO_MAGICLINKS): ".." and symbolic links may be used as long as
// they stay below it; anything that would leave (an absolute link, a link or
// ".." climbing out) fails with EXDEV in the kernel, checked on every
// component at the moment of the call, so a link swapped in meanwhile
// cannot redirect it.
//
// Errors carry Python's OSError wording ("[Errno 2] No such file or
// directory: '/data/x.md'"), which upstream's messages embed, and the code
// kNotFound for ENOENT/ENOTDIR so callers can tell "absent" from "broken".
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "core/result.h"
#include "core/unique_fd.h"

namespace sbx::servers::arxiv {

// "[Errno <n>] <strerror>: '<path>'".
std::string PyOsError(int err, const std::string& path);

// Opens `path` (an absolute directory the server was configured with) as an
// O_PATH directory descriptor. `display` names it in the error.
Result<UniqueFd> OpenRoot(const std::string& path);

// openat2 below `root`; `rel` is relative ("" or "." for root itself).
// `display` is the path printed in errors.
Result<UniqueFd> OpenBeneath(int root, const std::string& rel, int flags, const std::string& display,
                             mode_t mode = 0);

// Reads the regular file `rel` below `root` whole. Errors: kNotFound when
// absent, kTooLarge over `max_bytes` ("<display> is larger than N bytes"),
// kInvalidArgument when not a regular file, kInternal otherwise.
Result<std::string> ReadBeneath(int root, const std::string& rel, std::uint64_t max_bytes,
                                const std::string& display);

}  // namespace sbx::servers::arxiv
