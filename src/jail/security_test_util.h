// Shared by the jail security tests: running the jail steps in a forked
// child that reports "key value" lines through a pipe and leaves with _exit.
#pragma once

#include "jail/security.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

extern char** environ;


namespace sbx::jail::testing {

// ---- running a child ----

inline void Say(int out, const std::string& key, const std::string& value) {
  std::string line = key + " " + value + "\n";
  (void)!::write(out, line.data(), line.size());
}

inline std::string ErrnoName(int err) {
  const char* name = ::strerrorname_np(err);
  return name ? name : "errno " + std::to_string(err);
}

inline std::string Outcome(long rc) { return rc < 0 ? ErrnoName(errno) : "ok"; }

// What follows `from` in `line`, without leading blanks.
inline std::string AfterBlanks(const std::string& line, size_t from) {
  size_t start = from < line.size() ? line.find_first_not_of(" \t", from) : std::string::npos;
  return start == std::string::npos ? "" : line.substr(start);
}

struct ChildRun {
  int status = 0;
  std::map<std::string, std::string> said;
  std::string Get(const std::string& key) const {
    auto it = said.find(key);
    return it == said.end() ? "<not said>" : it->second;
  }
  bool ExitedZero() const { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }
  std::string How() const {
    if (WIFSIGNALED(status)) return std::string("killed by SIG") + ::sigabbrev_np(WTERMSIG(status));
    return "exit " + std::to_string(WEXITSTATUS(status));
  }
};

// Runs `body` in a forked child; `body` gets the write end of the pipe.
inline ChildRun RunChild(const std::function<void(int)>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    rlimit no_core{0, 0};  // a probe killed by seccomp must not leave a core file
    ::setrlimit(RLIMIT_CORE, &no_core);
    body(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    text.append(buf, n);
  }
  ::close(fds[0]);
  ChildRun run;
  ::waitpid(pid, &run.status, 0);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    auto cut = line.find_first_of(" \t");
    std::string key = line.substr(0, cut);
    run.said[key] = AfterBlanks(line, cut);
  }
  return run;
}

// In the child: report a failed step and leave.
inline void Require(int out, const Status& s, const char* step) {
  if (s) return;
  Say(out, "failed", std::string(step) + ": " + s.error().message);
  ::_exit(1);
}

// In the child: replaces it with a shell command whose output goes to `out`.
[[noreturn]] inline void ExecShell(int out, const char* command) {
  ::dup2(out, STDOUT_FILENO);
  ::execl("/bin/sh", "sh", "-c", command, static_cast<char*>(nullptr));
  ::_exit(127);
}

// In the child: reports the kernel's view of the credentials.
inline void SayStatus(int out) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Cap", 0) == 0 || line.rfind("NoNewPrivs", 0) == 0 ||
        line.rfind("Seccomp:", 0) == 0 || line.rfind("Uid:", 0) == 0)
      (void)!::write(out, (line + "\n").data(), line.size() + 1);
  }
}

inline constexpr const char* kCapSets[] = {"CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:"};
inline constexpr char kNoCaps[] = "0000000000000000";


}  // namespace sbx::jail::testing
