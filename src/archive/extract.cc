#include "archive/extract.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <unordered_set>
#include <vector>

#include "archive/archive_util.h"
#include "archive/path_rules.h"

namespace sbx::archive {
namespace {

using internal::ArchiveErrorText;
using internal::ArchiveReader;
using internal::EntryPath;
using internal::Quote;
using internal::UniqueFd;

Error Invalid(std::string message) {
  return MakeError(ErrorCode::kInvalidArgument, std::move(message));
}

Error SysError(const std::string& what, const std::string& name, int err = errno) {
  return MakeError(ErrorCode::kInternal, "extracting archive entry " + Quote(name) + ": " + what +
                                             " failed: " + std::strerror(err));
}

Error NotATarGz(const std::string& detail) {
  return Invalid("not a valid tar.gz archive: " + detail);
}

// openat2 confined to the tree below `dirfd` and refusing every symlink (and
// /proc magic link) on the way, the final component included: this is what
// keeps a planted link from redirecting a write, whatever the entry order.
// glibc 2.36 has no wrapper, hence the raw syscall.
int OpenBeneath(int dirfd, const std::string& path, std::uint64_t flags, std::uint64_t mode = 0) {
  struct open_how how {};
  how.flags = flags | O_CLOEXEC;
  how.mode = mode;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  for (int attempt = 0;; ++attempt) {
    long fd = ::syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    // EAGAIN: a concurrent rename raced the lookup; the kernel asks to retry.
    if (errno == EINTR || (errno == EAGAIN && attempt < 16)) continue;
    return -1;
  }
}

// The member's mtime with the nanoseconds forced into range: the value comes
// from the archive, and an out-of-range one would make futimens fail with
// EINVAL, reported as our I/O failure instead of being harmless.
struct timespec MtimeOf(struct archive_entry* entry) {
  long nsec = archive_entry_mtime_nsec(entry);
  if (nsec < 0 || nsec > 999'999'999) nsec = 0;
  return {archive_entry_mtime(entry), nsec};
}

struct DirectoryFinish {
  mode_t mode = 0755;
  bool has_mtime = false;
  struct timespec mtime {};
};

class Extractor {
 public:
  Extractor(int root_fd, const ExtractLimits& limits) : root_fd_(root_fd), limits_(limits) {}

  Status Run(struct ::archive* a) {
    for (;;) {
      struct archive_entry* entry = nullptr;
      int r = archive_read_next_header(a, &entry);
      if (r == ARCHIVE_EOF) break;
      // ARCHIVE_WARN only reports a name that was not valid UTF-8 (the name is
      // still usable); anything worse means the stream cannot be trusted.
      if (r != ARCHIVE_OK && r != ARCHIVE_WARN) return NotATarGz(ArchiveErrorText(a));
      if (auto s = HandleEntry(a, entry); !s) return s;
    }
    return FinishDirectories();
  }

  const ExtractStats& stats() const { return stats_; }

