#include "agent/executions.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/oom.h"

namespace sbx::agent {
namespace {

std::vector<char*> Pointers(std::vector<std::string>& items) {
  std::vector<char*> out;
  for (auto& s : items) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

sbx::Status Executions::StartStep(Execution& e) {
  Step& step = e.spec.steps[e.step];
  std::vector<std::string> argv = step.argv;
  std::vector<std::string> env = e.spec.env;
  auto argv_ptrs = Pointers(argv);
  auto env_ptrs = Pointers(env);
  int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  pid_t pid = ::fork();
  if (pid < 0) {
    int saved = errno;
    if (null_fd >= 0) ::close(null_fd);
    return MakeError(ErrorCode::kUnavailable, std::string("The sandbox cannot start another process (") +
                                                  std::strerror(saved) +
                                                  "); if its process limit is used up, reset the sandbox");
  }
  if (pid == 0) {
    // The agent blocks SIGCHLD for its signalfd; a step starts with a clean mask.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::setsid();  // its own process group: Kill reaches every descendant
    PreferAsOomVictim();
    if (::chdir(e.spec.cwd.c_str()) != 0) {
      dprintf(e.log.get(), "sandbox-agent: cannot enter %s: %s\n", e.spec.cwd.c_str(), std::strerror(errno));
      ::_exit(126);
    }
    if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(e.log.get(), 1) < 0 || ::dup2(e.log.get(), 2) < 0)
      ::_exit(126);
    ::syscall(SYS_close_range, 3, ~0U, 0);
    ::execvpe(argv_ptrs[0], argv_ptrs.data(), env_ptrs.data());
    dprintf(2, "sandbox-agent: cannot run %s: %s\n", argv_ptrs[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(null_fd);
  e.pid = pid;
  e.status = step.phase;
  return Ok();
}

sbx::Status Executions::Start(ExecutionSpec spec, OwnedFd log) {
  if (spec.steps.empty() || spec.name.empty())
    return MakeError(ErrorCode::kInvalidArgument, "an execution needs a name and at least one step");
  for (const auto& s : spec.steps)
    if (s.argv.empty()) return MakeError(ErrorCode::kInvalidArgument, "a step needs a command");
  auto it = executions_.find(spec.name);
  if (it != executions_.end() && it->second.pid > 0)
    return MakeError(ErrorCode::kConflict, "execution '" + spec.name + "' is still running");
  Execution e;
  e.spec = std::move(spec);
  e.log = std::move(log);
  if (auto s = StartStep(e); !s) return s;
  std::string name = e.spec.name;
  executions_.insert_or_assign(name, std::move(e));
  return Ok();
}

Result<Json> Executions::Describe(const std::string& name) const {
  auto it = executions_.find(name);
  if (it == executions_.end()) return MakeError(ErrorCode::kNotFound, "no execution named '" + name + "'");
  const Execution& e = it->second;
  return Json{{"status", e.status}, {"exit_code", e.exit_code ? Json(*e.exit_code) : Json(nullptr)}};
}

sbx::Status Executions::Kill(const std::string& name) {
  auto it = executions_.find(name);
  if (it == executions_.end()) return MakeError(ErrorCode::kNotFound, "no execution named '" + name + "'");
  if (it->second.pid > 0) {
    it->second.killed = true;
    ::kill(-it->second.pid, SIGKILL);
  }
  return Ok();
}

bool Executions::OnExit(pid_t pid, int wait_status) {
  for (auto& [name, e] : executions_) {
    if (e.pid != pid) continue;
    e.pid = -1;
    int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
    if (WIFSIGNALED(wait_status))
      dprintf(e.log.get(), "sandbox-agent: %s was killed by signal %d\n", e.spec.steps[e.step].argv[0].c_str(),
              WTERMSIG(wait_status));
    // Whatever the step left behind in its process group goes with it.
    ::kill(-pid, SIGKILL);
    if (code == 0 && !e.killed && e.step + 1 < e.spec.steps.size()) {
      ++e.step;
      if (StartStep(e)) return true;
      code = 126;
    }
    e.exit_code = code;
    e.status = code == 0 && !e.killed ? "completed" : "failed";
    e.log = OwnedFd();
    return true;
  }
  return false;
}

void Executions::MarkAllKilled() {
  for (auto& [name, e] : executions_)
    if (e.pid > 0) e.killed = true;
}

int Executions::running() const {
  int n = 0;
  for (const auto& [name, e] : executions_) n += e.pid > 0;
  return n;
}

}  // namespace sbx::agent
