#include "daemon/server_settings.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace sbx::daemon {
namespace {

constexpr std::size_t kMaxSettingsBytes = 1 << 20;

// Runs the agent's checker; its stderr (the reason) comes back through a pipe.
Status CheckWithAgent(const std::string& path, const std::string& agent_path) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return MakeError(ErrorCode::kInternal, "pipe: " + std::string(std::strerror(errno)));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::string flag = "--check-server-settings";
  char* argv[] = {const_cast<char*>(agent_path.c_str()), flag.data(), const_cast<char*>(path.c_str()), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, agent_path.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  std::string message;
  char buf[4096];
  for (ssize_t n; rc == 0 && (n = ::read(pipe_fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (message.size() < 8192) message.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  if (rc != 0) return MakeError(ErrorCode::kInternal, "cannot run " + agent_path + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return Ok();
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  if (message.empty()) message = "the sandbox-agent's check failed";
  return MakeError(ErrorCode::kInvalidArgument, "--server-settings " + path + ": " + message);
}

}  // namespace

Result<Json> LoadServerSettings(const std::string& path, const std::string& agent_path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return MakeError(ErrorCode::kInvalidArgument, "--server-settings " + path + ": cannot open: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > kMaxSettingsBytes)
    return MakeError(ErrorCode::kInvalidArgument, "--server-settings " + path + ": larger than 1 MiB");
  Json settings = Json::parse(text.str(), nullptr, false);
  if (settings.is_discarded() || !settings.is_object())
    return MakeError(ErrorCode::kInvalidArgument, "--server-settings " + path + ": not a JSON object");
  if (auto s = CheckWithAgent(path, agent_path); !s) return s.error();
  return settings;
}

}  // namespace sbx::daemon
