// The store's and workspace's files in upstream's (Python's) words.
//
// Confinement is confine/'s (beneath.h): every open is openat2 with
// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS from a descriptor of the root, so
// ".." and symbolic links may be used while they stay below it and anything
// that would leave fails with EXDEV, checked by the kernel at the moment of
// the call. What is arxiv's own here is the wording: errors carry Python's
// OSError text ("[Errno 2] No such file or directory: '/data/x.md'"), which
// upstream's messages embed, and the code kNotFound for ENOENT/ENOTDIR so
// callers can tell "absent" from "broken" (kForbidden for EXDEV/ELOOP,
// kInternal otherwise).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "core/result.h"
#include "confine/failure.h"
#include "core/unique_fd.h"

namespace sbx::servers::arxiv {

// "[Errno <n>] <strerror>: '<path>'".
std::string PyOsError(int err, const std::string& path);

// confine/'s failures as PyOsError(err, display) with the codes above.
confine::Wording PyWording(std::string display);

// Opens `path` (an absolute directory the server was configured with) as an
// O_PATH directory descriptor (confine::OpenRoot).
Result<UniqueFd> OpenRoot(const std::string& path);

// confine::OpenBeneath below `root`; `rel` is relative ("" or "." for root
// itself). `display` is the path printed in errors.
Result<UniqueFd> OpenBeneath(int root, const std::string& rel, int flags, const std::string& display,
                             mode_t mode = 0);

// Reads the regular file `rel` below `root` whole. Errors: kNotFound when
// absent, kTooLarge over `max_bytes` ("<display> is larger than N bytes"),
// kInvalidArgument when not a regular file, kInternal otherwise.
Result<std::string> ReadBeneath(int root, const std::string& rel, std::uint64_t max_bytes,
                                const std::string& display);

}  // namespace sbx::servers::arxiv
