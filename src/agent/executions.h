// Executions run by the agent: an ordered list of steps (say, install the
// requirements, then run main.py), each a process started with the
// execution's working directory, environment and log. A step that fails ends
// the execution; the status is the phase of the step running now, then
// "completed" or "failed".
//
// Not thread-safe: the agent is single-threaded.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/protocol.h"
#include "core/json.h"
#include "core/result.h"

namespace sbx::agent {

struct Step {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::string phase;              // the status reported while it runs
};

struct ExecutionSpec {
  std::string name;
  std::string cwd;
  std::vector<std::string> env;   // NAME=value
  std::vector<Step> steps;
};

class Executions {
 public:
  // Starts the first step. kConflict if `name` is still active.
  sbx::Status Start(ExecutionSpec spec, OwnedFd log);
  // {"status", "exit_code"} of an execution; kNotFound if unknown.
  Result<Json> Describe(const std::string& name) const;
  // SIGKILLs the running step's process group; the execution fails.
  sbx::Status Kill(const std::string& name);
  // Every running execution ends as failed (its processes are being killed).
  void MarkAllKilled();
  // A child exited: advance or finish the execution it belonged to.
  // Returns false if the pid was not a step (an orphan the agent reaped).
  bool OnExit(pid_t pid, int wait_status);
  int running() const;

 private:
  struct Execution {
    ExecutionSpec spec;
    OwnedFd log;
    std::size_t step = 0;
    pid_t pid = -1;
    std::string status;
    std::optional<int> exit_code;
    bool killed = false;
  };
  sbx::Status StartStep(Execution& e);
  std::map<std::string, Execution> executions_;
};

}  // namespace sbx::agent
