// The terminal MCP server: a native implementation of cli-mcp-server 0.2.5
// (MladenSU/cli-mcp-server, server "cli-mcp-server"), tool for tool: the
// same two tools (run_command, show_security_rules), the same command
// policy (allowed commands and flags, shell operators, path arguments
// confined to the allowed directory, length and time limits), the same
// result blocks and the same error texts.
//
// Thread-safety: the returned definition is immutable; its tools may run
// concurrently (each call spawns its own process; the file system is the
// only shared state, as for upstream).
#pragma once

#include <memory>
#include <set>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::terminal {

// The deployment's policy: upstream's environment variables, one field each,
// with upstream's defaults.
struct Options {
  // ALLOWED_DIR: the working directory of every command and the directory
  // path arguments must stay in. Absolute and normalized.
  std::string allowed_dir = "/data";
  // ALLOWED_COMMANDS: "all" (any letter case) or a comma-separated list,
  // kept as upstream splits it (no trimming, empty entries allowed).
  bool allow_all_commands = false;
  std::set<std::string> allowed_commands = {"ls", "cat", "pwd"};
  // ALLOWED_FLAGS: same form; a flag is an argument starting with '-'.
  bool allow_all_flags = false;
  std::set<std::string> allowed_flags = {"-l", "-a", "--help"};
  // MAX_COMMAND_LENGTH, in characters (Unicode code points, as Python's len).
  long long max_command_length = 1024;
  // COMMAND_TIMEOUT, in seconds.
  long long command_timeout = 30;
  // ALLOW_SHELL_OPERATORS: whether && || | > >> < << ; are accepted (the
  // line then runs under /bin/sh -c).
  bool allow_shell_operators = false;
};

// Parses the server's settings object:
//   {"allowed_dir": "/data", "allowed_commands": "ls,cat,pwd" | "all",
//    "allowed_flags": "-l,-a,--help" | "all", "max_command_length": 1024,
//    "command_timeout": 30, "allow_shell_operators": false}
// Every key is optional. Unknown keys and bad values are kInvalidArgument.
Result<Options> OptionsFromSettings(const Json& settings);

// Builds the server. No side effects: touches no file.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::terminal
