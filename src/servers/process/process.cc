#include "servers/process/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "core/oom.h"

namespace sbx::servers::process {
namespace {

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Children not yet reaped, and the exits the agent's reaper collected for
// them. The reaper and every waitid on a child's pidfd hold `mu`, so each
// exit is taken exactly once; Spawn holds it from fork until the child is
// registered, so the reaper never meets an unregistered child of ours.
struct Registry {
  std::mutex mu;
  std::map<pid_t, std::optional<Exit>> children;
};

Registry& Children() {
  static Registry registry;
  return registry;
}

Exit FromWaitStatus(int status) {
  if (WIFSIGNALED(status)) return Exit{-1, WTERMSIG(status)};
  return Exit{WEXITSTATUS(status), 0};
}

int PidfdOpen(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

std::vector<char*> Pointers(std::vector<std::string>& items) {
  std::vector<char*> out;
  out.reserve(items.size() + 1);
  for (auto& s : items) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string PathOf(const std::vector<std::string>& env) {
  for (const auto& e : env)
    if (e.rfind("PATH=", 0) == 0) return e.substr(5);
  return kDefaultPath;
}

// Runs in the forked child: only async-signal-safe calls until execve.
// `inherit` (n descriptors, scratch room for n more in `moved`) become 3…;
// first every descriptor that must survive is moved above that range, so
// none is overwritten by another's dup2.
[[noreturn]] void BecomeChild(const char* path, int exec_fd, char* const* argv, char* const* envp, const char* cwd,
                              int in_fd, int out_fd, int err_fd, int report_fd, const int* inherit, int* moved,
                              std::size_t n) {
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &dfl, nullptr);
  ::setsid();
  PreferAsOomVictim();
  int error = 0;
  const int base = 3 + static_cast<int>(n);
  bool ok = ::chdir(cwd) == 0 && ::dup2(in_fd, 0) >= 0 && ::dup2(out_fd, 1) >= 0 && ::dup2(err_fd, 2) >= 0;
  if (ok && n > 0) {
    ok = (report_fd = ::fcntl(report_fd, F_DUPFD_CLOEXEC, base)) >= 0 &&
         (exec_fd < 0 || (exec_fd = ::fcntl(exec_fd, F_DUPFD_CLOEXEC, base)) >= 0);
    for (std::size_t i = 0; ok && i < n; ++i) ok = (moved[i] = ::fcntl(inherit[i], F_DUPFD_CLOEXEC, base)) >= 0;
    // dup2 leaves the new descriptor without close-on-exec.
    for (std::size_t i = 0; ok && i < n; ++i) ok = ::dup2(moved[i], 3 + static_cast<int>(i)) >= 0;
  }
  if (!ok) {
    error = errno;
  } else {
    // Close-on-exec rather than close: the report pipe must live until execve.
    ::syscall(SYS_close_range, base, ~0U, CLOSE_RANGE_CLOEXEC);
    if (exec_fd >= 0) ::syscall(SYS_execveat, exec_fd, "", argv, envp, AT_EMPTY_PATH);
    else ::execve(path, argv, envp);
    error = errno;
  }
  (void)!::write(report_fd, &error, sizeof error);
  ::_exit(127);
}

}  // namespace

std::vector<std::string> DefaultEnvironment() {
  return {std::string("PATH=") + kDefaultPath, "HOME=/root", "LANG=C.UTF-8", "TMPDIR=/tmp"};
}

std::optional<std::string> FindExecutable(const std::string& name, const std::string& path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::string>(name) : std::nullopt;
  std::size_t start = 0;
  for (;;) {
    std::size_t end = path.find(':', start);
    std::string dir = path.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (end == std::string::npos) return std::nullopt;
    start = end + 1;
  }
}

Result<std::unique_ptr<Child>> Spawn(const Spec& spec) {
  if (spec.argv.empty()) return MakeError(ErrorCode::kInvalidArgument, "no command to run");
  auto path = spec.executable_fd >= 0      ? std::optional<std::string>("")
               : spec.executable.empty() ? FindExecutable(spec.argv[0], PathOf(spec.env))
                                         : std::optional<std::string>(spec.executable);
  if (!path) return MakeError(ErrorCode::kNotFound, spec.argv[0] + ": command not found");
  std::vector<std::string> argv = spec.argv, env = spec.env;
  auto argv_ptrs = Pointers(argv);
  auto env_ptrs = Pointers(env);
  std::vector<int> moved(spec.inherit_fds.size(), -1);  // the child's scratch, allocated before fork

  int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, report[2] = {-1, -1};
  auto close_all = [&] {
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], report[0], report[1]})
      if (fd >= 0) ::close(fd);
  };
  bool ok = ::pipe2(out_pipe, O_CLOEXEC) == 0 && ::pipe2(report, O_CLOEXEC) == 0 &&
            (spec.merge_stderr || ::pipe2(err_pipe, O_CLOEXEC) == 0);
  if (ok && spec.pipe_stdin) ok = ::pipe2(in_pipe, O_CLOEXEC) == 0;
  else if (ok) ok = (in_pipe[0] = ::open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0;
  if (!ok) {
    int saved = errno;
    close_all();
    return MakeError(ErrorCode::kInternal, std::string("cannot create pipes: ") + std::strerror(saved));
  }
  int child_err = spec.merge_stderr ? out_pipe[1] : err_pipe[1];

  auto child = std::unique_ptr<Child>(new Child());
  {
    Registry& r = Children();
    std::lock_guard lock(r.mu);
    pid_t pid = ::fork();
    if (pid == 0)
      BecomeChild(path->c_str(), spec.executable_fd, argv_ptrs.data(), env_ptrs.data(), spec.cwd.c_str(),
                  in_pipe[0], out_pipe[1], child_err, report[1], spec.inherit_fds.data(), moved.data(),
                  spec.inherit_fds.size());
    if (pid < 0) {
      int saved = errno;
      close_all();
      if (saved == EAGAIN)
        return MakeError(ErrorCode::kUnavailable,
                         "the sandbox cannot start another process (its process limit is used up)");
      return MakeError(ErrorCode::kInternal, std::string("fork: ") + std::strerror(saved));
    }
    child->pid_ = pid;
    child->pidfd_ = UniqueFd(PidfdOpen(pid));  // cannot fail short of fd exhaustion: pid is ours, unreaped
    r.children.emplace(pid, std::nullopt);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  if (err_pipe[1] >= 0) ::close(err_pipe[1]);
  ::close(report[1]);
  if (spec.pipe_stdin) child->stdin_ = UniqueFd(in_pipe[1]);
  child->stdout_ = UniqueFd(out_pipe[0]);
  if (err_pipe[0] >= 0) child->stderr_ = UniqueFd(err_pipe[0]);

  int error = 0;
  ssize_t n;
  while ((n = ::read(report[0], &error, sizeof error)) < 0 && errno == EINTR) {
  }
  ::close(report[0]);
  if (n == sizeof error) {
    child->Wait();
    return MakeError(error == ENOENT ? ErrorCode::kNotFound : ErrorCode::kInternal,
                     spec.argv[0] + ": " + std::strerror(error));
  }
  if (!child->pidfd_.valid()) return MakeError(ErrorCode::kInternal, "pidfd_open failed");
  return child;
}

Child::~Child() {
  if (pid_ <= 0) return;
  if (!Poll()) Signal(SIGKILL);
  Wait();
}

void Child::Signal(int sig) {
  if (pid_ <= 0 || exit_) return;
  ::kill(-pid_, sig);
  ::kill(pid_, sig);  // in case it left its group
}

std::optional<Exit> Child::Poll() {
  if (exit_ || pid_ <= 0) return exit_;
  Registry& r = Children();
  std::lock_guard lock(r.mu);
  auto it = r.children.find(pid_);
  if (it != r.children.end() && it->second) {
    exit_ = it->second;
  } else {
    siginfo_t info{};
    if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd_.get()), &info, WEXITED | WNOHANG) == 0 &&
        info.si_pid != 0) {
      if (info.si_code == CLD_EXITED) exit_ = Exit{info.si_status, 0};
      else exit_ = Exit{-1, info.si_status};
    }
  }
  if (exit_ && it != r.children.end()) r.children.erase(it);
  return exit_;
}

std::optional<Exit> Child::WaitFor(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto e = Poll()) return e;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    struct pollfd p{pidfd_.get(), POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
  }
}

Exit Child::Wait() {
  for (;;)
    if (auto e = WaitFor(std::chrono::hours(1))) return *e;
}

void ReapExited(const std::function<void(pid_t, int)>& other) {
  std::vector<std::pair<pid_t, int>> others;
  {
    Registry& r = Children();
    std::lock_guard lock(r.mu);
    for (;;) {
      int status = 0;
      pid_t pid = ::waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      auto it = r.children.find(pid);
      if (it != r.children.end()) it->second = FromWaitStatus(status);
      else others.emplace_back(pid, status);
    }
  }
  for (auto [pid, status] : others) other(pid, status);
}

}  // namespace sbx::servers::process
