#include "core/fs.h"

#include "core/unique_fd.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace sbx::fs {
namespace {

Error Errno(const std::string& what, const std::string& path, int err = errno) {
  return MakeError(ErrorCode::kInternal, what + " " + path + ": " + std::strerror(err));
}

using Fd = UniqueFd;

// Names in a directory, excluding . and ..; consumes nothing of `dirfd`.
Result<std::vector<std::string>> ListNames(int dirfd, const std::string& shown) {
  int dup = ::fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
  if (dup < 0) return Errno("dup", shown);
  DIR* dir = ::fdopendir(dup);
  if (!dir) {
    ::close(dup);
    return Errno("opendir", shown);
  }
  ::rewinddir(dir);
  std::vector<std::string> names;
  while (dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
    names.emplace_back(e->d_name);
  }
  ::closedir(dir);
  return names;
}

Status RemoveChildren(int dirfd, const std::string& shown, int depth) {
  if (depth > 4096) return MakeError(ErrorCode::kInternal, "tree too deep: " + shown);
  auto names = ListNames(dirfd, shown);
  if (!names) return names.error();
  for (const auto& name : *names) {
    std::string child = shown + "/" + name;
    struct stat st{};
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) continue;
      return Errno("stat", child);
    }
    if (S_ISDIR(st.st_mode)) {
      Fd sub(::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.get() < 0) return Errno("open", child);
      // Make the directory writable and searchable so its children can go.
      ::fchmod(sub.get(), 0700);
      if (auto s = RemoveChildren(sub.get(), child, depth + 1); !s) return s;
      if (::unlinkat(dirfd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT)
        return Errno("rmdir", child);
    } else if (::unlinkat(dirfd, name.c_str(), 0) != 0 && errno != ENOENT) {
      return Errno("unlink", child);
    }
  }
  return Ok();
}

Status CopyFileContents(int from_fd, int to_fd, const std::string& shown) {
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(from_fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("read", shown);
    }
    if (n == 0) return Ok();
    ssize_t off = 0;
    while (off < n) {
      ssize_t w = ::write(to_fd, buf + off, static_cast<size_t>(n - off));
      if (w < 0) {
        if (errno == EINTR) continue;
        return Errno("write", shown);
      }
      off += w;
    }
  }
}

