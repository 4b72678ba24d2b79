#include "daemon/server_settings.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ;

namespace sbx::daemon {
namespace {

constexpr std::size_t kMaxSettingsBytes = 1 << 20;

struct AgentOutput {
  bool ok = false;     // exited 0
  std::string out;     // its stdout (bounded)
  std::string err;     // its stderr (bounded): the reason when !ok
};

// Reads `fd` to its end, keeping at most `limit` bytes.
std::string Drain(int fd, std::size_t limit) {
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (text.size() < limit) text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

// Runs `sandbox-agent ARGS…` on the host (its tool modes, not a jail): the
// servers and their option parsers live in the agent, which sandboxd does
// not link. Stdout and stderr come back through two pipes, read one after
// the other: the tool modes write a few hundred bytes, far below a pipe's
// buffer, so neither side can block on the other.
Result<AgentOutput> RunAgentTool(const std::string& agent_path, std::vector<std::string> args) {
  int out_fds[2], err_fds[2];
  if (::pipe2(out_fds, O_CLOEXEC) != 0) return MakeError(ErrorCode::kInternal, "pipe: " + std::string(std::strerror(errno)));
  if (::pipe2(err_fds, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out_fds[0]);
    ::close(out_fds[1]);
    return MakeError(ErrorCode::kInternal, "pipe: " + std::string(std::strerror(e)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_fds[1], 2);
  std::vector<char*> argv{const_cast<char*>(agent_path.c_str())};
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, agent_path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_fds[1]);
  ::close(err_fds[1]);
  AgentOutput result;
  if (rc == 0) {
    result.out = Drain(out_fds[0], 65536);
    result.err = Drain(err_fds[0], 8192);
  }
  ::close(out_fds[0]);
  ::close(err_fds[0]);
  if (rc != 0) return MakeError(ErrorCode::kInternal, "cannot run " + agent_path + ": " + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  while (!result.err.empty() && (result.err.back() == '\n' || result.err.back() == ' ')) result.err.pop_back();
  return result;
}

Status CheckWithAgent(const std::string& path, const std::string& agent_path) {
  auto run = RunAgentTool(agent_path, {"--check-server-settings", path});
  if (!run) return run.error();
  if (run->ok) return Ok();
  std::string message = run->err.empty() ? "the sandbox-agent's check failed" : run->err;
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

namespace sbx::daemon {

Result<std::vector<std::string>> ListAgentServers(const std::string& agent_path) {
  auto run = RunAgentTool(agent_path, {"--list-servers"});
  if (!run) return run.error();
  if (!run->ok)
    return MakeError(ErrorCode::kInvalidArgument,
                     "--agent-path " + agent_path + ": cannot list its servers: " +
                         (run->err.empty() ? "it exited with a failure" : run->err));
  std::vector<std::string> names;
  std::istringstream lines(run->out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

}  // namespace sbx::daemon