 private:
  Status HandleEntry(struct ::archive* a, struct archive_entry* entry) {
    const char* raw_name = archive_entry_pathname(entry);
    std::string name = raw_name != nullptr ? raw_name : "";
    std::string subject = "archive entry " + Quote(name);
    auto path =
        internal::NormalizeEntryName(name, limits_.max_name_bytes, limits_.max_depth, subject);
    if (!path) return path.error();
    mode_t type = archive_entry_filetype(entry);
    const char* hardlink = archive_entry_hardlink(entry);
    if (type != AE_IFREG || hardlink != nullptr) {
      // Data that is not extracted is still decompressed to be skipped, so
      // it counts too (a hard link or directory "with data" is no way round
      // the byte limit). Regular files count theirs in ExtractRegular.
      std::int64_t skipped = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
      if (skipped > 0) {
        if (!Fits(static_cast<std::uint64_t>(skipped))) return TooMuchData();
        budget_used_ += static_cast<std::uint64_t>(skipped);
      }
    }
    // Every member counts against max_entries except one "." (which archives
    // made with `tar -C dir .` start with): repeated ones cost time as well.
    bool counts = !path->IsRoot() || seen_root_;
    if (path->IsRoot()) seen_root_ = true;
    if (counts && counted_++ >= limits_.max_entries) {
      return MakeError(ErrorCode::kTooLarge, "archive has more than the limit of " +
                                                 std::to_string(limits_.max_entries) + " entries");
    }
    if (path->IsRoot()) {
      // "." (or "./") describes dest_dir itself, which the caller owns.
      if (type == AE_IFDIR && hardlink == nullptr) return Ok();
      return Invalid(subject +
                     " would replace the workspace root with something other than a "
                     "directory");
    }
    Status done;
    if (hardlink != nullptr) {
      done = ExtractHardLink(*path, hardlink, subject);
    } else {
      switch (type) {
        case AE_IFDIR:
          done = ExtractDirectory(*path, entry, subject);
          break;
        case AE_IFREG:
          done = ExtractRegular(a, *path, entry, subject);
          break;
        case AE_IFLNK:
          done = ExtractSymlink(*path, entry, subject);
          break;
        case AE_IFCHR:
          return Invalid(subject + " is a character device: device nodes are not allowed");
        case AE_IFBLK:
          return Invalid(subject + " is a block device: device nodes are not allowed");
        case AE_IFIFO:
          return Invalid(subject + " is a fifo: fifos are not allowed");
        case AE_IFSOCK:
          return Invalid(subject + " is a socket: sockets are not allowed");
        default:
          return Invalid(subject + " has an unsupported file type");
      }
    }
    if (!done) return done;
    ++stats_.entries;
    return Ok();
  }

  // Opens the directory that will hold `path`'s last component, creating
  // missing directories on the way (0700 now, 0755 in FinishDirectories).
  Result<UniqueFd> OpenParent(const EntryPath& path, const std::string& subject) {
    std::size_t n = path.parts.size() - 1;
    // Fast path: the parent usually exists already.
    UniqueFd fast(OpenBeneath(root_fd_, n == 0 ? "." : path.Prefix(n), O_RDONLY | O_DIRECTORY));
    if (fast.valid()) return fast;
    UniqueFd cur(OpenBeneath(root_fd_, ".", O_RDONLY | O_DIRECTORY));
    if (!cur.valid()) return SysError("opening the workspace", path.Joined());
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& part = path.parts[i];
      UniqueFd next(OpenBeneath(cur.get(), part, O_RDONLY | O_DIRECTORY));
      if (!next.valid() && errno == ENOENT) {
        if (::mkdirat(cur.get(), part.c_str(), 0700) == 0) {
          dirs_.emplace(path.Prefix(i + 1), DirectoryFinish{});
        } else if (errno != EEXIST) {
          return SysError("creating directory " + Quote(path.Prefix(i + 1)), path.Joined());
        }
        next = UniqueFd(OpenBeneath(cur.get(), part, O_RDONLY | O_DIRECTORY));
      }
      if (!next.valid()) {
        if (errno == ELOOP || errno == EXDEV) {
          return Invalid(subject + " lies below the symlink " + Quote(path.Prefix(i + 1)) +
                         ": entries are never written through links");
        }
        if (errno == ENOTDIR) {
          return Invalid(subject + " lies below " + Quote(path.Prefix(i + 1)) +
                         ", which is not a directory");
        }
        return SysError("opening directory " + Quote(path.Prefix(i + 1)), path.Joined());
      }
      cur = std::move(next);
    }
    return cur;
  }

  // Makes room for a non-directory at `leaf`: a file or link already there is
  // replaced (a later member wins, as with tar), a directory is not.
  Status ClearLeaf(int parent_fd, const EntryPath& path, const std::string& subject) {
    const std::string& leaf = path.parts.back();
    struct stat st {};
    if (::fstatat(parent_fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) return Ok();
      return SysError("inspecting the existing entry", path.Joined());
    }
    if (S_ISDIR(st.st_mode)) {
      return Invalid(subject + " would replace a directory of the same name");
    }
    if (::unlinkat(parent_fd, leaf.c_str(), 0) != 0 && errno != ENOENT) {
      return SysError("replacing the existing entry", path.Joined());
    }
    return Ok();
  }

