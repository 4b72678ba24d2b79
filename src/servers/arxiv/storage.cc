#include "servers/arxiv/storage.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include "servers/arxiv/beneath.h"

namespace sbx::servers::arxiv {

PaperStorage::PaperStorage(std::string workspace, std::string relative_dir)
    : workspace_(std::move(workspace)), relative_dir_(std::move(relative_dir)) {}

std::string PaperStorage::FileStem(std::string_view paper_id) {
  std::string stem(paper_id);
  std::replace(stem.begin(), stem.end(), '/', '_');
  return stem;
}

std::string PaperStorage::PaperIdOf(std::string_view stem) {
  std::string id(stem);
  std::replace(id.begin(), id.end(), '_', '/');
  return id;
}

std::string PaperStorage::PathOf(std::string_view name) const {
  std::string dir = relative_dir_.empty() ? workspace_ : workspace_ + "/" + relative_dir_;
  return name.empty() ? dir : dir + "/" + std::string(name);
}

std::string PaperStorage::RelativePath(std::string_view name) const {
  if (relative_dir_.empty()) return std::string(name);
  return relative_dir_ + "/" + std::string(name);
}

Status PaperStorage::EnsureDirectory() const {
  auto root = OpenRoot(workspace_);
  if (!root) return root.error();
  std::size_t start = 0;
  while (start < relative_dir_.size()) {
    std::size_t slash = relative_dir_.find('/', start);
    if (slash == std::string::npos) slash = relative_dir_.size();
    const std::string prefix = relative_dir_.substr(0, slash);
    const std::string display = workspace_ + "/" + prefix;
    auto existing = OpenBeneath(root->get(), prefix, O_PATH | O_DIRECTORY, display);
    if (!existing) {
      if (existing.error().code != ErrorCode::kNotFound) return existing.error();
      auto parent = OpenBeneath(root->get(), relative_dir_.substr(0, start), O_PATH | O_DIRECTORY, display);
      if (!parent) return parent.error();
      const std::string name = relative_dir_.substr(start, slash - start);
      if (::mkdirat(parent->get(), name.c_str(), 0755) != 0 && errno != EEXIST)
        return MakeError(ErrorCode::kInternal, PyOsError(errno, display));
      if (auto again = OpenBeneath(root->get(), prefix, O_PATH | O_DIRECTORY, display); !again) return again.error();
    }
    start = slash + 1;
  }
  return Ok();
}

bool PaperStorage::Exists(std::string_view name) const {
  if (name.empty() || name.find('/') != std::string_view::npos || name.find('\0') != std::string_view::npos)
    return false;
  auto root = OpenRoot(workspace_);
  if (!root) return false;
  return OpenBeneath(root->get(), RelativePath(name), O_PATH, PathOf(name)).ok();
}

Result<std::vector<std::string>> PaperStorage::MarkdownStems(std::size_t max_entries) const {
  auto root = OpenRoot(workspace_);
  if (!root) return root.error();
  auto fd = OpenBeneath(root->get(), relative_dir_, O_RDONLY | O_DIRECTORY, PathOf(""));
  if (!fd) return fd.error();
  DIR* dir = ::fdopendir(fd->get());
  if (!dir) return MakeError(ErrorCode::kInternal, PyOsError(errno, PathOf("")));
  fd->Release();  // owned by `dir` now
  std::vector<std::string> stems;
  std::size_t seen = 0;
  bool too_many = false;
  while (dirent* e = ::readdir(dir)) {
    std::string_view name = e->d_name;
    if (name.empty() || name[0] == '.' || name.size() <= 3 || !name.ends_with(".md")) continue;
    if (++seen > max_entries) {
      too_many = true;
      break;
    }
    stems.emplace_back(name.substr(0, name.size() - 3));
  }
  ::closedir(dir);
  if (too_many)
    return MakeError(ErrorCode::kTooLarge,
                     PathOf("") + " holds more than " + std::to_string(max_entries) + " markdown files");
  std::sort(stems.begin(), stems.end());
  return stems;
}

Result<std::string> PaperStorage::Read(std::string_view name, std::uint64_t max_bytes) const {
  auto root = OpenRoot(workspace_);
  if (!root) return root.error();
  return ReadBeneath(root->get(), RelativePath(name), max_bytes, PathOf(name));
}

Status PaperStorage::Write(std::string_view name, const std::string& data) const {
  auto root = OpenRoot(workspace_);
  if (!root) return root.error();
  auto dir = OpenBeneath(root->get(), relative_dir_, O_PATH | O_DIRECTORY, PathOf(""));
  if (!dir) return dir.error();
  static std::atomic<unsigned> counter{0};
  const std::string temp = "." + std::string(name) + "." + std::to_string(::getpid()) + "-" +
                           std::to_string(counter.fetch_add(1)) + ".tmp";
  int fd = ::openat(dir->get(), temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return MakeError(ErrorCode::kInternal, PyOsError(errno, PathOf(temp)));
  int err = ::fchmod(fd, 0644) == 0 ? 0 : errno;
  for (std::size_t done = 0; err == 0 && done < data.size();) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    else done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && ::renameat(dir->get(), temp.c_str(), dir->get(), std::string(name).c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlinkat(dir->get(), temp.c_str(), 0);
    return MakeError(ErrorCode::kInternal, PyOsError(err, PathOf(name)));
  }
  return Ok();
}

}  // namespace sbx::servers::arxiv
