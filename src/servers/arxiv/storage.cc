#include "servers/arxiv/storage.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include "confine/create.h"
#include "servers/arxiv/os_files.h"

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
  auto dir = confine::MakeDirectories(root->get(), relative_dir_, 0755, [&](const confine::OsFailure& f) {
    Error e = PyWording(workspace_ + "/" + f.path)(f);
    if (f.syscall == "mkdir") e.code = ErrorCode::kInternal;
    return e;
  });
  if (!dir) return dir.error();
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
  confine::Replacement how;
  how.temp_name = "." + std::string(name) + "." + std::to_string(::getpid()) + "-" +
                  std::to_string(counter.fetch_add(1)) + ".tmp";
  how.mode = 0644;
  how.exact_mode = true;
  return confine::ReplaceFile(dir->get(), std::string(name), data, how, [&](const confine::OsFailure& f) {
    return MakeError(ErrorCode::kInternal, PyOsError(f.err, PathOf(f.syscall == "open" ? how.temp_name : name)));
  });
}

}  // namespace sbx::servers::arxiv
