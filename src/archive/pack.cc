#include "archive/pack.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "archive/archive_util.h"
#include "core/crypto.h"

namespace sbx::archive {
namespace {

using internal::ArchiveErrorText;
using internal::ArchiveWriter;
using internal::UniqueFd;

constexpr std::size_t kChunkBytes = 64 * 1024;

// Each level of the walk holds one directory descriptor open; the bound keeps
// a pathological tree from exhausting descriptors or the stack.
constexpr int kMaxDepth = 512;

Error SysError(const std::string& what, const std::string& path, int err = errno) {
  return MakeError(ErrorCode::kInternal, what + " " + path + ": " + std::strerror(err));
}

struct EntryDeleter {
  void operator()(struct archive_entry* e) const { archive_entry_free(e); }
};

// Names in the directory `dirfd`, sorted bytewise (std::string compares as
// unsigned char), without "." and "..". Leaves `dirfd` itself untouched.
Result<std::vector<std::string>> SortedNames(int dirfd, const std::string& shown) {
  int dup = ::fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
  if (dup < 0) return SysError("duplicating descriptor of", shown);
  DIR* dir = ::fdopendir(dup);
  if (dir == nullptr) {
    int err = errno;
    ::close(dup);
    return SysError("listing", shown, err);
  }
  std::vector<std::string> names;
  errno = 0;
  while (struct dirent* e = ::readdir(dir)) {
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) {
      names.emplace_back(e->d_name);
    }
    errno = 0;
  }
  int err = errno;
  ::closedir(dir);
  if (err != 0) return SysError("listing", shown, err);
  std::sort(names.begin(), names.end());
  return names;
}

class Packer {
 public:
  // `skip` is the archive being written: when the output lies inside the
  // tree, packing it would read a file that grows as it is read.
  Packer(struct ::archive* writer, const std::function<void(std::uint64_t)>& progress,
         const struct stat& skip)
      : w_(writer),
        progress_(progress),
        skip_(skip),
        entry_(archive_entry_new()),
        buf_(kChunkBytes) {}

  Status PackRoot(int root_fd) {
    struct stat st {};
    if (::fstat(root_fd, &st) != 0) return SysError("inspecting", ".");
    // Directory members carry a trailing slash, as GNU tar and Python's
    // tarfile write them ("./", "./a/"); readers list them as "." and "./a".
    if (auto s = WriteHeader("./", st, AE_IFDIR, 0, nullptr); !s) return s;
    return Walk(root_fd, ".", 1);
  }

  const PackStats& stats() const { return stats_; }

