#include "servers/pdf_tools/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "confine/beneath.h"
#include "confine/create.h"
#include "confine/realpath_by_name.h"
#include "python_text/repr.h"

namespace sbx::servers::pdf_tools {
namespace {

// `real` relative to the workspace ("." for the workspace itself).
std::string Relative(const std::string& workspace, const std::string& real) {
  if (real.size() <= workspace.size() + 1) return ".";
  return real.substr(workspace.size() + 1);
}

// A Wording that keeps the errno of the failure for the caller to word.
confine::Wording KeepErrno(int& out) {
  return [&out](const confine::OsFailure& f) {
    out = f.err;
    return confine::PlainWording(f);
  };
}

}  // namespace

Resolved ResolveInWorkspace(const std::string& workspace, std::string_view path) {
  Resolved out;
  if (path.find('\0') != std::string_view::npos) {
    out.invalid = "embedded null byte";
    return out;
  }
  std::string absolute = !path.empty() && path[0] == '/' ? std::string(path) : workspace + "/" + std::string(path);
  auto real = confine::RealpathByName(absolute);
  if (!real) {
    out.invalid = "embedded null byte";
    return out;
  }
  auto root = confine::RealpathByName(workspace);
  if (root && confine::ResolvedBeneath(*real, *root)) {
    out.real = workspace + real->substr(root->size());
    out.inside = true;
  }
  return out;
}

Input OpenInput(const std::string& workspace, const std::string& real, std::uint64_t max_bytes) {
  Input in;
  auto root = confine::OpenRoot(workspace);
  if (!root) {
    in.error = EACCES;
    return in;
  }
  UniqueFd fd;
  // O_NONBLOCK: a FIFO must not hang the call (it is refused below).
  int err = confine::TryOpenBeneath(root->get(), Relative(workspace, real), O_RDONLY | O_NOCTTY | O_NONBLOCK, 0,
                                    confine::Links::kFollowBeneath, fd);
  if (err != 0) {
    in.error = err;
    return in;
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    in.error = errno;
  } else if (S_ISDIR(st.st_mode)) {
    in.error = EISDIR;
  } else if (!S_ISREG(st.st_mode)) {
    in.error = ENODEV;
  } else if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    in.error = EFBIG;
  } else {
    in.fd = std::move(fd);
  }
  return in;
}

bool Exists(const std::string& workspace, const std::string& real) {
  auto root = confine::OpenRoot(workspace);
  if (!root) return false;
  UniqueFd fd;
  return confine::TryOpenBeneath(root->get(), Relative(workspace, real), O_PATH, 0, confine::Links::kFollowBeneath,
                                 fd) == 0;
}

int WriteOutput(const std::string& workspace, const std::string& real, std::string_view data) {
  auto root = confine::OpenRoot(workspace);
  if (!root) return EACCES;
  const std::string rel = Relative(workspace, real);
  if (rel == ".") return EISDIR;
  const std::size_t slash = rel.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : rel.substr(0, slash);
  const std::string name = slash == std::string::npos ? rel : rel.substr(slash + 1);
  UniqueFd dirfd;
  if (int err = confine::TryOpenBeneath(root->get(), dir, O_PATH | O_DIRECTORY, 0, confine::Links::kFollowBeneath,
                                        dirfd);
      err != 0)
    return err;
  struct stat st {};
  if (::fstatat(dirfd.get(), name.c_str(), &st, 0) == 0 && S_ISDIR(st.st_mode)) return EISDIR;
  static std::atomic<unsigned> counter{0};
  confine::Replacement how;
  how.temp_name = "." + name + ".pdf-tools-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".tmp";
  int err = 0;
  if (auto s = confine::ReplaceFile(dirfd.get(), name, data, how, KeepErrno(err)); !s) return err != 0 ? err : EIO;
  return 0;
}

int MakeParents(const std::string& workspace, const std::string& real) {
  auto root = confine::OpenRoot(workspace);
  if (!root) return EACCES;
  const std::string rel = Relative(workspace, real);
  const std::size_t slash = rel.rfind('/');
  if (slash == std::string::npos) return 0;
  int err = 0;
  auto made = confine::MakeDirectories(root->get(), rel.substr(0, slash), 0777, KeepErrno(err));
  return made ? 0 : (err != 0 ? err : EIO);
}

std::string OsErrorText(int error, const std::string& filename) {
  return "[Errno " + std::to_string(error) + "] " + std::strerror(error) + ": " + py::Repr(std::string_view(filename));
}

}  // namespace sbx::servers::pdf_tools
