#include "daemon/paths.h"

#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/fs.h"
#include "jail/spec.h"

namespace sbx::daemon {
namespace {

constexpr long kOverlayfsMagic = 0x794c7630;

Error FlagError(const std::string& flag, const std::string& value, const std::string& why) {
  return MakeError(ErrorCode::kInvalidArgument, flag + " '" + value + "': " + why);
}

// The absolute, symlink-free form of an existing path.
Result<std::string> RealPath(const std::string& flag, const std::string& value) {
  char* real = ::realpath(value.c_str(), nullptr);
  if (real == nullptr) return FlagError(flag, value, std::strerror(errno));
  std::string out(real);
  std::free(real);
  return out;
}

Result<std::string> ResolveDataDir(const std::string& value) {
  const std::string flag = "--data-dir";
  if (value.empty()) return FlagError(flag, value, "empty; name a directory");
  if (auto s = fs::MakeDirs(value, 0700); !s) return FlagError(flag, value, "cannot create it: " + s.error().message);
  auto real = RealPath(flag, value);
  if (!real) return real.error();
  struct stat st {};
  if (::stat(real->c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return FlagError(flag, value, "not a directory");
  // Every sandbox's overlay layers live below it and are passed to the
  // kernel as mount options.
  if (!jail::UsableInOverlayOptions(*real))
    return FlagError(flag, value,
                     "its path " + *real + " contains ',', ':' or '\\', which overlayfs cannot take in a layer path");
  struct statfs fs_info {};
  if (::statfs(real->c_str(), &fs_info) == 0 && fs_info.f_type == kOverlayfsMagic)
    return FlagError(flag, value,
                     *real + " is on overlayfs, which cannot hold the upper layers of the sandboxes' overlays; "
                             "choose a directory on another filesystem");
  if (::access(real->c_str(), W_OK | X_OK) != 0)
    return FlagError(flag, value, "not writable: " + std::string(std::strerror(errno)));
  return real;
}

Result<std::string> ResolveAgentPath(const std::string& value) {
  const std::string flag = "--agent-path";
  std::string path = value;
  if (path.empty()) {
    // Beside the sandboxd binary, wherever it was started from.
    char self[4096];
    ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return MakeError(ErrorCode::kInternal, "cannot find the sandboxd binary to look for sandbox-agent beside it");
    std::string exe(self, static_cast<std::size_t>(n));
    path = exe.substr(0, exe.rfind('/')) + "/sandbox-agent";
  }
  auto real = RealPath(flag, path);
  if (!real) return FlagError(flag, path, "no sandbox-agent there: " + std::string(std::strerror(errno)));
  struct stat st {};
  if (::stat(real->c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(real->c_str(), X_OK) != 0)
    return FlagError(flag, path, "not an executable file");
  // The agent runs the PDF helper from beside itself (src/pdf/README.md).
  const std::string helper = real->substr(0, real->rfind('/')) + "/sandbox-pdf";
  if (::stat(helper.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(helper.c_str(), X_OK) != 0)
    return FlagError(flag, path, "no executable sandbox-pdf beside it (" + helper + ")");
  return real;
}

// An existing directory (`want_dir`) or regular file, absolute and symlink-free.
Result<std::string> ResolveExisting(const std::string& flag, const std::string& value, bool want_dir) {
  auto real = RealPath(flag, value);
  if (!real) return real.error();
  struct stat st {};
  bool ok = ::stat(real->c_str(), &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
  if (!ok) return FlagError(flag, value, want_dir ? "not a directory" : "not a regular file");
  return real;
}

// A file that may not exist yet (it is read later): absolute against the
// working directory at start.
Result<std::string> Absolute(const std::string& flag, const std::string& value) {
  if (value.empty() || value[0] == '/') return value;
  char cwd[4096];
  if (::getcwd(cwd, sizeof cwd) == nullptr) return FlagError(flag, value, std::strerror(errno));
  return std::string(cwd) + "/" + value;
}

}  // namespace

Status ResolvePaths(DaemonConfig& config) {
  DaemonConfig resolved = config;
  auto data_dir = ResolveDataDir(config.data_dir);
  if (!data_dir) return data_dir.error();
  resolved.data_dir = *data_dir;
  auto agent = ResolveAgentPath(config.agent_path);
  if (!agent) return agent.error();
  resolved.agent_path = *agent;
  if (!config.paper_store_dir.empty()) {
    auto store = ResolveExisting("--paper-store", config.paper_store_dir, true);
    if (!store) return store.error();
    resolved.paper_store_dir = *store;
  }
  if (!config.server_settings_file.empty()) {
    auto settings = ResolveExisting("--server-settings", config.server_settings_file, false);
    if (!settings) return settings.error();
    resolved.server_settings_file = *settings;
  }
  auto clock = Absolute("--test-clock-file", config.test_clock_file);
  if (!clock) return clock.error();
  resolved.test_clock_file = *clock;
  config = std::move(resolved);
  return Ok();
}

}  // namespace sbx::daemon
