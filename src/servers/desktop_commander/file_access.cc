#include "servers/desktop_commander/file_access.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>

#include "servers/filesystem/node_errors.h"

namespace sbx::servers::desktop_commander {
namespace {

using filesystem::ThrowErrno;

// The directory holding the path's last name, through the names between
// (which must be real directories); 0 or errno in `err`.
UniqueFd ParentOf(const ValidPath& file, int& err) {
  const auto& t = file.target;
  err = 0;
  UniqueFd dir(::fcntl(t.base.get(), F_DUPFD_CLOEXEC, 0));
  if (!dir.valid()) {
    err = errno;
    return dir;
  }
  for (std::size_t i = 0; i + 1 < t.rest.size(); ++i) {
    UniqueFd next(::openat(dir.get(), t.rest[i].c_str(), O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC));
    if (!next.valid()) {
      err = errno;
      return UniqueFd();
    }
    dir = std::move(next);
  }
  return dir;
}

// Node passes paths to the kernel as strings, which fail at PATH_MAX bytes.
void CheckLength(const ValidPath& file, std::string_view syscall) {
  if (file.path.size() >= PATH_MAX) ThrowErrno(ENAMETOOLONG, syscall, file.path);
}

}  // namespace

UniqueFd OpenValid(const ValidPath& file, int flags, std::string_view syscall) {
  file.ThrowIfDeferred(syscall);
  CheckLength(file, syscall);
  const auto& t = file.target;
  if (t.rest.empty()) {
    UniqueFd fd(::openat(t.base.get(), ".", flags | O_CLOEXEC));
    if (!fd.valid()) ThrowErrno(errno, syscall, file.path);
    return fd;
  }
  int err = 0;
  UniqueFd dir = ParentOf(file, err);
  if (err) ThrowErrno(err, syscall, file.path);
  UniqueFd fd(::openat(dir.get(), t.rest.back().c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0666));
  if (!fd.valid()) ThrowErrno(errno, syscall, file.path);
  return fd;
}

struct stat StatValid(const ValidPath& file, std::string_view syscall) {
  UniqueFd fd = OpenValid(file, O_PATH, syscall);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) ThrowErrno(errno, syscall, file.path);
  return st;
}

void WriteValid(const ValidPath& file, std::string_view content, bool append) {
  int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
  UniqueFd fd = OpenValid(file, flags, "open");
  WriteAll(fd.get(), content);
}

void RenameValid(const ValidPath& source, const ValidPath& destination) {
  auto fail = [&](int err) { ThrowErrno(err, "rename", source.path, destination.path); };
  if (source.deferred_errno) fail(source.deferred_errno);
  if (destination.deferred_errno) fail(destination.deferred_errno);
  if (source.path.size() >= PATH_MAX || destination.path.size() >= PATH_MAX) fail(ENAMETOOLONG);
  // The workspace root itself is a mount point inside the jail; rename(2)
  // refuses to move it or to replace it.
  if (source.target.rest.empty() || destination.target.rest.empty()) fail(EBUSY);
  int err = 0;
  UniqueFd from = ParentOf(source, err);
  if (err) fail(err);
  UniqueFd to = ParentOf(destination, err);
  if (err) fail(err);
  if (::renameat(from.get(), source.target.rest.back().c_str(), to.get(), destination.target.rest.back().c_str()) != 0)
    fail(errno);
}

}  // namespace sbx::servers::desktop_commander
