// The code-runner MCP server: a native implementation of
// mcp-server-code-runner 0.1.7 (server "Code Runner" 0.1.0). One tool,
// run-code, writes the snippet to a file named tmp.<extension> and runs the
// language's interpreter on it through /bin/sh, as upstream does with
// child_process.exec; the result text and error texts are upstream's.
//
// Unlike upstream, each call gets its own directory under temp_dir (so
// concurrent calls never overwrite each other's file) that is removed after
// the run, the run has a timeout, and stdin is empty instead of a pipe that
// never closes.
//
// Thread-safety: the returned definition is immutable; calls may run
// concurrently (each has its own directory and child process).
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::code_runner {

struct Options {
  // Where the code runs (upstream: the server's own working directory).
  std::string working_directory = "/data";
  // Each call's code file lives in a fresh directory below this one
  // (upstream: os.tmpdir()). Inside the jail /tmp is the sandbox's tmpfs.
  std::string temp_dir = "/tmp";
  // Upstream waits forever; here the process group is killed after this.
  std::chrono::milliseconds timeout{60'000};
  // Per stream, as Node's exec maxBuffer (1 MiB): more and the run is
  // killed with "Error: stdout maxBuffer length exceeded".
  std::size_t max_output_bytes = 1024 * 1024;
  // languageId → command line the code file's quoted path is appended to,
  // replacing the built-in one (e.g. {"python": "python3 -u"}).
  std::map<std::string, std::string, std::less<>> commands;
};

// Settings object of sandboxd --server-settings {"code-runner": {...}}:
// {"timeout_ms": int, "max_output_bytes": int, "temp_dir": "/abs/path",
//  "commands": {"<languageId>": "<command>"}}, every key optional.
// Unknown keys or bad values: kInvalidArgument naming the key.
Result<Options> OptionsFromSettings(const Json& settings);

// Builds the server; touches nothing until a tool runs.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::code_runner
