#include "jail/overlay.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace sbx::jail {
namespace {

Error SysError(const std::string& what) {
  return MakeError(ErrorCode::kInternal, "jail: " + what + ": " + std::strerror(errno));
}

struct SwapPlan {
  int mntns_fd;
  int mount_fd;
};

// Exit codes tell the parent which step failed; errno travels in the low bits.
__attribute__((no_sanitize("address", "undefined"))) int SwapMain(void* arg) {
  const SwapPlan* p = static_cast<const SwapPlan*>(arg);
  if (::setns(p->mntns_fd, CLONE_NEWNS) != 0) ::_exit(1);
  // Detach the old tree (processes holding files in it keep them), then
  // attach the new one. Stacking instead would pile up one overlay per reset.
  if (::umount2("/data", MNT_DETACH) != 0 && errno != EINVAL) ::_exit(3);
  if (::syscall(SYS_move_mount, p->mount_fd, "", AT_FDCWD, "/data", MOVE_MOUNT_F_EMPTY_PATH) != 0)
    ::_exit(2);
  ::_exit(0);
}

// The same options as OverlayOptions (spec.cc says why).
Result<int> BuildOverlay(const Layers& layers) {
  int fs = static_cast<int>(::syscall(SYS_fsopen, "overlay", FSOPEN_CLOEXEC));
  if (fs < 0) return SysError("fsopen overlay");
  auto set = [&](const char* key, const std::string& value) {
    return ::syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value.c_str(), 0) == 0;
  };
  bool ok = set("lowerdir", layers.lower) && set("upperdir", layers.upper) && set("workdir", layers.work) &&
            set("index", "off") && set("redirect_dir", "on") && set("metacopy", "off") &&
            set("xino", "off") && ::syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) == 0;
  if (!ok) {
    Error e = SysError("configure overlay");
    ::close(fs);
    return e;
  }
  int mnt = static_cast<int>(::syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV));
  Error e = SysError("fsmount overlay");
  ::close(fs);
  if (mnt < 0) return e;
  return mnt;
}

}  // namespace

Status RemountData(const JailProcess& jail, const Layers& layers) {
  if (auto opts = OverlayOptions(layers); !opts) return opts.error();
  auto mnt = BuildOverlay(layers);
  if (!mnt) return mnt.error();
  SwapPlan plan{jail.mntns_fd(), *mnt};
  constexpr std::size_t kStack = 64 * 1024;
  std::vector<char> stack(kStack);
  // No CLONE_FS: setns into a mount namespace needs an fs_struct of its own.
  pid_t pid = ::clone(SwapMain, stack.data() + kStack, CLONE_VM | CLONE_VFORK | SIGCHLD, &plan);
  if (pid < 0) {
    Error e = SysError("clone");
    ::close(*mnt);
    return e;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::close(*mnt);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return MakeError(ErrorCode::kInternal,
                     std::string("jail: swapping /data failed at ") +
                         (!WIFEXITED(status)                ? "an unexpected signal"
                          : WEXITSTATUS(status) == 1 ? "setns"
                          : WEXITSTATUS(status) == 3 ? "umount"
                                                     : "move_mount"));
  return Ok();
}

}  // namespace sbx::jail
