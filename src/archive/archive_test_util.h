// Test-only helpers shared by the archive tests: temporary directories, a
// recursive no-follow listing, a tar writer built on libarchive's write API
// that will happily write hostile members, and the extraction fixture.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <vector>

#include "archive/archive_util.h"
#include "archive/extract.h"
#include "core/fs.h"

namespace sbx::archive::testing {

constexpr std::time_t kTestMtime = 1'700'000'000;

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/sbx-archive-test-XXXXXX";
    char* made = ::mkdtemp(tmpl);
    if (made == nullptr) std::abort();
    path_ = made;
  }
  ~TempDir() { (void)fs::RemoveTree(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// One line per entry below `root` (not following links), sorted:
// "d a", "f a/x", "l a/l -> target", "p fifo". Never includes `root` itself.
inline void ListInto(const std::string& root, const std::string& rel,
                     std::vector<std::string>& out) {
  std::string dir_path = rel.empty() ? root : root + "/" + rel;
  DIR* dir = ::opendir(dir_path.c_str());
  if (dir == nullptr) return;
  while (struct dirent* e = ::readdir(dir)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string child = rel.empty() ? name : rel + "/" + name;
    struct stat st {};
    if (::lstat((root + "/" + child).c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out.push_back("d " + child);
      ListInto(root, child, out);
    } else if (S_ISREG(st.st_mode)) {
      out.push_back("f " + child);
    } else if (S_ISLNK(st.st_mode)) {
      char target[4096];
      ssize_t n = ::readlink((root + "/" + child).c_str(), target, sizeof target);
      out.push_back("l " + child + " -> " + std::string(target, n > 0 ? n : 0));
    } else {
      out.push_back("o " + child);
    }
  }
  ::closedir(dir);
}

inline std::vector<std::string> ListTree(const std::string& root) {
  std::vector<std::string> out;
  ListInto(root, "", out);
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string ReadAll(const std::string& path) {
  auto data = fs::ReadFile(path, 1ull << 30);
  return data.ok() ? data.value() : std::string("<unreadable>");
}

inline void WriteFile(const std::string& path, const std::string& data, mode_t mode = 0644) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  ASSERT_GE(fd, 0) << path << ": " << std::strerror(errno);
  ASSERT_EQ(::write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  ::fchmod(fd, mode);
  ::close(fd);
}

inline mode_t ModeOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return static_cast<mode_t>(-1);
  return st.st_mode & 07777;
}

// Writes a tar (pax, GNU or ustar; gzip'd or not) member by member.
class TarWriter {
 public:
  enum class Format { kPax, kGnu, kUstar, kZip };

  explicit TarWriter(const std::string& path, Format format = Format::kPax, bool gzip = true)
      : a_(archive_write_new()), entry_(archive_entry_new()) {
    if (gzip) archive_write_add_filter_gzip(a_);
    switch (format) {
      case Format::kPax:
        archive_write_set_format_pax_restricted(a_);
        break;
      case Format::kGnu:
        archive_write_set_format_gnutar(a_);
        break;
      case Format::kUstar:
        archive_write_set_format_ustar(a_);
        break;
      case Format::kZip:
        archive_write_set_format_zip(a_);
        break;
    }
    if (archive_write_open_filename(a_, path.c_str()) != ARCHIVE_OK) {
      ADD_FAILURE() << "open " << path << ": " << archive_error_string(a_);
    }
  }
  ~TarWriter() {
    Close();
    archive_entry_free(entry_);
  }

  TarWriter& File(const std::string& name, const std::string& data, mode_t perm = 0644) {
    Header(name, AE_IFREG, perm, static_cast<std::int64_t>(data.size()));
    Data(data.data(), data.size());
    return *this;
  }
  // A file of `size` zero bytes, written in chunks (no big buffer).
  TarWriter& Zeros(const std::string& name, std::uint64_t size) {
    Header(name, AE_IFREG, 0644, static_cast<std::int64_t>(size));
    std::string chunk(1 << 16, '\0');
    for (std::uint64_t left = size; left > 0;) {
      std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
      Data(chunk.data(), n);
      left -= n;
    }
    return *this;
  }
  // A sparse file of `size` bytes whose only data is `data` at `offset`.
  TarWriter& Sparse(const std::string& name, std::int64_t size, std::int64_t offset,
                    const std::string& data) {
    archive_entry_clear(entry_);
    Fill(name, AE_IFREG, 0644, size);
    archive_entry_sparse_add_entry(entry_, offset, static_cast<std::int64_t>(data.size()));
    WriteHeader(name);
    // libarchive's writer takes the logical contents and drops the holes.
    std::string logical(static_cast<std::size_t>(size), '\0');
    logical.replace(static_cast<std::size_t>(offset), data.size(), data);
    Data(logical.data(), logical.size());
    return *this;
  }
  TarWriter& Dir(const std::string& name, mode_t perm = 0755) {
    Header(name, AE_IFDIR, perm, 0);
    return *this;
  }
  TarWriter& Symlink(const std::string& name, const std::string& target) {
    archive_entry_clear(entry_);
    Fill(name, AE_IFLNK, 0777, 0);
    archive_entry_copy_symlink(entry_, target.c_str());
    WriteHeader(name);
    return *this;
  }
  TarWriter& HardLink(const std::string& name, const std::string& target) {
    archive_entry_clear(entry_);
    Fill(name, AE_IFREG, 0644, 0);
    archive_entry_copy_hardlink(entry_, target.c_str());
    WriteHeader(name);
    return *this;
  }
  TarWriter& Node(const std::string& name, mode_t type, dev_t rdev = 0) {
    archive_entry_clear(entry_);
    Fill(name, type, 0644, 0);
    archive_entry_set_rdev(entry_, rdev);
    WriteHeader(name);
    return *this;
  }
  void Close() {
    if (a_ == nullptr) return;
    if (archive_write_close(a_) != ARCHIVE_OK) ADD_FAILURE() << archive_error_string(a_);
    archive_write_free(a_);
    a_ = nullptr;
  }

 private:
  void Fill(const std::string& name, mode_t type, mode_t perm, std::int64_t size) {
    archive_entry_copy_pathname(entry_, name.c_str());
    archive_entry_set_filetype(entry_, type);
    archive_entry_set_perm(entry_, perm);
    archive_entry_set_size(entry_, size);
    archive_entry_set_mtime(entry_, kTestMtime, 0);
  }
  void Header(const std::string& name, mode_t type, mode_t perm, std::int64_t size) {
    archive_entry_clear(entry_);
    Fill(name, type, perm, size);
    WriteHeader(name);
  }
  void WriteHeader(const std::string& name) {
    int r = archive_write_header(a_, entry_);
    if (r != ARCHIVE_OK) ADD_FAILURE() << "header " << name << ": " << archive_error_string(a_);
  }
  void Data(const char* p, std::size_t n) {
    if (n > 0 && archive_write_data(a_, p, n) != static_cast<la_ssize_t>(n)) {
      ADD_FAILURE() << "data: " << archive_error_string(a_);
    }
  }

  // Names reach libarchive as UTF-8 bytes (see Utf8LocaleScope).
  internal::Utf8LocaleScope utf8_;
  struct archive* a_;
  struct archive_entry* entry_;
};

// Layout: parent_/dest is the extraction root and the only thing in
// parent_; archives live in a separate directory so that "nothing appeared
// next to dest" is an exact listing comparison.
class ExtractFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(::mkdir(dest_.c_str(), 0755), 0);
    // A unique absolute name that hostile archives aim at; it must never appear.
    outside_abs_ = "/tmp/sbx-archive-escape-" + std::to_string(::getpid());
    ::unlink(outside_abs_.c_str());
  }
  void TearDown() override {
    struct stat st {};
    EXPECT_NE(::lstat(outside_abs_.c_str(), &st), 0) << outside_abs_ << " was created";
    ::unlink(outside_abs_.c_str());
  }

  Result<ExtractStats> Extract(const ExtractLimits& limits = {}) {
    return ExtractArchive(archive_, dest_, limits);
  }

  // The whole parent directory, dest included: only dest's subtree may change.
  std::vector<std::string> Outside() {
    std::vector<std::string> out;
    for (const std::string& line : ListTree(parent_.path())) {
      if (line.rfind("d dest/", 0) == 0 || line.rfind("f dest/", 0) == 0 ||
          line.rfind("l dest/", 0) == 0 || line.rfind("o dest/", 0) == 0) {
        continue;
      }
      out.push_back(line);
    }
    return out;
  }

  void ExpectRefused(const Result<ExtractStats>& r, ErrorCode code, const std::string& message) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, code);
    EXPECT_EQ(r.error().message, message);
    EXPECT_EQ(Outside(), std::vector<std::string>{"d dest"});
  }

  TempDir parent_;
  TempDir archives_;
  std::string dest_ = parent_ / "dest";
  std::string archive_ = archives_ / "in.tar.gz";
  std::string outside_abs_;
};

}  // namespace sbx::archive::testing
