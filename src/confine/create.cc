#include "confine/create.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "confine/beneath.h"

namespace sbx::confine {

Result<UniqueFd> MakeDirectories(int root, const std::string& rel_dir, mode_t mode,
                                 const Wording& wording) {
  UniqueFd dir;
  if (int err = TryOpenBeneath(root, "", O_PATH | O_DIRECTORY, 0, Links::kFollowBeneath, dir))
    return wording({err, "open", "", {}});
  std::string prefix;
  std::size_t start = 0;
  while (start < rel_dir.size()) {
    std::size_t slash = rel_dir.find('/', start);
    if (slash == std::string::npos) slash = rel_dir.size();
    const std::string name = rel_dir.substr(start, slash - start);
    start = slash + 1;
    prefix = rel_dir.substr(0, slash);
    UniqueFd next;
    int err = TryOpenBeneath(root, prefix, O_PATH | O_DIRECTORY, 0, Links::kFollowBeneath, next);
    if (err == ENOENT) {
      // Made in the descriptor of the parent just opened, then reopened from
      // the root like any other step (it may have been swapped meanwhile).
      if (::mkdirat(dir.get(), name.c_str(), mode) != 0 && errno != EEXIST)
        return wording({errno, "mkdir", prefix, {}});
      err = TryOpenBeneath(root, prefix, O_PATH | O_DIRECTORY, 0, Links::kFollowBeneath, next);
    }
    if (err) return wording({err, "open", prefix, {}});
    dir = std::move(next);
  }
  return dir;
}

Status ReplaceFile(int dirfd, const std::string& name, std::string_view data, const Replacement& how,
                   const Wording& wording) {
  UniqueFd out(::openat(dirfd, how.temp_name.c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, how.mode));
  if (!out.valid()) return wording({errno, "open", how.temp_name, {}});
  auto abandon = [&](int err, std::string_view syscall) -> Status {
    out.Reset();
    ::unlinkat(dirfd, how.temp_name.c_str(), 0);
    return wording({err, syscall, how.temp_name, syscall == "rename" ? name : std::string()});
  };
  if (how.exact_mode && ::fchmod(out.get(), how.mode) != 0) return abandon(errno, "fchmod");
  for (std::size_t done = 0; done < data.size();) {
    ssize_t n = ::write(out.get(), data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return abandon(errno, "write");
    done += static_cast<std::size_t>(n);
  }
  if (::close(out.Release()) != 0) return abandon(errno, "close");
  if (::renameat(dirfd, how.temp_name.c_str(), dirfd, name.c_str()) != 0) return abandon(errno, "rename");
  return Ok();
}

}  // namespace sbx::confine
