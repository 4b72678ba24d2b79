// The commands upstream hands to Node's child_process.exec, and their
// outcome in exec's terms.
//
// Upstream builds one shell string — activate the environment, then run
// python3 / pip / conda — and runs it with /bin/bash. Here the same script
// runs under the same shell, but whatever came from the model (file paths,
// environment names and paths, package names) is passed as positional
// parameters, never spliced into the script; `shown` is the string upstream
// would have built, which Node prints in its failure message.
//
// Thread-safety: pure builders; RunCommand may run concurrently.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "servers/code_executor/code_executor.h"

namespace sbx::servers::code_executor {

struct ShellCommand {
  std::string shown;                   // upstream's command string
  std::string script;                  // bash -c text; model data only as "$1", "$2", …
  std::vector<std::string> args;       // the positional parameters
  std::vector<std::string> extra_env;  // NAME=value added for this command
};

// getPlatformSpecificCommand(`python3 -u "<file>"`) for the environment
// (Linux branch). Throws std::runtime_error with upstream's message when the
// environment lacks the name/path its type needs.
ShellCommand PythonFileCommand(const EnvironmentConfig& env, const std::string& file);

// installDependencies' command: conda install / pip install / uv pip install
// in the activated environment. venv-uv uses uv when the sandbox has it and
// the environment's pip otherwise (the same install into the same venv).
// `words` are the package arguments, already split as the shell would.
ShellCommand InstallCommand(const EnvironmentConfig& env, const std::vector<std::string>& words,
                            const Options& options, bool have_uv);

// The activate script of a venv / venv-uv environment as upstream names it
// (path.join(<path>, 'bin', 'activate')), empty for conda.
std::string ActivateScript(const EnvironmentConfig& env);

// What Node's exec reports.
struct ExecOutcome {
  bool ok = false;       // exit status 0: exec resolved with {stdout, stderr}
  std::string out, err;  // decoded as Node decodes them (invalid UTF-8 → U+FFFD)
  std::string error;     // when !ok: the Error's message
};

struct RunLimits {
  std::chrono::milliseconds timeout{55'000};
  std::size_t max_output = 1u << 20;
  std::function<bool()> cancelled;
};

// Runs `command` under `options.shell` in the storage directory with the
// environment upstream's children get. Failures read as Node's: "Command
// failed: <shown>\n<stderr>" for a non-zero exit or a signal, "stdout
// maxBuffer length exceeded" when output passes the bound, "spawn <shell>
// ENOENT" when there is no shell; a run over the time limit fails like a
// killed command, with a sentence saying so after its stderr.
ExecOutcome RunCommand(const ShellCommand& command, const Options& options,
                       const RunLimits& limits);

// Whether this sandbox has a route off the host (a default route on an
// interface other than lo). Without one no package index is reachable.
bool HasNetworkRoute();

}  // namespace sbx::servers::code_executor
