// A uniquely named file that is removed when the owner goes out of scope,
// for archives packed before an upload and downloads before they are renamed
// or extracted: an interrupted command should not leave archives behind.
// Live temp files are also removed when SIGINT, SIGTERM or SIGHUP kills the
// process (a handler is installed on first use, then the signal is re-raised).
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace sbx::cli {

class TempFile {
 public:
  // Creates an empty file (mode 0600) named `<dir>/<prefix>XXXXXX<suffix>`.
  static Result<TempFile> Create(const std::string& dir, std::string_view prefix,
                                 std::string_view suffix);

  TempFile(TempFile&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  TempFile& operator=(TempFile&&) = delete;
  TempFile(const TempFile&) = delete;
  ~TempFile();

  const std::string& path() const { return path_; }

  // Renames the file to `target` (same file system) and stops owning it.
  Status MoveTo(const std::string& target);

 private:
  explicit TempFile(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// $TMPDIR if set, else /tmp.
std::string TempDir();

}  // namespace sbx::cli
