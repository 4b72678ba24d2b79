// Packing a directory tree into a tar.gz (libarchive), streamed to a file so
// that no archive is ever held whole in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/result.h"

namespace sbx::archive {

struct PackStats {
  std::uint64_t entries = 0;        // members written, "." included
  std::uint64_t content_bytes = 0;  // bytes of regular file data
};

// Writes a gzip-compressed pax tar of `src_dir` to `out_path` (created with
// mode 0600, replaced if present). Members are "." and then "./name..." in a
// depth-first walk with names sorted bytewise at each level (deterministic
// output). Directories, regular files and symlinks (stored as links) are
// written with their mode (permission bits) and mtime, uid/gid 0 and no owner
// names; other file types are skipped. Links below `src_dir` are never
// followed. `progress`, if set, is called with the content bytes written so far.
Result<PackStats> PackDirectory(const std::string& src_dir, const std::string& out_path,
                                const std::function<void(std::uint64_t)>& progress = {});

// Like PackDirectory for the directory `rel_dir` below the directory
// descriptor `base_fd`, resolved in the kernel without following any link
// (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS): for trees a sandbox controls.
// kNotFound if `rel_dir` does not exist.
Result<PackStats> PackDirectoryBeneath(int base_fd, const std::string& rel_dir,
                                       const std::string& out_path);

}  // namespace sbx::archive
