// What the MCP benchmarks share (`mcp-*` of mcp.cc, `servers-*` of
// servers.cc): seeding a sandbox through the REST API, opening MCP sessions
// on the gateway, and one measured run of tools/call on the epoll load
// generator of load.h, with who spent the CPU.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "http_client.h"
#include "load.h"

namespace bench {

// path?query of an absolute URL.
std::string TargetOf(const std::string& url);

// The headers of an MCP POST (protocol version 2025-06-18, both Accepts),
// with Mcp-Session-Id unless `session` is empty.
std::vector<std::string> McpHeaders(const std::string& session);
// The client's initialize request and its notifications/initialized.
nlohmann::json InitializeMessage(int id);
nlohmann::json InitializedNote();

// An HTTP answer the benchmark cannot go on with; `status` lets a caller
// tell "this server is not in the build" (404) from a real failure.
struct HttpRefused : std::runtime_error {
  HttpRefused(int s, const std::string& what) : std::runtime_error(what), status(s) {}
  int status;
};

// A sandbox acquired with `servers`, seeded from a tar.gz and initialized.
struct SeededSandbox {
  std::string id;
  std::map<std::string, std::string> urls;  // server name -> mcp_server_url
  double acquire_ms = 0, upload_ms = 0, initialize_ms = 0;
};
// POST /local-sandbox, upload-url, PUT, initialize. Throws HttpRefused with
// the status of the first step that did not answer as expected (an acquire
// refused for an unknown server name is a 422).
SeededSandbox SeedSandbox(Client& c, const std::vector<std::string>& servers, const std::string& seed);

// On-CPU time of every thread of `pid` (schedstat, ns); 0 if gone.
std::int64_t ProcessCpuNs(pid_t pid);

// The sandbox a session talks to: its id and the gateway target (path?query).
struct SandboxTarget {
  std::string id, target;
};

// One measured run: N connections, each with its own MCP session
// (initialize + notifications/initialized), spread over `sandboxes`; then
// `tool` with `arguments` ("healthz": GET /healthz, no sessions): warm-up,
// `calls` measured calls with every connection kept busy; DELETE of the
// sessions. Prints two lines (latency/throughput, CPU per call) and puts
// <key_prefix>_{n,min,p50,…}_ms, _cps, _client_us, _sandboxd_us, _agent_us,
// _busy_cores, _bad, and `cores_key`.
struct CallRun {
  std::string label;       // in the printed lines
  std::string key_prefix;  // of the results keys
  std::string cores_key = "mcp_cores";
  std::string tool;
  nlohmann::json arguments = nlohmann::json::object();
  long n = 1, calls = 5000, warmup_per_conn = 200;
  std::vector<SandboxTarget> sandboxes;
  pid_t sandboxd_pid = 0;     // 0: sandboxd's CPU is not measured
  std::string cgroup_parent;  // "": the agents' CPU is not measured
  // Checks the first reply of every session before the load; throws to stop.
  std::function<void(const Reply&)> check_first;
};
// Returns the number of replies the load generator found bad. Throws
// HttpRefused when a session's initialize is refused (404: the sandbox's
// agent has no such server), std::runtime_error on other failures.
long RunCalls(const Server& s, const Results& out, const CallRun& run);

// The text of every content block of a tools/call reply, joined; throws if
// the reply is not a successful tools/call result.
std::string ToolResultText(const Reply& r);

}  // namespace bench
