// Where a path argument really points, decided as cli-mcp-server decides it
// and then confirmed in the kernel.
//
// PythonRealpath is os.path.realpath(path) of CPython 3.13 (strict=False),
// the function upstream's _normalize_path uses: it walks the components,
// follows symbolic links, keeps names that do not exist as they are, and
// takes ".." lexically on the part resolved so far. Upstream then accepts
// the result when it starts with the allowed directory as a string.
//
// InsideRoot replaces that string test: the resolved path must lie in the
// allowed directory component by component (so "/data2" is not inside
// "/data"), and the part of it that exists must open from an O_PATH
// descriptor of the allowed directory with openat2(RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS): no "..", no symbolic link, no mount trick can carry
// it out between the resolution and the check.
//
// Limit (shared with upstream): the command opens its arguments by name
// afterwards; the jail bounds what a link swapped in meanwhile can reach.
//
// Thread-safety: pure functions of the file system.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::servers::terminal {

// os.path.realpath(absolute). Errors: kInvalidArgument "lstat: embedded
// null character in path" (CPython's ValueError) when a component to look
// up contains NUL.
Result<std::string> PythonRealpath(std::string_view absolute);

// Whether `real` (a PythonRealpath result) lies in `root_real` (the
// PythonRealpath of the allowed directory), checked as described above.
bool InsideRoot(const std::string& real, const std::string& root_real);

// os.path.exists(path): stat(2) succeeds (false for a NUL in the path).
bool PathExists(const std::string& path);

}  // namespace sbx::servers::terminal