Status CopyChildren(int from_dir, int to_dir, const std::string& shown, int depth) {
  if (depth > 4096) return MakeError(ErrorCode::kInternal, "tree too deep: " + shown);
  auto names = ListNames(from_dir, shown);
  if (!names) return names.error();
  for (const auto& name : *names) {
    std::string child = shown + "/" + name;
    struct stat st{};
    if (::fstatat(from_dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return Errno("stat", child);
    struct timespec times[2] = {st.st_atim, st.st_mtim};
    if (S_ISDIR(st.st_mode)) {
      if (::mkdirat(to_dir, name.c_str(), 0700) != 0) return Errno("mkdir", child);
      Fd src(::openat(from_dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      Fd dst(::openat(to_dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (src.get() < 0 || dst.get() < 0) return Errno("open", child);
      if (auto s = CopyChildren(src.get(), dst.get(), child, depth + 1); !s) return s;
      ::fchmod(dst.get(), st.st_mode & 07777);
      ::futimens(dst.get(), times);
    } else if (S_ISREG(st.st_mode)) {
      Fd src(::openat(from_dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
      if (src.get() < 0) return Errno("open", child);
      Fd dst(::openat(to_dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
      if (dst.get() < 0) return Errno("create", child);
      if (auto s = CopyFileContents(src.get(), dst.get(), child); !s) return s;
      ::fchmod(dst.get(), st.st_mode & 07777);
      ::futimens(dst.get(), times);
    } else if (S_ISLNK(st.st_mode)) {
      std::vector<char> target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 4096) + 1);
      ssize_t n = ::readlinkat(from_dir, name.c_str(), target.data(), target.size() - 1);
      if (n < 0) return Errno("readlink", child);
      target[static_cast<size_t>(n)] = '\0';
      if (::symlinkat(target.data(), to_dir, name.c_str()) != 0) return Errno("symlink", child);
      ::utimensat(to_dir, name.c_str(), times, AT_SYMLINK_NOFOLLOW);
    }
    // Sockets, fifos and devices are not copied: nothing in a workspace needs them.
  }
  return Ok();
}

}  // namespace

Status MakeDirs(const std::string& path, unsigned mode) {
  if (path.empty()) return MakeError(ErrorCode::kInvalidArgument, "empty path");
  std::string cur;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    cur = path.substr(0, next);
    pos = next + 1;
    if (cur.empty()) continue;
    if (::mkdir(cur.c_str(), mode) != 0 && errno != EEXIST) return Errno("mkdir", cur);
  }
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return MakeError(ErrorCode::kInternal, "not a directory: " + path);
  return Ok();
}

Status RemoveTree(const std::string& path) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Ok();
    return Errno("stat", path);
  }
  if (!S_ISDIR(st.st_mode)) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return Errno("unlink", path);
    return Ok();
  }
  Fd dir(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() < 0) return Errno("open", path);
  ::fchmod(dir.get(), 0700);
  if (auto s = RemoveChildren(dir.get(), path, 0); !s) return s;
  if (::rmdir(path.c_str()) != 0 && errno != ENOENT) return Errno("rmdir", path);
  return Ok();
}

Status CopyTree(const std::string& from, const std::string& to) {
  struct stat st{};
  if (::lstat(from.c_str(), &st) != 0) return Errno("stat", from);
  if (!S_ISDIR(st.st_mode)) return MakeError(ErrorCode::kInternal, "not a directory: " + from);
  if (::mkdir(to.c_str(), 0700) != 0) return Errno("mkdir", to);
  Fd src(::open(from.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  Fd dst(::open(to.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (src.get() < 0) return Errno("open", from);
  if (dst.get() < 0) return Errno("open", to);
  if (auto s = CopyChildren(src.get(), dst.get(), from, 0); !s) return s;
  ::fchmod(dst.get(), st.st_mode & 07777);
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  ::futimens(dst.get(), times);
  return Ok();
}

Status WriteFileAtomic(const std::string& path, const std::string& data, unsigned mode) {
  std::string tmp = path + ".tmp";
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode));
  if (fd.get() < 0) return Errno("create", tmp);
  ::fchmod(fd.get(), mode);
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t w = ::write(fd.get(), data.data() + off, data.size() - off);
    if (w < 0) {
      if (errno == EINTR) continue;
      return Errno("write", tmp);
    }
    off += static_cast<std::size_t>(w);
  }
  if (::fsync(fd.get()) != 0) return Errno("fsync", tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return Errno("rename", path);
  return Ok();
}

Result<std::string> ReadFile(const std::string& path, std::uint64_t max_bytes) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    int err = errno;
    if (err == ENOENT) return MakeError(ErrorCode::kNotFound, "no such file: " + path);
    return Errno("open", path, err);
  }
  std::string out;
  char buf[1 << 14];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("read", path);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > max_bytes) return MakeError(ErrorCode::kTooLarge, "file too large: " + path);
  }
  return out;
}

std::vector<std::string> ListDir(const std::string& path) {
  Fd dir(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return {};
  auto names = ListNames(dir.get(), path);
  return names ? std::move(*names) : std::vector<std::string>();
}

bool Exists(const std::string& path) {
  struct stat st{};
  return ::lstat(path.c_str(), &st) == 0;
}

namespace {
Status SumSizes(int dirfd, const std::string& shown, std::uint64_t& total, int depth) {
  if (depth > 4096) return MakeError(ErrorCode::kInternal, "tree too deep: " + shown);
  auto names = ListNames(dirfd, shown);
  if (!names) return names.error();
  for (const auto& name : *names) {
    struct stat st{};
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    if (S_ISREG(st.st_mode)) {
      total += static_cast<std::uint64_t>(st.st_size);
    } else if (S_ISDIR(st.st_mode)) {
      Fd sub(::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub.get() < 0) continue;
      if (auto s = SumSizes(sub.get(), shown + "/" + name, total, depth + 1); !s) return s;
    }
  }
  return Ok();
}
}  // namespace

Result<std::uint64_t> TreeSize(const std::string& path) {
  Fd dir(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (dir.get() < 0) return Errno("open", path);
  std::uint64_t total = 0;
  if (auto s = SumSizes(dir.get(), path, total, 0); !s) return s.error();
  return total;
}

}  // namespace sbx::fs
