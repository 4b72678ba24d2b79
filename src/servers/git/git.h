// The git MCP server: a native implementation of mcp-server-git 2026.7.10
// (modelcontextprotocol/servers src/git, Python, on GitPython 3.1.54), tool
// for tool: the same 12 tools and schemas, the same result texts and error
// texts, produced by running Debian's git binary. Every repo_path is confined
// to the workspace root in the kernel (workspace.h), and git runs with
// options that keep repository content from running programs (README.md).
//
// Thread-safety: the returned definition is immutable; its tools may run
// concurrently (each call opens its own repository; git's own locks guard
// the repository, as for upstream).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::git {

struct Options {
  // Every repo_path must resolve to a directory below this one (upstream's
  // --repository); relative repo_paths are taken from here.
  std::string workspace_root = "/data";
  // Each git command is killed after this long.
  std::chrono::milliseconds timeout{60'000};
  // Output kept per stream of each git command; the rest is dropped and the
  // result says so.
  std::size_t max_output_bytes = 16u << 20;
  // The identity of commits when git's configuration has none (GitPython's
  // default: the login name and "<login>@<hostname>"); empty = that default.
  std::string author_name;
  std::string author_email;
  // HOME of git (where its global configuration lives).
  std::string home = "/root";
  // The git executable.
  std::string git_binary = "/usr/bin/git";
  // The upstream surface presented (variants.h): "" = today's mcp-server-git,
  // else "2025.7.1", "2025.1.14" or "klavis". Set by the registry from the
  // settings' "variant" key, not by OptionsFromSettings.
  std::string variant;
};

// Settings object keys: workspace_root, timeout_seconds, max_output_bytes,
// author_name, author_email, home, git_binary. Unknown keys or bad values →
// kInvalidArgument with a message naming the key.
Result<Options> OptionsFromSettings(const Json& settings);

// No side effects: touches no file until a tool runs.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::git
