// The memory file on disk, confined to the workspace by the kernel: every
// path is resolved with confine/'s OpenBeneath (openat2 RESOLVE_BENEATH)
// from a descriptor of the workspace, so ".." and symbolic links (however
// and whenever they are planted) cannot lead outside it; a link that stays
// inside is followed, as upstream's plain open would. Writes follow
// upstream's saveGraph through confine::ReplaceFile: a new file
// "<name>.<32 hex>.tmp" in the same directory, then rename(2) over the
// memory file, so readers see the old or the new file whole, never a part.
//
// Deliberate differences from upstream: missing parent directories are
// created (upstream fails with ENOENT, which an empty workspace would hit
// on every mutation); files over the size bound are refused; a FIFO or
// device in place of the file is refused instead of blocking the call.
// Error texts for failed system calls follow Node's
// "<CODE>: <description>, <syscall> '<path>'" wording.
//
// Thread-safety: const methods may run concurrently; two Writes race the way
// two renames do (one wins, whole). Callers that read-modify-write serialise
// themselves.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::servers::localmemory {

class MemoryFile {
 public:
  // `relative`: plain names joined by '/' (see Options::memory_file).
  MemoryFile(std::string workspace, std::string relative, std::uint64_t max_bytes);

  // The path messages print: workspace + "/" + relative.
  const std::string& shown_path() const { return shown_path_; }
  std::uint64_t max_bytes() const { return max_bytes_; }

  // The file's bytes, or nullopt when it does not exist (upstream: an empty
  // graph). Failures are errors whose message is meant for the model.
  Result<std::optional<std::string>> Read() const;

  // Replaces the file with `data` (creating missing parent directories).
  // On failure the file is unchanged and no temporary file is left.
  Status Write(std::string_view data) const;

 private:
  std::string workspace_;
  std::string relative_;
  std::string shown_path_;
  std::uint64_t max_bytes_;
};

}  // namespace sbx::servers::localmemory
