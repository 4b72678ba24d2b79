// Where a path really points when a server resolves it by name, as Python
// upstreams do, and a kernel check that the answer is beneath the root.
//
// RealpathByName is CPython 3.13's os.path.realpath(path) (strict=False),
// which Python upstreams (cli-mcp-server's _normalize_path, and the document
// servers to come) use: it walks the components, follows symbolic links,
// keeps names that do not exist as they are, takes ".." lexically on the
// part resolved so far, and leaves a looping link as its own path. It reads
// the file system by name (lstat/readlink), so its answer is only a claim.
//
// ResolvedBeneath checks the claim instead of the upstream's string prefix
// test: the path must lie in the root component by component (so "/data2"
// is not inside "/data"), and the part of it that exists must open from an
// O_PATH descriptor of the root with openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS) (beneath.h, Links::kNone): no "..", no symbolic link,
// no mount trick can carry it out between the resolution and the check.
//
// Limit: a caller that hands the path to a program which opens it by name
// afterwards depends on the jail for what a link swapped in meanwhile can
// reach (the terminal server's case, as with its upstream).
//
// Thread-safety: pure functions of the file system.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::confine {

// os.path.realpath(absolute). The only error: kInvalidArgument when a
// component to look up contains a NUL byte (where CPython raises
// ValueError; the server words it).
Result<std::string> RealpathByName(std::string_view absolute);

// Whether `real` (a RealpathByName result) lies in `root_real` (the
// RealpathByName of the root), checked as described above. A root that
// cannot be opened holds nothing to escape to: true.
bool ResolvedBeneath(const std::string& real, const std::string& root_real);

}  // namespace sbx::confine
