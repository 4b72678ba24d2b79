// The workspace's files as the upstreams reach them, confined by the kernel.
//
// pdf-tools-mcp resolves a path as pathlib does (relative to the workspace,
// its working directory; symbolic links followed) and refuses a result
// outside the workspace; Klavis joins the path to the workspace the same
// way. Here the claim (RealpathByName) is checked with ResolvedBeneath, and
// files are then opened beneath an O_PATH descriptor of the workspace with
// openat2, so a link swapped in later cannot lead out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "core/unique_fd.h"

namespace sbx::servers::pdf_tools {

// Where a path lands: `real` inside the workspace, or outside / invalid.
struct Resolved {
  std::string real;     // absolute, links resolved (empty when !inside)
  bool inside = false;
  std::string invalid;  // set for a path pathlib cannot take (a NUL byte): Python's message
};
Resolved ResolveInWorkspace(const std::string& workspace, std::string_view path);

// An opened input: its descriptor, or the errno of the failure (ENOENT,
// EISDIR, EACCES, EFBIG for a file over `max_bytes`, ENODEV for a
// non-regular file such as a FIFO, …).
struct Input {
  UniqueFd fd;
  int error = 0;
};
Input OpenInput(const std::string& workspace, const std::string& real, std::uint64_t max_bytes);
// Whether `real` names an existing entry (os.path.exists / Path.exists).
bool Exists(const std::string& workspace, const std::string& real);

// Replaces the file `real` whole with `data` (a temporary beside it, then a
// rename); the old file is unchanged and no temporary is left on failure.
// 0 or the errno (ENOENT: the directory is missing; EISDIR: a directory
// has that name).
int WriteOutput(const std::string& workspace, const std::string& real, std::string_view data);
// Klavis: output_path.parent.mkdir(parents=True, exist_ok=True), beneath
// the workspace. 0 or the errno.
int MakeParents(const std::string& workspace, const std::string& real);

// Python's OSError text: "[Errno 2] No such file or directory: 'name'".
std::string OsErrorText(int error, const std::string& filename);

}  // namespace sbx::servers::pdf_tools
