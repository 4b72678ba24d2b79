#include "servers/arxiv/os_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "confine/beneath.h"

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

confine::Wording PyWording(std::string display) {
  return [display = std::move(display)](const confine::OsFailure& f) { return OsError(f.err, display); };
}

Result<UniqueFd> OpenRoot(const std::string& path) { return confine::OpenRoot(path, PyWording(path)); }

Result<UniqueFd> OpenBeneath(int root, const std::string& rel, int flags, const std::string& display, mode_t mode) {
  return confine::OpenBeneath(root, rel, flags, PyWording(display), mode);
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
