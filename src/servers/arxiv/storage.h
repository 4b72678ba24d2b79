// The sandbox's paper storage: upstream's --storage-path, a directory inside
// the workspace (default /data/arxiv_local_storage) where download_paper
// leaves <id>.pdf and <id>.md and where list_papers and read_paper look. It
// lives in the workspace so that initialize seeds it and dump carries it,
// like every other file the agent produced.
//
// The workspace belongs to the agent, so the directory may have been
// replaced by a link, or a <id>.md by a link to some other file: every
// access is resolved below the workspace root with openat2(RESOLVE_BENEATH)
// (see os_files.h), so links that stay inside the workspace work and links
// that leave it fail. Files are replaced atomically (a hidden temporary
// file renamed over the name), so readers see the old or the new content.
//
// File names: the paper id with '/' (old-style ids such as hep-th/9901001)
// turned into '_', which no arXiv id contains.
//
// Thread-safety: immutable; methods may run concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace sbx::servers::arxiv {

class PaperStorage {
 public:
  // `workspace`: absolute path of the workspace root; `relative_dir`: the
  // storage directory below it ("" for the root itself), already checked to
  // hold no "." or ".." components.
  PaperStorage(std::string workspace, std::string relative_dir);

  // The file name used for a paper id ("2301.12345" → "2301.12345").
  static std::string FileStem(std::string_view paper_id);
  // The paper id a file stem stands for (inverse of FileStem).
  static std::string PaperIdOf(std::string_view stem);

  // Absolute path of `name` inside the storage directory, as messages and
  // resource URIs show it.
  std::string PathOf(std::string_view name) const;

  // Creates the directory and its missing parents (upstream creates it on
  // every access to its storage path).
  Status EnsureDirectory() const;

  // Whether `name` exists (following links that stay in the workspace).
  bool Exists(std::string_view name) const;

  // Stems of the non-hidden entries named "*.md" (upstream's glob), sorted.
  Result<std::vector<std::string>> MarkdownStems(std::size_t max_entries) const;

  // Reads `name` whole (Python-style errors, see os_files.h).
  Result<std::string> Read(std::string_view name, std::uint64_t max_bytes) const;

  // Replaces `name` with `data` atomically (mode 0644).
  Status Write(std::string_view name, const std::string& data) const;

 private:
  std::string RelativePath(std::string_view name) const;

  std::string workspace_;
  std::string relative_dir_;
};

}  // namespace sbx::servers::arxiv
