// The desktop-commander MCP server: a native implementation of
// @wonderwhy-er/desktop-commander 0.2.7 (server "desktop-commander"), tool
// for tool: the same 21 tools, schemas and result texts, with every path
// confined in the kernel to the workspace (and to the allowedDirectories of
// its configuration inside it), and every command run inside the sandbox.
//
// One server definition lives per sandbox-agent, so per sandbox: its
// configuration (get_config / set_config_value), usage counters and the
// table of processes started by start_process belong to it and end with it.
//
// Thread-safety: the returned definition may be shared; its tools may run
// concurrently (the configuration and the session table lock themselves).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::desktop_commander {

struct Options {
  // The directory every path must stay in, checked in the kernel (inside
  // the jail: /data). Relative paths resolve against it, and processes
  // start in it.
  std::string workspace = "/data";
  // What "~" expands to and where the fuzzy-search log of edit_block goes
  // (upstream: the user's home; inside the jail: its private /root).
  std::string home = "/root";

  // Defaults of the configuration get_config shows (upstream's defaults,
  // except allowedDirectories: the workspace, and telemetry: off).
  std::vector<std::string> allowed_directories = {"/data"};
  std::vector<std::string> blocked_commands;  // empty: upstream's default list
  std::string default_shell = "/bin/sh";
  double file_read_line_limit = 1000;
  double file_write_line_limit = 50;

  // Bounds upstream does not have (see README.md).
  std::size_t max_sessions = 32;                 // processes started and still running
  std::size_t max_session_output = 8u << 20;     // bytes of output kept per process
  std::chrono::milliseconds max_wait{600'000};   // longest any call waits for a process
  // The ripgrep search_code runs (a name is looked up in PATH).
  std::string ripgrep = "rg";
};

// The blocked commands upstream configures by default.
const std::vector<std::string>& DefaultBlockedCommands();

// Options from a deployment's settings object, keys as in the JSON:
// workspace, home, allowedDirectories, blockedCommands, defaultShell,
// fileReadLineLimit, fileWriteLineLimit, maxSessions, maxSessionOutputBytes,
// maxWaitMs, ripgrep. Unknown keys and values of the wrong type or range
// are kInvalidArgument.
Result<Options> OptionsFromSettings(const Json& settings);

// Builds the server; touches no file and starts no process or thread.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::desktop_commander