 private:
  Status Walk(int dirfd, const std::string& prefix, int depth) {
    if (depth > kMaxDepth) {
      return MakeError(
          ErrorCode::kTooLarge,
          "directory tree deeper than " + std::to_string(kMaxDepth) + " levels at " + prefix);
    }
    auto names = SortedNames(dirfd, prefix);
    if (!names) return names.error();
    for (const std::string& name : *names) {
      std::string path = prefix + "/" + name;
      struct stat st {};
      if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) continue;  // removed while we walked: not part of the dump
        return SysError("inspecting", path);
      }
      Status s;
      if (S_ISDIR(st.st_mode)) {
        s = PackDirectory(dirfd, name, path, depth);
      } else if (S_ISREG(st.st_mode)) {
        s = PackFile(dirfd, name, path);
      } else if (S_ISLNK(st.st_mode)) {
        s = PackSymlink(dirfd, name, path, st);
      }
      // Fifos, sockets and devices are skipped: a workspace has no use for
      // them and a tar of them could not be extracted by ExtractArchive.
      if (!s) return s;
    }
    return Ok();
  }

  Status PackDirectory(int dirfd, const std::string& name, const std::string& path, int depth) {
    // O_NOFOLLOW: if the directory was swapped for a link since fstatat, the
    // open fails instead of walking wherever the link points.
    UniqueFd sub(::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!sub.valid()) {
      if (errno == ENOENT) return Ok();
      return SysError("opening", path);
    }
    struct stat st {};
    if (::fstat(sub.get(), &st) != 0) return SysError("inspecting", path);
    if (auto s = WriteHeader(path + "/", st, AE_IFDIR, 0, nullptr); !s) return s;
    return Walk(sub.get(), path, depth + 1);
  }

  Status PackFile(int dirfd, const std::string& name, const std::string& path) {
    // O_NONBLOCK: should the file have been replaced by a fifo since fstatat,
    // the open must not hang; the fstat below then skips it.
    UniqueFd fd(
        ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd.valid()) {
      if (errno == ENOENT || errno == ELOOP) return Ok();
      return SysError("opening", path);
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return SysError("inspecting", path);
    if (!S_ISREG(st.st_mode)) return Ok();
    if (st.st_dev == skip_.st_dev && st.st_ino == skip_.st_ino) return Ok();
    std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
    if (auto s = WriteHeader(path, st, AE_IFREG, st.st_size, nullptr); !s) return s;
    // Exactly `size` bytes follow the header. A file that shrinks meanwhile is
    // padded with zeros by libarchive; one that grows is cut at `size`.
    std::uint64_t remaining = size;
    while (remaining > 0) {
      std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, kChunkBytes));
      ssize_t n = ::read(fd.get(), buf_.data(), want);
      if (n < 0) {
        if (errno == EINTR) continue;
        return SysError("reading", path);
      }
      if (n == 0) break;
      if (auto s = WriteData(buf_.data(), static_cast<std::size_t>(n), path); !s) return s;
      remaining -= static_cast<std::uint64_t>(n);
      stats_.content_bytes += static_cast<std::uint64_t>(n);
      if (progress_) progress_(stats_.content_bytes);
    }
    return Ok();
  }

  Status PackSymlink(int dirfd, const std::string& name, const std::string& path,
                     const struct stat& st) {
    std::vector<char> target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 0) + 256);
    ssize_t n = ::readlinkat(dirfd, name.c_str(), target.data(), target.size());
    if (n < 0) {
      if (errno == ENOENT || errno == EINVAL) return Ok();  // gone or no longer a link
      return SysError("reading link", path);
    }
    if (static_cast<std::size_t>(n) >= target.size()) {
      return MakeError(ErrorCode::kInternal, "link target changed while reading " + path);
    }
    target[static_cast<std::size_t>(n)] = '\0';
    return WriteHeader(path, st, AE_IFLNK, 0, target.data());
  }

  Status WriteHeader(const std::string& name, const struct stat& st, mode_t type, std::int64_t size,
                     const char* link_target) {
    struct archive_entry* e = entry_.get();
    archive_entry_clear(e);
    archive_entry_copy_pathname(e, name.c_str());
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, st.st_mode & 07777);
    archive_entry_set_size(e, size);
    // Owners mean nothing outside this host; 0 with no names is what a
    // harness extracting the dump expects to own.
    archive_entry_set_uid(e, 0);
    archive_entry_set_gid(e, 0);
    // Whole seconds only: sub-second times would force a pax header onto
    // every member for precision nobody grading a workspace needs.
    archive_entry_set_mtime(e, st.st_mtim.tv_sec, 0);
    if (link_target != nullptr) archive_entry_copy_symlink(e, link_target);
    int r = archive_write_header(w_, e);
    // ARCHIVE_WARN: a name that is not valid UTF-8 was stored as raw bytes.
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      return MakeError(ErrorCode::kInternal,
                       "writing archive member " + name + ": " + ArchiveErrorText(w_));
    }
    ++stats_.entries;
    return Ok();
  }

  Status WriteData(const char* data, std::size_t len, const std::string& path) {
    while (len > 0) {
      la_ssize_t n = archive_write_data(w_, data, len);
      if (n <= 0) {
        return MakeError(ErrorCode::kInternal,
                         "writing archive member " + path + ": " + ArchiveErrorText(w_));
      }
      data += n;
      len -= static_cast<std::size_t>(n);
    }
    return Ok();
  }

  struct ::archive* w_;
  const std::function<void(std::uint64_t)>& progress_;
  struct stat skip_;
  std::unique_ptr<struct archive_entry, EntryDeleter> entry_;
  std::vector<char> buf_;
  PackStats stats_;
};

