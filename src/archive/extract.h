// Safe extraction of client-supplied tar / tar.gz archives (libarchive).
//
// The archive is untrusted. Extraction:
// - accepts tar formats (ustar, pax, gnu) either uncompressed or gzip'd;
// - refuses (whole archive) absolute names, any `..` component, names that
//   are empty after dropping leading "./", symlinks whose target is absolute or
//   leaves the tree (lexically, relative to the link's directory), hard links
//   whose target is not an already-extracted regular file in the tree, device
//   nodes, fifos and sockets;
// - never follows a symlink while creating entries (every path component is
//   opened with openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), so no entry can
//   be written outside `dest_dir` whatever the archive's order of entries;
// - strips setuid, setgid and sticky bits; owners are not restored;
// - bounds the number of entries, the total bytes written, the name length
//   and the depth (a compression bomb stops at the byte bound).
// On error, `dest_dir` may hold a partial tree: callers extract into a staging
// directory and discard it on failure.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

namespace sbx::archive {

struct ExtractLimits {
  std::uint64_t max_total_bytes = 4ull << 30;  // sum of regular file sizes
  std::uint64_t max_entries = 200'000;
  std::size_t max_name_bytes = 4096;
  int max_depth = 128;
};

struct ExtractStats {
  std::uint64_t entries = 0;  // entries created (the "." entry not counted)
  std::uint64_t bytes = 0;    // bytes of regular file data written
};

// Extracts `archive_path` into the existing directory `dest_dir`.
// Errors: kInvalidArgument for a malformed or refused archive (the message
// names the entry and the rule), kTooLarge when a limit is exceeded (the
// message names the limit), kInternal for local I/O failures.
Result<ExtractStats> ExtractArchive(const std::string& archive_path, const std::string& dest_dir,
                                    const ExtractLimits& limits);

}  // namespace sbx::archive
