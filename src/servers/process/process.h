// Child processes for the servers that run commands (git, terminal,
// desktop-commander, code-runner, code-executor). Every server starts its
// children through here, never with fork/popen/system of its own, because
// the agent is pid 1 of its jail and reaps every orphan with waitpid(-1):
// a child started elsewhere would have its exit status stolen. Children
// started here are registered, and the agent hands their statuses back
// (ReapExited).
//
// Each child leads its own session and process group, so Signal and the
// destructor reach whatever it started (a shell's pipeline, a REPL's
// subprocesses); a descendant that leaves the group still dies with the
// sandbox (pid namespace) and counts against its cgroup's pid limit.
//
// Thread-safety: Spawn, Run and ReapExited may be called from any thread.
// One Child is used by one thread at a time.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/unique_fd.h"

namespace sbx::servers::process {

struct Spec {
  // argv[0] is a path, or a name looked up in the PATH of `env` (the
  // default PATH when env has none). Not run through a shell.
  std::vector<std::string> argv;
  // When set, the file to execute instead of looking argv[0] up; argv[0]
  // stays what the program sees as its name (a server that reproduces its
  // upstream's own executable search passes the file it found).
  std::string executable;
  // When >= 0, an executable opened (O_PATH is enough) before the jail hid
  // its path: the child runs it with execveat(AT_EMPTY_PATH) and neither
  // `executable` nor PATH is consulted. The caller keeps the descriptor; the
  // child holds it only as its exec target (it is close-on-exec there).
  int executable_fd = -1;
  // Descriptors the child inherits as 3, 4, … in this order (the PDF
  // helper's inputs and output). Every other descriptor is closed at exec.
  std::vector<int> inherit_fds;
  std::vector<std::string> env;  // the whole environment, NAME=value
  std::string cwd = "/data";
  bool pipe_stdin = false;       // else stdin is /dev/null
  bool merge_stderr = false;     // stderr goes to the stdout pipe
};

// How a child ended: `code` if it exited, `signal` if a signal killed it.
struct Exit {
  int code = -1;
  int signal = 0;
};

class Child {
 public:
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  // Kills the process group if the child still runs, then reaps it.
  ~Child();

  pid_t pid() const { return pid_; }
  // The parent's ends of the pipes (-1 when not piped). Owned by the Child.
  int stdin_fd() const { return stdin_.get(); }
  int stdout_fd() const { return stdout_.get(); }
  int stderr_fd() const { return stderr_.get(); }
  void CloseStdin() { stdin_ = UniqueFd(); }
  // Readable once the child has exited (poll it with the pipes).
  int exit_fd() const { return pidfd_.get(); }

  // Sends `sig` to the child's process group.
  void Signal(int sig);
  // The exit, if the child has exited; never blocks.
  std::optional<Exit> Poll();
  // Waits up to `timeout` for the child to exit.
  std::optional<Exit> WaitFor(std::chrono::milliseconds timeout);
  Exit Wait();

 private:
  friend Result<std::unique_ptr<Child>> Spawn(const Spec& spec);
  Child() = default;
  pid_t pid_ = -1;
  UniqueFd pidfd_, stdin_, stdout_, stderr_;
  std::optional<Exit> exit_;
};

// Starts `spec`. Errors: kNotFound when argv[0] is not an executable found
// in PATH (message "<name>: command not found"), kUnavailable when the
// sandbox cannot take another process, kInternal for other failures of
// fork/exec (the message has the errno text).
Result<std::unique_ptr<Child>> Spawn(const Spec& spec);

struct RunOptions {
  std::string input;                             // written to stdin, then closed
  std::chrono::milliseconds timeout{30'000};     // then the group is SIGKILLed
  std::size_t max_output = 8u << 20;             // per stream; the rest is read and dropped
  // Kill the group as soon as a stream passes max_output, as Node's exec
  // does at its maxBuffer (else the child runs on and the excess is dropped).
  bool kill_on_overflow = false;
  std::function<bool()> cancelled;               // polled every 50 ms; true kills the group
};

struct RunResult {
  std::string out, err;  // err stays empty with merge_stderr
  Exit exit;
  bool timed_out = false;
  bool cancelled = false;
  bool truncated = false;  // some output beyond max_output was dropped
  // Which stream passed max_output first (nullptr if none): "stdout" or "stderr".
  const char* overflowed = nullptr;
};

// Runs `spec` to completion, collecting its output. When the child exits,
// its process group is killed too (a background job of a shell command does
// not keep the call open), and the pipes are drained until EOF or the
// deadline.
Result<RunResult> Run(const Spec& spec, const RunOptions& options);

// PATH, HOME, LANG and TMPDIR as the jail's processes expect them.
std::vector<std::string> DefaultEnvironment();

// Absolute path of the executable `name` would run as, searching `path`
// (a PATH value) when it has no '/'; nullopt when there is none.
std::optional<std::string> FindExecutable(const std::string& name, const std::string& path);

// For the process that reaps with waitpid(-1) (the agent, pid 1): reaps
// every exited child; statuses of Children go to them, the others (wait
// status as waitpid gives it) to `other`, called after the registry lock
// is released.
void ReapExited(const std::function<void(pid_t, int)>& other);

}  // namespace sbx::servers::process
