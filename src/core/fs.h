// File-system helpers that never follow symbolic links below the path they
// are given: sandbox workspaces hold client-controlled trees, and a host-side
// walk that followed a planted link could touch files outside the sandbox.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

namespace sbx::fs {

// Creates `path` and missing parents with `mode` (0700 by default).
Status MakeDirs(const std::string& path, unsigned mode = 0700);

// Removes `path` and everything below it. Symlinks are removed, never
// followed; mount points below are not crossed (EXDEV/EBUSY is reported).
// A missing path is success.
Status RemoveTree(const std::string& path);

// Copies the tree at `from` to a new directory `to` (which must not exist):
// directories, regular files and symlinks (as links), with modes and mtimes.
// Other file types are skipped. Hard links become separate files.
Status CopyTree(const std::string& from, const std::string& to);

// Writes `data` to `path` atomically (temp file + fsync + rename) with `mode`.
Status WriteFileAtomic(const std::string& path, const std::string& data, unsigned mode = 0600);

// Reads a whole small file (at most `max_bytes`).
Result<std::string> ReadFile(const std::string& path, std::uint64_t max_bytes = 1 << 20);

bool Exists(const std::string& path);

// Names in the directory at `path` (not . and ..), unsorted; empty if it
// cannot be read.
std::vector<std::string> ListDir(const std::string& path);

// Total size in bytes of the regular files below `path` (links not followed).
Result<std::uint64_t> TreeSize(const std::string& path);

}  // namespace sbx::fs