// Packs into the already opened `out_fd`.
Result<PackStats> PackInto(int root_fd, int out_fd,
                           const std::function<void(std::uint64_t)>& progress) {
  ArchiveWriter writer(archive_write_new());
  if (!writer) return MakeError(ErrorCode::kInternal, "libarchive: out of memory");
  struct ::archive* w = writer.get();
  if (archive_write_add_filter_gzip(w) != ARCHIVE_OK ||
      archive_write_set_format_pax_restricted(w) != ARCHIVE_OK ||
      // No timestamp in the gzip header, so equal trees give equal bytes.
      archive_write_set_filter_option(w, "gzip", "timestamp", nullptr) != ARCHIVE_OK ||
      archive_write_open_fd(w, out_fd) != ARCHIVE_OK) {
    return MakeError(ErrorCode::kInternal,
                     std::string("libarchive setup failed: ") + ArchiveErrorText(w));
  }
  struct stat out_st {};
  if (::fstat(out_fd, &out_st) != 0) return SysError("inspecting", "the output file");
  Packer packer(w, progress, out_st);
  if (auto s = packer.PackRoot(root_fd); !s) return s.error();
  if (archive_write_close(w) != ARCHIVE_OK) {
    return MakeError(ErrorCode::kInternal,
                     std::string("finishing the archive: ") + ArchiveErrorText(w));
  }
  return packer.stats();
}

}  // namespace

namespace {

// Packs the open directory `root_fd` into `out_path`.
Result<PackStats> PackOpenDirectory(int root_fd, const std::string& out_path,
                                    const std::function<void(std::uint64_t)>& progress) {
  internal::Utf8LocaleScope utf8;
  // Written under a temporary name and renamed into place, so a reader of
  // `out_path` sees the old archive or the complete new one, never a torn one.
  std::string tmp_path = out_path + ".tmp-" + crypto::Hex(crypto::RandomBytes(8));
  UniqueFd out(
      ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!out.valid()) return SysError("creating", tmp_path);
  auto fail = [&](Error error) {
    ::unlink(tmp_path.c_str());
    return error;
  };
  // The umask could only have narrowed 0600; fchmod makes it exact.
  if (::fchmod(out.get(), 0600) != 0) return fail(SysError("setting mode of", tmp_path));
  auto stats = PackInto(root_fd, out.get(), progress);
  if (!stats) return fail(stats.error());
  if (::close(out.Release()) != 0) return fail(SysError("closing", tmp_path));
  if (::rename(tmp_path.c_str(), out_path.c_str()) != 0) {
    return fail(SysError("renaming into place", out_path));
  }
  return stats;
}

}  // namespace

Result<PackStats> PackDirectory(const std::string& src_dir, const std::string& out_path,
                                const std::function<void(std::uint64_t)>& progress) {
  UniqueFd root(::open(src_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid()) return SysError("opening", src_dir);
  return PackOpenDirectory(root.get(), out_path, progress);
}

Result<PackStats> PackDirectoryBeneath(int base_fd, const std::string& rel_dir,
                                       const std::string& out_path) {
  struct open_how how{};
  how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  UniqueFd root(static_cast<int>(::syscall(SYS_openat2, base_fd, rel_dir.c_str(), &how, sizeof how)));
  if (!root.valid()) {
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EXDEV)
      return MakeError(ErrorCode::kNotFound, rel_dir + " does not exist");
    return SysError("opening", rel_dir);
  }
  return PackOpenDirectory(root.get(), out_path, {});
}

}  // namespace sbx::archive
