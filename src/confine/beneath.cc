#include "confine/beneath.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

namespace sbx::confine {
namespace {

// EAGAIN repeats only while renames or mounts keep racing the lookup; past
// this many the failure is reported rather than spun on.
constexpr int kMaxAgain = 64;

}  // namespace

Result<UniqueFd> OpenRoot(const std::string& path, const Wording& wording) {
  if (path.find('\0') != std::string::npos) return wording({EINVAL, "open", path, {}});
  UniqueFd fd(::open(path.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) return wording({errno, "open", path, {}});
  return fd;
}

int TryOpenBeneath(int dirfd, std::string_view rel, int flags, mode_t mode, Links links,
                   UniqueFd& out) {
  const std::string path = rel.empty() ? std::string(".") : std::string(rel);
  if (path.find('\0') != std::string::npos) return EINVAL;
  struct open_how how {};
  how.flags = static_cast<std::uint64_t>(flags | O_CLOEXEC);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  if (links == Links::kNone) how.resolve |= RESOLVE_NO_SYMLINKS;
  for (int again = 0;;) {
    long fd = ::syscall(SYS_openat2, dirfd, path.c_str(), &how, sizeof how);
    if (fd >= 0) {
      out.Reset(static_cast<int>(fd));
      return 0;
    }
    if (errno == EINTR || (errno == EAGAIN && ++again < kMaxAgain)) continue;
    return errno;
  }
}

Result<UniqueFd> OpenBeneath(int dirfd, std::string_view rel, int flags, const Wording& wording,
                             mode_t mode, Links links) {
  UniqueFd fd;
  if (int err = TryOpenBeneath(dirfd, rel, flags, mode, links, fd))
    return wording({err, "open", std::string(rel), {}});
  return fd;
}

}  // namespace sbx::confine
