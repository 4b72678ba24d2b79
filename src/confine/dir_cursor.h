// Directory handles that stay beneath an allowed root by construction.
//
// A DirCursor is a position inside one allowed root: an O_PATH descriptor of
// the root plus the chain of directories entered from it, each opened with
// openat(parent, name, O_PATH|O_NOFOLLOW|O_DIRECTORY). The kernel never
// follows a symbolic link or a ".." for it: going up pops the chain (and, when
// only the most recent levels are still held open, re-enters the others from
// the nearest held ancestor, again without following links). So whatever is
// renamed or swapped concurrently, every descriptor a cursor hands out names a
// directory that was reached from the root through real directories.
//
// Not thread-safe; one cursor per call.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/unique_fd.h"

namespace sbx::confine {

class DirCursor {
 public:
  // `root_fd`: O_PATH|O_DIRECTORY descriptor of the allowed root.
  explicit DirCursor(UniqueFd root_fd);
  DirCursor(DirCursor&&) = default;
  DirCursor& operator=(DirCursor&&) = default;

  // Enters the subdirectory `name` (a single component, not "." or ".."):
  // 0, or the errno of openat (ENOTDIR for anything but a directory, ELOOP
  // for a symbolic link).
  int Enter(const std::string& name);
  // Enters a directory already opened (O_PATH) below the current one.
  void EnterOpened(const std::string& name, UniqueFd fd);
  // Goes up one level; false at the root (nothing changes then).
  // 0 or the errno of re-entering an ancestor that was no longer held.
  int Leave(bool& left);
  std::size_t depth() const { return names_.size(); }
  const std::vector<std::string>& names() const { return names_; }
  // O_PATH descriptor of the current directory (owned by the cursor).
  int fd();
  // Hands over the current directory's own descriptor; the cursor is spent.
  UniqueFd Release();

 private:
  int Reopen(std::size_t level);
  UniqueFd root_;
  std::vector<std::string> names_;
  std::vector<UniqueFd> fds_;  // fds_[i]: names_[0..i]; invalid when released
};

struct DirEntry {
  std::string name;        // raw bytes from the kernel
  unsigned char type = 0;  // DT_DIR, DT_REG, DT_LNK, … (lstat type; never DT_UNKNOWN)
};

// The entries of the directory `dir_fd` (an O_PATH or O_RDONLY descriptor),
// without "." and "..", sorted bytewise (libuv's scandir order, which is the
// order Node's readdir reports). 0 or an errno; `max_entries` bounds memory
// (E2BIG when a directory holds more).
int ReadDirectory(int dir_fd, std::vector<DirEntry>& out, std::size_t max_entries);

}  // namespace sbx::confine
