// The code-executor MCP server: a native implementation of
// bazinga012/mcp_code_executor as geobio publishes it
// (@geobio/code_execution_server, server "code-executor" 0.3.0), tool for
// tool: the same 9 tools and schemas, and results whose text is the same
// JSON string (same keys, same order, no indentation) in a text block that
// carries upstream's non-standard "isError" field.
//
// Python runs in the sandbox through servers/process, as upstream runs it
// through Node's exec: `/bin/bash -c` sourcing the environment's activate
// script, then `python3 -u <file>`, cwd the storage directory. Every file
// the tools themselves read or write is reached through descriptors inside
// the workspace (servers/filesystem's PathPolicy), never by path string.
//
// Thread-safety: the returned definition is immutable; its tools may run
// concurrently. The environment configuration (configure_environment) is the
// one piece of shared state; it lives behind a mutex, per server instance
// (one per sandbox), as upstream keeps it per process.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "core/json.h"
#include "core/result.h"
#include "mcp/server.h"

namespace sbx::servers::code_executor {

// Upstream's ENV_TYPE / configure_environment "type" and the paths that go
// with it. Absent members are left out of the JSON (JSON.stringify drops
// undefined), in upstream's key order.
struct EnvironmentConfig {
  std::string type;  // "conda", "venv" or "venv-uv"
  std::optional<std::string> conda_name, venv_path, uv_venv_path;

  Json ToJson() const;
  bool operator==(const EnvironmentConfig&) const = default;
};

struct Options {
  // The tree the tools may touch: /data inside the jail, a temporary
  // directory in unit tests.
  std::string workspace = "/data";
  // Upstream's CODE_STORAGE_DIR: where generated files go and the working
  // directory of every command. Must lie inside the workspace. Upstream has
  // no default (it refuses to start without one); this is the directory
  // MCP-Atlas, the benchmark that runs this server, gives it.
  std::string storage_dir = "/data/repos/mcp_code_executor_workspace";
  // The environment at start, MCP-Atlas's again (upstream's own default,
  // conda, needs a conda the sandbox does not have).
  EnvironmentConfig environment{"venv-uv", std::nullopt, std::nullopt,
                                "/data/repos/mcp_code_executor_workspace/.venv"};
  // A venv / venv-uv environment whose directory is inside the workspace and
  // does not exist yet (or is empty) is created on first use with
  // `<python> -m venv --system-site-packages --without-pip` (a few tens of
  // milliseconds; the system's packages, pip included, stay importable).
  // Off: a missing environment fails the way it fails upstream.
  bool create_missing_venv = true;
  std::string python = "/usr/bin/python3";
  std::string shell = "/bin/bash";
  // Upstream runs code without a time limit. Here a run is killed after
  // this long; the default stays under the 60 s request timeout of the
  // official SDK clients, so the model reads our answer, not the client's.
  std::chrono::milliseconds timeout{55'000};
  // install_dependencies runs longer (downloads, builds).
  std::chrono::milliseconds install_timeout{300'000};
  // pip's own network timeout (seconds) and retries, so that a sandbox
  // without a reachable package index fails in seconds, not minutes.
  int pip_timeout_seconds = 10;
  int pip_retries = 1;
  // The deployment's package source for venv installs (pip's and uv's
  // --index-url, --find-links and --no-index): a mirror reachable when the
  // deployment gives sandboxes egress, or a wheelhouse inside the jail
  // (for example under /data or a read-only bind). Unset: pip's defaults.
  std::optional<std::string> pip_index_url;
  std::optional<std::string> pip_find_links;
  bool pip_no_index = false;
  // Node's exec maxBuffer (1 MiB by default): a command whose stdout or
  // stderr passes it is killed and the call fails with Node's message.
  std::size_t max_output_bytes = 1u << 20;
};

// Settings keys (all optional): storage_dir, env_type, conda_name,
// venv_path, uv_venv_path, create_missing_venv, python, timeout_seconds,
// install_timeout_seconds, pip_timeout_seconds, pip_retries,
// pip_index_url, pip_find_links, pip_no_index, max_output_bytes. Unknown keys and bad values: kInvalidArgument.
Result<Options> OptionsFromSettings(const Json& settings);

// No side effects: nothing is created before a tool needs it.
std::shared_ptr<const mcp::ServerDefinition> MakeServer(const Options& options);

}  // namespace sbx::servers::code_executor
