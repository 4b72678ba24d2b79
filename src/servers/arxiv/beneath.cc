#include "servers/arxiv/beneath.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sbx::servers::arxiv {
namespace {

Error OsError(int err, const std::string& display) {
  ErrorCode code = (err == ENOENT || err == ENOTDIR) ? ErrorCode::kNotFound : ErrorCode::kInternal;
  if (err == EXDEV || err == ELOOP) code = ErrorCode::kForbidden;
  return MakeError(code, PyOsError(err, display));
}

}  // namespace

std::string PyOsError(int err, const std::string& path) {
  return "[Errno " + std::to_string(err) + "] " + std::strerror(err) + ": '" + path + "'";
}

Result<UniqueFd> OpenRoot(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return OsError(errno, path);
  return fd;
}

Result<UniqueFd> OpenBeneath(int root, const std::string& rel, int flags, const std::string& display, mode_t mode) {
  struct open_how how {};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  const std::string path = rel.empty() ? "." : rel;
  for (;;) {
    long fd = ::syscall(SYS_openat2, root, path.c_str(), &how, sizeof how);
    if (fd >= 0) return UniqueFd(static_cast<int>(fd));
    if (errno != EINTR && errno != EAGAIN) return OsError(errno, display);
  }
}

Result<std::string> ReadBeneath(int root, const std::string& rel, std::uint64_t max_bytes,
                                const std::string& display) {
  // O_NONBLOCK: a FIFO planted under the name must not stall the call.
  auto fd = OpenBeneath(root, rel, O_RDONLY | O_NONBLOCK, display);
  if (!fd) return fd.error();
  struct stat st {};
  if (::fstat(fd->get(), &st) != 0) return OsError(errno, display);
  if (S_ISDIR(st.st_mode)) return MakeError(ErrorCode::kInvalidArgument, PyOsError(EISDIR, display));
  if (!S_ISREG(st.st_mode)) return MakeError(ErrorCode::kInvalidArgument, display + " is not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    return MakeError(ErrorCode::kTooLarge, display + " is larger than " + std::to_string(max_bytes) + " bytes");
  std::string data;
  data.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < data.size()) {
    ssize_t n = ::pread(fd->get(), data.data() + got, data.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return OsError(errno, display);
    if (n == 0) break;  // shrank meanwhile
    got += static_cast<std::size_t>(n);
  }
  data.resize(got);
  return data;
}

}  // namespace sbx::servers::arxiv
