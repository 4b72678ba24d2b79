// The processes start_process started, as upstream's TerminalManager keeps
// them: a table of running sessions (output since the last read, whether a
// prompt or timeout left them "blocked") and of the last 100 that ended
// (exit code, runtime, final output), one table per server instance, so one
// per sandbox.
//
// A single pump thread, started with the first process, reads every
// session's pipes and exit descriptor, feeds stdin, and delivers each chunk
// of output and each exit to the listeners the waiting tool calls
// registered, under the table's lock, in the order they happened. The tool
// calls (process_tools.cc) run upstream's timers against that stream.
//
// Bounded: at most max_sessions running sessions, max_session_output bytes
// kept per session (the oldest dropped first), 100 ended sessions, 8 MiB of
// unsent input each. The destructor stops the pump and kills every session
// still running (its whole process group); inside a jail anything left dies
// with the sandbox's pid namespace anyway.
//
// Thread-safety: every member except Acquire and the destructor requires
// the lock returned by Acquire.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "core/unique_fd.h"
#include "servers/desktop_commander/desktop_commander.h"
#include "servers/process/process.h"

namespace sbx::servers::desktop_commander {

struct Session;

// Told of a session's output and end, with the table locked.
class SessionListener {
 public:
  virtual ~SessionListener() = default;
  virtual void OnChunk(Session& session, const std::string& text, bool from_stdout) = 0;
  virtual void OnExit(Session& session) = 0;
};

struct Session {
  pid_t pid = 0;
  std::unique_ptr<process::Child> child;
  std::int64_t start_ms = 0;
  std::string output;       // everything so far (the newest max_session_output bytes)
  std::string last_output;  // not read yet
  bool blocked = false;     // upstream's isBlocked
  // Once ended:
  bool ended = false;
  std::optional<int> exit_code;  // none when a signal ended it (upstream: null)
  std::int64_t end_ms = 0;
  std::string final_output;      // what upstream records at the end
  // Plumbing:
  std::vector<SessionListener*> listeners;
  std::string pending_input;
  bool stdout_open = true, stderr_open = true;
  std::int64_t kill_at_ms = 0;  // force_terminate's SIGKILL, 0: none
};

class SessionTable {
 public:
  using Lock = std::unique_lock<std::mutex>;
  using Clock = std::chrono::steady_clock;

  explicit SessionTable(const Options& options);
  ~SessionTable();
  SessionTable(const SessionTable&) = delete;
  SessionTable& operator=(const SessionTable&) = delete;

  Lock Acquire() { return Lock(mu_); }

  // Starts argv (the shell, "-c", the command) in the workspace with
  // stdin, stdout and stderr piped. kUnavailable when max_sessions run.
  Result<Session*> Start(Lock& lock, std::vector<std::string> argv);

  // The running session with this pid, or null.
  Session* Active(double pid);
  // upstream's getNewOutput: a running session's unread output (taken), an
  // ended one's completion report, or nullopt for an unknown pid.
  std::optional<std::string> NewOutput(double pid);
  // upstream's sendInputToProcess; false when no such session runs or its
  // input is closed or full.
  bool SendInput(double pid, const std::string& input);
  // upstream's forceTerminate: SIGINT to the process now, SIGKILL (to its
  // process group) after a second if it still runs. False for an unknown
  // pid.
  bool Terminate(double pid);
  // Running sessions, oldest first.
  std::vector<const Session*> Running() const;

  void AddListener(Session& s, SessionListener* l) { s.listeners.push_back(l); }
  void RemoveListener(double pid, SessionListener* l);

  // Waits (unlocking meanwhile) until a chunk or exit was delivered or
  // `deadline` passed.
  void WaitUntil(Lock& lock, Clock::time_point deadline) { cv_.wait_until(lock, deadline); }

 private:
  void Pump();
  void Wake();
  void ReadFrom(Session& s, bool from_stdout, bool drain);
  void Finish(std::unique_ptr<Session> s);
  Session* Lookup(double pid, bool ended) const;

  const Options options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<Session>> running_;
  std::vector<std::unique_ptr<Session>> ended_;  // oldest first, at most 100
  UniqueFd wake_;                                // eventfd
  std::thread pump_;
  bool stopping_ = false;
};

}  // namespace sbx::servers::desktop_commander