  Status ExtractDirectory(const EntryPath& path, struct archive_entry* entry,
                          const std::string& subject) {
    auto parent = OpenParent(path, subject);
    if (!parent) return parent.error();
    const std::string& leaf = path.parts.back();
    if (::mkdirat(parent->get(), leaf.c_str(), 0700) != 0) {
      if (errno != EEXIST) return SysError("creating the directory", path.Joined());
      struct stat st {};
      if (::fstatat(parent->get(), leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return SysError("inspecting the existing entry", path.Joined());
      }
      if (!S_ISDIR(st.st_mode)) {
        return Invalid(subject + " is a directory but an earlier entry of the same name is not");
      }
    }
    // Final mode and mtime wait for FinishDirectories: a read-only directory
    // could not receive its children, and each child would bump the mtime.
    DirectoryFinish finish;
    finish.mode = archive_entry_perm(entry) & 0777;
    if (archive_entry_mtime_is_set(entry)) {
      finish.has_mtime = true;
      finish.mtime = MtimeOf(entry);
    }
    dirs_[path.Joined()] = finish;
    return Ok();
  }

  Status ExtractRegular(struct ::archive* a, const EntryPath& path, struct archive_entry* entry,
                        const std::string& subject) {
    std::int64_t declared = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
    if (declared < 0) return Invalid(subject + " has a negative size");
    // Counting the declared size up front stops a bomb before a byte is
    // written, and also bounds sparse files, whose holes cost nothing to
    // store here but would cost their full size in every later dump.
    std::uint64_t reserved = static_cast<std::uint64_t>(declared);
    if (!Fits(reserved)) return TooMuchData();
    auto parent = OpenParent(path, subject);
    if (!parent) return parent.error();
    if (auto s = ClearLeaf(parent->get(), path, subject); !s) return s;
    UniqueFd fd(OpenBeneath(parent->get(), path.parts.back(),
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600));
    if (!fd.valid()) return SysError("creating the file", path.Joined());

    std::uint64_t extent = 0;  // end of the last data block written
    for (;;) {
      const void* buf = nullptr;
      std::size_t len = 0;
      la_int64_t offset = 0;
      int r = archive_read_data_block(a, &buf, &len, &offset);
      if (r == ARCHIVE_EOF) break;
      if (r != ARCHIVE_OK && r != ARCHIVE_WARN) return NotATarGz(ArchiveErrorText(a));
      if (offset < 0) return Invalid(subject + " has data at a negative offset");
      if (len == 0) continue;
      std::uint64_t end = static_cast<std::uint64_t>(offset) + len;
      if (end > reserved) {
        // Never expected from libarchive (it bounds blocks by the size), but
        // the limit must hold even if a reader bug says otherwise.
        if (!Fits(end)) return TooMuchData();
        reserved = end;
      }
      if (auto s = WriteAt(fd.get(), buf, len, offset, path); !s) return s;
      stats_.bytes += len;
      extent = std::max(extent, end);
    }
    budget_used_ += reserved;
    // A trailing hole of a sparse file has no data block to write.
    if (extent < static_cast<std::uint64_t>(declared) &&
        ::ftruncate(fd.get(), static_cast<off_t>(declared)) != 0) {
      return SysError("sizing the file", path.Joined());
    }
    if (::fchmod(fd.get(), archive_entry_perm(entry) & 0777) != 0) {
      return SysError("setting the mode", path.Joined());
    }
    if (archive_entry_mtime_is_set(entry)) {
      struct timespec times[2] = {{0, UTIME_OMIT}, MtimeOf(entry)};
      if (::futimens(fd.get(), times) != 0) return SysError("setting the mtime", path.Joined());
    }
    extracted_files_.insert(path.Joined());
    return Ok();
  }

  Status ExtractSymlink(const EntryPath& path, struct archive_entry* entry,
                        const std::string& subject) {
    const char* raw_target = archive_entry_symlink(entry);
    std::string target = raw_target != nullptr ? raw_target : "";
    std::string link_subject = subject + " (a symlink to " + Quote(target) + ")";
    if (target.size() > limits_.max_name_bytes) {
      return MakeError(ErrorCode::kTooLarge, link_subject +
                                                 " has a target longer than the limit of " +
                                                 std::to_string(limits_.max_name_bytes) + " bytes");
    }
    switch (internal::ClassifySymlinkTarget(path, target)) {
      case internal::LinkTarget::kInside:
        break;
      case internal::LinkTarget::kEmpty:
        return Invalid(link_subject + " has an empty target");
      case internal::LinkTarget::kAbsolute:
        return Invalid(link_subject +
                       " points to an absolute path: links must stay inside the "
                       "workspace");
      case internal::LinkTarget::kEscapes:
        return Invalid(link_subject + " points outside the workspace (\"..\")");
    }
    auto parent = OpenParent(path, subject);
    if (!parent) return parent.error();
    if (auto s = ClearLeaf(parent->get(), path, subject); !s) return s;
    const std::string& leaf = path.parts.back();
    if (::symlinkat(target.c_str(), parent->get(), leaf.c_str()) != 0) {
      return SysError("creating the symlink", path.Joined());
    }
    if (archive_entry_mtime_is_set(entry)) {
      struct timespec times[2] = {{0, UTIME_OMIT}, MtimeOf(entry)};
      if (::utimensat(parent->get(), leaf.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0) {
        return SysError("setting the mtime", path.Joined());
      }
    }
    return Ok();
  }

  Status ExtractHardLink(const EntryPath& path, const std::string& raw_target,
                         const std::string& subject) {
    std::string link_subject = subject + " (a hard link to " + Quote(raw_target) + ")";
    auto target = internal::NormalizeEntryName(raw_target, limits_.max_name_bytes,
                                               limits_.max_depth, link_subject);
    if (!target) return target.error();
    std::string target_name = target->Joined();
    // Only files this archive created qualify: anything else already in
    // dest_dir (or reachable from it) is not the archive's to link to.
    auto not_extracted = [&] {
      return Invalid(link_subject +
                     " does not point to a regular file extracted earlier from this archive");
    };
    if (target->IsRoot() || extracted_files_.count(target_name) == 0) return not_extracted();
    if (target_name == path.Joined()) return Invalid(link_subject + " links to itself");
    std::size_t n = target->parts.size() - 1;
    UniqueFd target_dir(
        OpenBeneath(root_fd_, n == 0 ? "." : target->Prefix(n), O_RDONLY | O_DIRECTORY));
    if (!target_dir.valid()) return not_extracted();
    const std::string& target_leaf = target->parts.back();
    struct stat st {};
    if (::fstatat(target_dir.get(), target_leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(st.st_mode)) {
      return not_extracted();
    }
    auto parent = OpenParent(path, subject);
    if (!parent) return parent.error();
    if (auto s = ClearLeaf(parent->get(), path, subject); !s) return s;
    // Flags 0: linkat never follows a symlink in the final component, and
    // the directories on both sides are already pinned by descriptors.
    if (::linkat(target_dir.get(), target_leaf.c_str(), parent->get(), path.parts.back().c_str(),
                 0) != 0) {
      return SysError("creating the hard link", path.Joined());
    }
    extracted_files_.insert(path.Joined());
    return Ok();
  }

  // Applies the directories' final modes (setuid/setgid/sticky stripped) and
  // mtimes, deepest first so that a directory without write or search
  // permission is only closed off after everything below it is done.
  Status FinishDirectories() {
    std::vector<std::pair<std::size_t, const std::string*>> order;
    order.reserve(dirs_.size());
    for (const auto& [name, finish] : dirs_) {
      order.emplace_back(std::count(name.begin(), name.end(), '/'), &name);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    for (const auto& [depth, name] : order) {
      const DirectoryFinish& finish = dirs_.at(*name);
      UniqueFd fd(OpenBeneath(root_fd_, *name, O_RDONLY | O_DIRECTORY));
      if (!fd.valid()) return SysError("reopening the directory", *name);
      if (::fchmod(fd.get(), finish.mode) != 0) return SysError("setting the mode", *name);
      if (finish.has_mtime) {
        struct timespec times[2] = {{0, UTIME_OMIT}, finish.mtime};
        if (::futimens(fd.get(), times) != 0) return SysError("setting the mtime", *name);
      }
    }
    return Ok();
  }

  bool Fits(std::uint64_t more) const {
    return budget_used_ <= limits_.max_total_bytes &&
           more <= limits_.max_total_bytes - budget_used_;
  }

  Error TooMuchData() const {
    return MakeError(ErrorCode::kTooLarge, "archive expands past the limit of " +
                                               std::to_string(limits_.max_total_bytes) + " bytes");
  }

  static Status WriteAt(int fd, const void* data, std::size_t len, la_int64_t offset,
                        const EntryPath& path) {
    const char* p = static_cast<const char*>(data);
    while (len > 0) {
      ssize_t n = ::pwrite(fd, p, len, static_cast<off_t>(offset));
      if (n < 0) {
        if (errno == EINTR) continue;
        return SysError("writing the file", path.Joined());
      }
      p += n;
      len -= static_cast<std::size_t>(n);
      offset += n;
    }
    return Ok();
  }

  int root_fd_;
  ExtractLimits limits_;
  ExtractStats stats_;
  std::uint64_t budget_used_ = 0;  // declared sizes of the members so far
  std::uint64_t counted_ = 0;      // members counted against max_entries
  bool seen_root_ = false;
  std::map<std::string, DirectoryFinish> dirs_;
  std::unordered_set<std::string> extracted_files_;  // hard-link targets allowed
};

}  // namespace

Result<ExtractStats> ExtractArchive(const std::string& archive_path, const std::string& dest_dir,
                                    const ExtractLimits& limits) {
  internal::Utf8LocaleScope utf8;
  UniqueFd root(::open(dest_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid()) {
    return MakeError(ErrorCode::kInternal,
                     "opening extraction directory " + dest_dir + ": " + std::strerror(errno));
  }
  UniqueFd input(::open(archive_path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!input.valid()) {
    return MakeError(ErrorCode::kInternal,
                     "opening archive " + archive_path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(input.get(), &st) != 0) {
    return MakeError(ErrorCode::kInternal,
                     "inspecting archive " + archive_path + ": " + std::strerror(errno));
  }
  // libarchive would say "Unrecognized archive format"; an empty upload is
  // common enough (a client that forgot the body) to deserve its own words.
  if (S_ISREG(st.st_mode) && st.st_size == 0) return NotATarGz("the file is empty");

  ArchiveReader reader(archive_read_new());
  if (!reader) return MakeError(ErrorCode::kInternal, "libarchive: out of memory");
  struct ::archive* a = reader.get();
  // Only tar, plain or gzip'd: every other format or filter libarchive knows
  // is attack surface the API does not need.
  if (archive_read_support_format_tar(a) != ARCHIVE_OK ||
      archive_read_support_format_gnutar(a) != ARCHIVE_OK ||
      archive_read_support_filter_gzip(a) != ARCHIVE_OK ||
      archive_read_support_filter_none(a) != ARCHIVE_OK) {
    return MakeError(ErrorCode::kInternal,
                     std::string("libarchive setup failed: ") + ArchiveErrorText(a));
  }
  if (archive_read_open_fd(a, input.get(), 64 * 1024) != ARCHIVE_OK) {
    return NotATarGz(ArchiveErrorText(a));
  }
  Extractor extractor(root.get(), limits);
  if (auto s = extractor.Run(a); !s) return s.error();
  return extractor.stats();
}

}  // namespace sbx::archive
