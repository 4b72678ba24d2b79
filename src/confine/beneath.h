// Opening files beneath a root, checked by the kernel.
//
// OpenBeneath is openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS
// from a directory descriptor: ".." and symbolic links may be used while
// they stay beneath it; anything that would leave (an absolute link, a link
// or ".." climbing out) fails with EXDEV, and a /proc magic link with ELOOP.
// The kernel checks every component at the moment of the call, so a link
// swapped in between a caller's check and its use cannot redirect it.
//
// Links::kNone adds RESOLVE_NO_SYMLINKS: no link is followed at all (ELOOP),
// except that a trailing link opened with O_PATH | O_NOFOLLOW is returned
// itself. Use it to prove that a path a caller resolved by name is still made
// of real directories.
//
// These are the primitives; resolver.h walks whole paths with the filesystem
// server's link rules on top of them.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "confine/failure.h"
#include "core/result.h"
#include "core/unique_fd.h"

namespace sbx::confine {

enum class Links {
  kFollowBeneath,  // follow links whose resolution stays beneath the root
  kNone,           // follow no link
};

// Opens the configured directory `path` as an O_PATH directory descriptor.
// The root is trusted configuration: if `path` is itself a symbolic link it
// is followed here, once; everything beneath is then confined to what the
// descriptor names, whatever later happens to the link. Failure: Wording of
// {errno, "open", path}.
Result<UniqueFd> OpenRoot(const std::string& path, const Wording& wording = PlainWording);

// openat2 beneath `dirfd`; `rel` is relative ("" or "." for `dirfd`
// itself). O_CLOEXEC is always added; `mode` applies with O_CREAT/O_TMPFILE.
// A NUL byte in `rel` fails with EINVAL (the kernel would see a shorter
// name). EINTR is retried, as is EAGAIN (a concurrent rename or mount raced
// the lookup; the kernel asks for a retry) a bounded number of times.
// Failure: Wording of {errno, "open", rel}.
Result<UniqueFd> OpenBeneath(int dirfd, std::string_view rel, int flags,
                             const Wording& wording = PlainWording, mode_t mode = 0,
                             Links links = Links::kFollowBeneath);

// The same call for code that branches on the errno itself (the resolver's
// walk): 0 and `out` set, or the errno.
int TryOpenBeneath(int dirfd, std::string_view rel, int flags, mode_t mode, Links links,
                   UniqueFd& out);

}  // namespace sbx::confine
