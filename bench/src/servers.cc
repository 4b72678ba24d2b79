// The `servers` benchmark (see README.md): for every server of
// bench/mcp/servers.json, one representative tools/call measured through the
// gateway like the filesystem benchmark (mcp_client.h), each server in a
// sandbox of its own seeded with the servers-tree. Servers that are not in
// this build are reported as such instead of failing the run: sandboxd
// refuses their settings (servers-settings leaves them out), an acquire
// naming them, or (the usual case: the API knows every server name) the
// initialize of their MCP session with a 404.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "http_client.h"
#include "mcp_client.h"
#include "measure.h"

extern char** environ;

namespace bench {
namespace {

using Json = nlohmann::json;

// What servers-run records per server as servers_<name>_state.
constexpr double kMeasured = 1, kNotBuilt = 0, kFailed = -1;

// Every "{root}" in the strings of `v` replaced by `root`.
Json WithRoot(const Json& v, const std::string& root) {
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    for (std::size_t at; (at = s.find("{root}")) != std::string::npos;) s.replace(at, 6, root);
    return s;
  }
  Json out = v;
  if (v.is_object() || v.is_array())
    for (auto it = out.begin(); it != out.end(); ++it) *it = WithRoot(*it, root);
  return out;
}

Json LoadTable(const std::string& path) {
  std::string text = ReadFile(path);
  if (text.empty()) throw std::runtime_error("cannot read the servers table " + path);
  return Json::parse(text).at("servers");
}

// `argv` run to its end; its exit status and what it wrote to stderr.
std::pair<int, std::string> RunCapturingStderr(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  std::string err;
  char buf[4096];
  for (ssize_t n; rc == 0 && (n = ::read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    err.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(rc));
  int status = Wait(pid);
  while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, err};
}

// ---------------------------------------------------------------- servers-settings
// sandboxd refuses to start when its --server-settings name a server the
// build lacks, so each server's entry is checked alone with the agent's own
// checker and only the accepted ones are written.
int ServersSettingsImpl(const Args& a) {
  Json table = LoadTable(a.Str("table"));
  std::string out_path = a.Str("out"), probe = out_path + ".probe";
  Json accepted = Json::object();
  for (const auto& entry : table) {
    if (!entry.contains("settings")) continue;
    std::string name = entry.at("server").get<std::string>();
    Json one = {{name, WithRoot(entry["settings"], "/data")}};
    std::ofstream(probe, std::ios::trunc) << one.dump() << '\n';
    auto [status, why] = RunCapturingStderr({a.Str("agent"), "--check-server-settings", probe});
    if (status == 0) accepted[name] = one[name];
    else std::printf("servers: %s's settings left out (%s)\n", name.c_str(), why.c_str());
  }
  std::filesystem::remove(probe);
  std::ofstream out(out_path, std::ios::trunc);
  out << accepted.dump() << '\n';
  if (!out.flush()) throw std::runtime_error("cannot write " + out_path);
  std::printf("servers: --server-settings %s\n", accepted.dump().c_str());
  return 0;
}

// ---------------------------------------------------------------- servers-run

void CheckExpected(const Json& expect, const std::string& text, const std::string& tree) {
  if (expect.contains("contains")) {
    std::string want = expect["contains"].get<std::string>();
    if (text.find(want) == std::string::npos)
      throw std::runtime_error("the first reply lacks \"" + want + "\": " + text.substr(0, 300));
  }
  if (expect.contains("equals_file")) {
    std::string file = tree + "/" + expect["equals_file"].get<std::string>();
    if (text != ReadFile(file)) throw std::runtime_error("the first reply is not the content of " + file);
  }
}

std::vector<long> ParseNs(const std::string& list) {
  std::vector<long> ns;
  std::istringstream in(list);
  for (long n; in >> n;)
    if (n > 0) ns.push_back(n);
  return ns;
}

bool Wanted(const std::string& only, const std::string& name) {
  return only.empty() || (" " + only + " ").find(" " + name + " ") != std::string::npos;
}

int ServersRunImpl(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  Json table = LoadTable(a.Str("table"));
  std::string seed = ReadFile(a.Str("seed")), tree = a.Str("tree"), only = a.Str("only", "");
  if (seed.empty()) throw std::runtime_error("empty seed archive " + a.Str("seed"));
  std::vector<long> ns = ParseNs(a.Str("ns", "1 8"));
  long calls = a.Int("calls", 2000), warmup = a.Int("warmup", 200);
  Client c(s.addr, s.key);
  int failed = 0;
  for (const auto& entry : table) {
    const std::string name = entry.at("server").get<std::string>();
    if (!Wanted(only, name)) continue;
    const std::string state_key = "servers_" + name + "_state";
    std::printf("\n-- %s: %s %s\n", name.c_str(), entry.at("tool").get<std::string>().c_str(),
                WithRoot(entry.at("arguments"), "/data").dump().c_str());
    std::fflush(stdout);
    SeededSandbox sb;
    try {
      sb = SeedSandbox(c, {name}, seed);
    } catch (const HttpRefused& e) {
      bool unknown = e.status == 422 || e.status == 404;  // a name this build's API does not take
      std::printf("servers %s: %s: %s\n", name.c_str(), unknown ? "not built (acquire refused)" : "FAILED", e.what());
      out.Put(state_key, unknown ? kNotBuilt : kFailed);
      failed += !unknown;
      continue;
    }
    std::printf("servers %s: sandbox %s: acquire %.1f ms, seed %.1f ms, initialize %.1f ms\n", name.c_str(),
                sb.id.c_str(), sb.acquire_ms, sb.upload_ms, sb.initialize_ms);
    double state = kMeasured;
    try {
      CallRun run;
      run.label = name;
      run.cores_key = "servers_cores";
      run.tool = entry.at("tool").get<std::string>();
      run.arguments = WithRoot(entry.at("arguments"), "/data");
      run.calls = std::min<long>(calls, entry.value("max_calls", calls));
      run.sandboxes = {{sb.id, TargetOf(sb.urls.at(name))}};
      run.sandboxd_pid = static_cast<pid_t>(a.Int("sandboxd-pid", 0));
      run.cgroup_parent = a.Str("cgroup-parent", "");
      Json expect = WithRoot(entry.value("expect", Json::object()), "/data");
      run.check_first = [&](const Reply& r) { CheckExpected(expect, ToolResultText(r), tree); };
      for (long n : ns) {
        run.n = n;
        const long warm = std::min<long>(warmup, entry.value("max_warmup", warmup));
        run.warmup_per_conn = (warm + n - 1) / n;  // the same warm-up in all, spread over the sessions
        run.key_prefix = "servers_" + name + "_n" + std::to_string(n);
        if (RunCalls(s, out, run) != 0) state = kFailed;
      }
    } catch (const HttpRefused& e) {
      // The API takes every server name; an agent without the server
      // refuses the session.
      state = e.status == 404 ? kNotBuilt : kFailed;
      std::printf("servers %s: %s: %s\n", name.c_str(), e.status == 404 ? "not built (no MCP session)" : "FAILED",
                  e.what());
    } catch (const std::exception& e) {
      state = kFailed;
      std::printf("servers %s: FAILED: %s\n", name.c_str(), e.what());
    }
    auto r = c.Delete("/local-sandbox/" + sb.id);
    if (r.status != 200) std::printf("servers %s: release answered %d: %s\n", name.c_str(), r.status, r.body.c_str());
    out.Put(state_key, state);
    failed += state == kFailed;
  }
  return failed ? 1 : 0;
}

}  // namespace

int ServersSettings(const Args& a) { return ServersSettingsImpl(a); }
int ServersRun(const Args& a) { return ServersRunImpl(a); }

}  // namespace bench
