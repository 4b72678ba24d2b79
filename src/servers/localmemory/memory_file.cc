#include "servers/localmemory/memory_file.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/crypto.h"
#include "core/unique_fd.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::localmemory {
namespace {

using filesystem::NodeErrorMessage;

Error Failed(std::string message) { return MakeError(ErrorCode::kInternal, std::move(message)); }

// openat2 beneath `dirfd`: the kernel refuses (EXDEV) any resolution that
// would leave it, by "..", an absolute symlink or a relative one; magic
// /proc links are refused too. EAGAIN means a concurrent rename or mount
// raced the lookup: the kernel asks for a retry.
int OpenBeneath(int dirfd, const std::string& path, int flags, mode_t mode = 0) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  for (int attempt = 0;; ++attempt) {
    long fd = ::syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof how);
    if (fd >= 0) return static_cast<int>(fd);
    if ((errno == EAGAIN && attempt < 64) || errno == EINTR) continue;
    return -1;
  }
}

std::vector<std::string> SplitNames(const std::string& relative) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = relative.find('/', start);
    names.push_back(relative.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return names;
}

}  // namespace

MemoryFile::MemoryFile(std::string workspace, std::string relative, std::uint64_t max_bytes)
    : workspace_(std::move(workspace)), relative_(std::move(relative)), max_bytes_(max_bytes) {
  while (workspace_.size() > 1 && workspace_.back() == '/') workspace_.pop_back();
  shown_path_ = (workspace_ == "/" ? "" : workspace_) + "/" + relative_;
}

namespace {

Result<UniqueFd> OpenWorkspace(const std::string& workspace) {
  UniqueFd root(::open(workspace.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root.valid())
    return Failed("The workspace " + workspace + " cannot be opened (" + std::strerror(errno) +
                  "); the memory file lives inside it.");
  return root;
}

// The message for a failed resolution of `shown` (which lies in `workspace`).
Error PathError(int err, const char* syscall, const std::string& shown,
                const std::string& workspace) {
  if (err == EXDEV)
    return MakeError(
        ErrorCode::kForbidden,
        "The memory file path " + shown + " leads outside the workspace " + workspace +
            " (through a symbolic link); refusing to follow it. Replace that link with a "
            "directory or file inside the workspace.");
  return Failed(NodeErrorMessage(err, syscall, shown));
}

}  // namespace

Result<std::optional<std::string>> MemoryFile::Read() const {
  auto root = OpenWorkspace(workspace_);
  if (!root) return root.error();
  // O_NONBLOCK: a FIFO planted at the path must not hang the call.
  UniqueFd fd(OpenBeneath(root->get(), relative_, O_RDONLY | O_NOCTTY | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT) return std::optional<std::string>();
    return PathError(errno, "open", shown_path_, workspace_);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Failed(NodeErrorMessage(errno, "fstat"));
  if (S_ISDIR(st.st_mode)) return Failed(NodeErrorMessage(EISDIR, "read"));
  if (!S_ISREG(st.st_mode))
    return Failed("The memory file " + shown_path_ +
                  " is not a regular file (a FIFO, socket or device); refusing to read it.");
  auto too_big = [&](std::uint64_t size) {
    return MakeError(ErrorCode::kTooLarge,
                     "The memory file " + shown_path_ + " is " + std::to_string(size) +
                         " bytes, more than the " + std::to_string(max_bytes_) +
                         " bytes this server reads; nothing was read or changed.");
  };
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes_)
    return too_big(static_cast<std::uint64_t>(st.st_size));
  std::string data;
  data.resize(static_cast<std::size_t>(st.st_size));
  std::size_t used = 0;
  while (true) {
    // Read one byte past the bound so a file growing meanwhile is caught.
    if (used == data.size()) {
      if (data.size() > max_bytes_) return too_big(data.size());
      data.resize(std::min<std::uint64_t>(max_bytes_ + 1, data.size() + 65536));
    }
    ssize_t n = ::read(fd.get(), data.data() + used, data.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Failed(NodeErrorMessage(errno, "read"));
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  if (used > max_bytes_) return too_big(used);
  data.resize(used);
  return std::optional<std::string>(std::move(data));
}

Status MemoryFile::Write(std::string_view data) const {
  if (data.size() > max_bytes_)
    return MakeError(ErrorCode::kTooLarge, "The memory file " + shown_path_ + " would grow to " +
                                               std::to_string(data.size()) +
                                               " bytes, more than the " +
                                               std::to_string(max_bytes_) +
                                               " bytes this server allows; nothing was changed.");
  auto root = OpenWorkspace(workspace_);
  if (!root) return root.error();

  // The directory holding the file, created as needed, each step resolved
  // from the workspace (a link inside it may point anywhere else inside).
  std::vector<std::string> names = SplitNames(relative_);
  const std::string base = names.back();
  names.pop_back();
  UniqueFd dir;
  std::string prefix, shown_dir = workspace_ == "/" ? "" : workspace_;
  for (const auto& name : names) {
    const int parent = dir.valid() ? dir.get() : root->get();
    prefix += (prefix.empty() ? "" : "/") + name;
    shown_dir += "/" + name;
    UniqueFd next(OpenBeneath(root->get(), prefix, O_PATH | O_DIRECTORY));
    if (!next.valid() && errno == ENOENT) {
      if (::mkdirat(parent, name.c_str(), 0777) != 0 && errno != EEXIST)
        return PathError(errno, "mkdir", shown_dir, workspace_);
      next.Reset(OpenBeneath(root->get(), prefix, O_PATH | O_DIRECTORY));
    }
    if (!next.valid()) return PathError(errno, "open", shown_dir, workspace_);
    dir = std::move(next);
  }
  const int dirfd = dir.valid() ? dir.get() : root->get();

  const std::string temp = base + "." + crypto::Hex(crypto::RandomBytes(16)) + ".tmp";
  const std::string shown_temp = shown_dir + "/" + temp;
  UniqueFd out(
      ::openat(dirfd, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666));
  if (!out.valid()) return Failed(NodeErrorMessage(errno, "open", shown_temp));
  auto abandon = [&](Error e) {
    out.Reset();
    ::unlinkat(dirfd, temp.c_str(), 0);
    return e;
  };
  for (std::size_t done = 0; done < data.size();) {
    ssize_t n = ::write(out.get(), data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return abandon(Failed(NodeErrorMessage(errno, "write")));
    done += static_cast<std::size_t>(n);
  }
  if (::close(out.Release()) != 0) return abandon(Failed(NodeErrorMessage(errno, "close")));
  if (::renameat(dirfd, temp.c_str(), dirfd, base.c_str()) != 0)
    return abandon(Failed(NodeErrorMessage(errno, "rename", shown_temp, shown_path_)));
  return Ok();
}

}  // namespace sbx::servers::localmemory
