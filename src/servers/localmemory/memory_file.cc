#include "servers/localmemory/memory_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "confine/beneath.h"
#include "confine/create.h"
#include "core/crypto.h"
#include "core/unique_fd.h"
#include "servers/filesystem/node_errors.h"

namespace sbx::servers::localmemory {
namespace {

using filesystem::NodeErrorMessage;

Error Failed(std::string message) { return MakeError(ErrorCode::kInternal, std::move(message)); }

}  // namespace

MemoryFile::MemoryFile(std::string workspace, std::string relative, std::uint64_t max_bytes)
    : workspace_(std::move(workspace)), relative_(std::move(relative)), max_bytes_(max_bytes) {
  while (workspace_.size() > 1 && workspace_.back() == '/') workspace_.pop_back();
  shown_path_ = (workspace_ == "/" ? "" : workspace_) + "/" + relative_;
}

namespace {

Result<UniqueFd> OpenWorkspace(const std::string& workspace) {
  return confine::OpenRoot(workspace, [&](const confine::OsFailure& f) {
    return Failed("The workspace " + workspace + " cannot be opened (" + std::strerror(f.err) +
                  "); the memory file lives inside it.");
  });
}

// The message for a failed resolution of `shown` (which lies in `workspace`).
Error PathError(int err, std::string_view syscall, const std::string& shown,
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
  UniqueFd fd;
  if (int err = confine::TryOpenBeneath(root->get(), relative_, O_RDONLY | O_NOCTTY | O_NONBLOCK, 0,
                                        confine::Links::kFollowBeneath, fd)) {
    if (err == ENOENT) return std::optional<std::string>();
    return PathError(err, "open", shown_path_, workspace_);
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
  const std::size_t slash = relative_.rfind('/');
  const std::string rel_dir = slash == std::string::npos ? "" : relative_.substr(0, slash);
  const std::string base = relative_.substr(slash == std::string::npos ? 0 : slash + 1);
  const std::string shown_root = workspace_ == "/" ? "" : workspace_;
  auto shown = [&](const std::string& rel) { return rel.empty() ? shown_root : shown_root + "/" + rel; };
  auto dir = confine::MakeDirectories(root->get(), rel_dir, 0777, [&](const confine::OsFailure& f) {
    return PathError(f.err, f.syscall, shown(f.path), workspace_);
  });
  if (!dir) return dir.error();

  confine::Replacement how;
  how.temp_name = base + "." + crypto::Hex(crypto::RandomBytes(16)) + ".tmp";
  how.mode = 0666;
  const std::string shown_temp = shown(rel_dir) + "/" + how.temp_name;
  return confine::ReplaceFile(dir->get(), base, data, how, [&](const confine::OsFailure& f) {
    if (f.syscall == "open") return Failed(NodeErrorMessage(f.err, "open", shown_temp));
    if (f.syscall == "rename") return Failed(NodeErrorMessage(f.err, "rename", shown_temp, shown_path_));
    return Failed(NodeErrorMessage(f.err, f.syscall));
  });
}

}  // namespace sbx::servers::localmemory
