#include "confine/dir_cursor.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace sbx::confine {
namespace {

// How many levels below the root a cursor keeps open; deeper ancestors are
// re-entered on the way up. Keeps descriptor use flat for deep trees.
constexpr std::size_t kHeldLevels = 32;

int OpenDirBelow(int parent, const std::string& name, UniqueFd& out) {
  int fd = ::openat(parent, name.c_str(), O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  out.Reset(fd);
  return 0;
}

}  // namespace

DirCursor::DirCursor(UniqueFd root_fd) : root_(std::move(root_fd)) {}

int DirCursor::fd() {
  if (fds_.empty()) return root_.get();
  if (!fds_.back().valid()) Reopen(fds_.size() - 1);
  return fds_.back().get();
}

UniqueFd DirCursor::Release() {
  if (fds_.empty()) return std::move(root_);
  if (!fds_.back().valid()) Reopen(fds_.size() - 1);
  return std::move(fds_.back());
}

int DirCursor::Enter(const std::string& name) {
  UniqueFd fd;
  if (int err = OpenDirBelow(this->fd(), name, fd)) return err;
  EnterOpened(name, std::move(fd));
  return 0;
}

void DirCursor::EnterOpened(const std::string& name, UniqueFd fd) {
  names_.push_back(name);
  fds_.push_back(std::move(fd));
  if (fds_.size() > kHeldLevels) fds_[fds_.size() - kHeldLevels - 1].Reset();
}

int DirCursor::Leave(bool& left) {
  left = false;
  if (names_.empty()) return 0;
  names_.pop_back();
  fds_.pop_back();
  left = true;
  if (!fds_.empty() && !fds_.back().valid()) return Reopen(fds_.size() - 1);
  return 0;
}

int DirCursor::Reopen(std::size_t level) {
  // Nearest held ancestor (the root is always held), then down by name.
  std::size_t start = level;
  while (start > 0 && !fds_[start - 1].valid()) --start;
  int base = start == 0 ? root_.get() : fds_[start - 1].get();
  for (std::size_t i = start; i <= level; ++i) {
    UniqueFd fd;
    if (int err = OpenDirBelow(base, names_[i], fd)) return err;
    fds_[i] = std::move(fd);
    base = fds_[i].get();
  }
  return 0;
}

int ReadDirectory(int dir_fd, std::vector<DirEntry>& out, std::size_t max_entries) {
  out.clear();
  UniqueFd dir(::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return errno;
  alignas(8) char buf[32768];
  for (;;) {
    long n = ::syscall(SYS_getdents64, dir.get(), buf, sizeof buf);
    if (n < 0) return errno;
    if (n == 0) break;
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<struct dirent64*>(buf + off);
      off += d->d_reclen;
      if (std::strcmp(d->d_name, ".") == 0 || std::strcmp(d->d_name, "..") == 0) continue;
      if (out.size() >= max_entries) return E2BIG;
      DirEntry e;
      e.name = d->d_name;
      e.type = d->d_type;
      if (e.type == DT_UNKNOWN) {
        struct stat st;
        if (::fstatat(dir.get(), d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
          e.type = static_cast<unsigned char>(IFTODT(st.st_mode));
        }
      }
      out.push_back(std::move(e));
    }
  }
  std::sort(out.begin(), out.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return 0;
}

}  // namespace sbx::confine
