#include "mcp_client.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "measure.h"

namespace bench {
namespace {

using Json = nlohmann::json;

constexpr const char* kProtocolVersion = "2025-06-18";

struct McpSession {
  std::string sandbox_id, target, session;
};

McpSession OpenSession(RawConn& conn, const std::string& host, const SandboxTarget& sandbox) {
  Reply r = conn.RoundTrip(BuildRequest("POST", sandbox.target, host, McpHeaders(""), InitializeMessage(0).dump()));
  std::string session = r.Header("Mcp-Session-Id");
  if (r.status != 200 || session.empty())
    throw HttpRefused(r.status, "initialize answered " + std::to_string(r.status) + ": " + r.body.substr(0, 300));
  r = conn.RoundTrip(BuildRequest("POST", sandbox.target, host, McpHeaders(session), InitializedNote().dump()));
  if (r.status != 202) throw std::runtime_error("notifications/initialized answered " + std::to_string(r.status));
  return {sandbox.id, sandbox.target, session};
}

void Expect(const Response& r, int status, const std::string& step) {
  if (r.status != status)
    throw HttpRefused(r.status, step + " answered " + std::to_string(r.status) + ": " + r.body.substr(0, 300));
}

}  // namespace

std::vector<std::string> McpHeaders(const std::string& session) {
  std::vector<std::string> h = {"Accept: application/json, text/event-stream", "Content-Type: application/json",
                                std::string("MCP-Protocol-Version: ") + kProtocolVersion};
  if (!session.empty()) h.push_back("Mcp-Session-Id: " + session);
  return h;
}

nlohmann::json InitializeMessage(int id) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", kProtocolVersion},
            {"capabilities", Json::object()},
            {"clientInfo", {{"name", "sandboxd-bench"}, {"version", "1"}}}}}};
}

nlohmann::json InitializedNote() { return {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}; }

std::string TargetOf(const std::string& url) {
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

SeededSandbox SeedSandbox(Client& c, const std::vector<std::string>& servers, const std::string& seed) {
  SeededSandbox out;
  auto t0 = Clock::now();
  auto r = c.Post("/local-sandbox", Json{{"server_names", servers}}.dump());
  Expect(r, 201, "acquire");
  auto j = Json::parse(r.body);
  out.id = j.at("local_sandbox_id").get<std::string>();
  for (const auto& s : j.at("servers"))
    out.urls[s.at("server_name").get<std::string>()] = s.at("mcp_server_url").get<std::string>();
  auto t1 = Clock::now();
  r = c.Post("/local-sandbox/" + out.id + "/upload-url", "");
  Expect(r, 200, "upload-url");
  std::string upload = Json::parse(r.body).at("upload_url").get<std::string>();
  Expect(c.Put(TargetOf(upload), seed, "application/gzip"), 200, "PUT of the seed");
  auto t2 = Clock::now();
  Expect(c.Post("/local-sandbox/" + out.id + "/initialize", ""), 200, "initialize");
  auto t3 = Clock::now();
  out.acquire_ms = MsSince(t0, t1);
  out.upload_ms = MsSince(t1, t2);
  out.initialize_ms = MsSince(t2, t3);
  return out;
}

std::int64_t ProcessCpuNs(pid_t pid) {
  std::int64_t total = 0;
  std::error_code ec;
  for (const auto& t : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream in(t.path() / "schedstat");
    std::int64_t ns = 0;
    if (in >> ns) total += ns;
  }
  return total;
}

std::string ToolResultText(const Reply& r) {
  if (r.status != 200) throw std::runtime_error("tools/call answered " + std::to_string(r.status) + ": " + r.body);
  Json j = Json::parse(r.body);
  if (!j.contains("result") || j["result"].value("isError", false))
    throw std::runtime_error("tools/call failed: " + r.body.substr(0, 500));
  std::string text;
  for (const auto& block : j["result"].value("content", Json::array()))
    if (block.contains("text")) text += (text.empty() ? "" : "\n") + block["text"].get<std::string>();
  return text;
}

long RunCalls(const Server& s, const Results& out, const CallRun& run) {
  const bool healthz = run.tool == "healthz";
  if (!healthz && run.sandboxes.empty()) throw std::runtime_error("no sandbox to call");
  std::vector<std::unique_ptr<RawConn>> conns;
  std::vector<McpSession> sessions;
  for (long i = 0; i < run.n; ++i) {
    conns.push_back(std::make_unique<RawConn>(s.addr));
    if (healthz) continue;
    sessions.push_back(OpenSession(*conns.back(), s.addr, run.sandboxes[static_cast<std::size_t>(i) % run.sandboxes.size()]));
  }

  // The request bytes: a per-session head, then the body around the id.
  std::vector<std::string> heads;
  std::string body_a = R"({"jsonrpc":"2.0","id":)", body_b;
  if (!healthz) {
    Json params = {{"name", run.tool}, {"arguments", run.arguments}};
    body_b = R"(,"method":"tools/call","params":)" + params.dump() + "}";
    for (const auto& ss : sessions) {
      std::string head = BuildRequest("POST", ss.target, s.addr, McpHeaders(ss.session), "");
      head.resize(head.size() - std::string_view("0\r\n\r\n").size());  // ends "Content-Length: "
      heads.push_back(std::move(head));
    }
    for (std::size_t i = 0; i < conns.size(); ++i) {
      std::string body = body_a + "1" + body_b;
      Reply first = conns[i]->RoundTrip(heads[i] + std::to_string(body.size()) + "\r\n\r\n" + body);
      if (run.check_first) run.check_first(first);
    }
  }
  const std::string healthz_request = BuildRequest("GET", "/healthz", s.addr, {}, "");

  LoadSpec spec;
  spec.warmup_per_conn = run.warmup_per_conn;
  spec.calls = run.calls;
  if (healthz) {
    spec.request = [&](std::size_t, long) { return healthz_request; };
    spec.good = [](int status, std::string_view body) { return status == 200 && body.find("\"ok\"") != body.npos; };
  } else {
    spec.request = [&](std::size_t i, long id) {
      std::string idt = std::to_string(id);
      std::string r;
      r.reserve(heads[i].size() + body_a.size() + body_b.size() + 32);
      r.append(heads[i])
          .append(std::to_string(body_a.size() + idt.size() + body_b.size()))
          .append("\r\n\r\n")
          .append(body_a)
          .append(idt)
          .append(body_b);
      return r;
    };
    spec.good = [](int status, std::string_view body) {
      return status == 200 && body.find("\"result\"") != body.npos && body.find("\"isError\":true") == body.npos;
    };
  }
  // Who spends the CPU during the measured part: sandboxd, the agents, us.
  // The agents are the processes in their pids cgroups when the load starts;
  // children a call starts and reaps (a shell, git) are not among them.
  std::vector<pid_t> agents;
  std::set<std::string> ids;
  for (const auto& ss : sessions) ids.insert(ss.sandbox_id);
  if (!run.cgroup_parent.empty())
    for (const auto& id : ids)
      for (pid_t p : CgroupProcs("pids", run.cgroup_parent + "/" + id)) agents.push_back(p);
  auto server_cpu = [&] {
    std::int64_t daemon = run.sandboxd_pid > 0 ? ProcessCpuNs(run.sandboxd_pid) : 0, agent = 0;
    for (pid_t p : agents) agent += ProcessCpuNs(p);
    return std::pair{daemon, agent};
  };
  std::pair<std::int64_t, std::int64_t> cpu0{};
  spec.on_start = [&] { cpu0 = server_cpu(); };
  LoadResult res = RunLoad(conns, spec);
  auto cpu1 = server_cpu();

  for (std::size_t i = 0; i < sessions.size(); ++i) {
    Reply r = conns[i]->RoundTrip(BuildRequest("DELETE", sessions[i].target, s.addr, McpHeaders(sessions[i].session), ""));
    if (r.status != 200) std::fprintf(stderr, "note: DELETE of a session answered %d\n", r.status);
  }

  auto sum = Summarize(res.latency_ms);
  const long n = run.n;
  const char* label = run.label.c_str();
  double cps = static_cast<double>(res.latency_ms.size()) / res.wall_s;
  double per = 1e6 / static_cast<double>(res.latency_ms.size());  // s -> us per call
  double client_us = res.client_cpu_s * per;
  double daemon_us = static_cast<double>(cpu1.first - cpu0.first) / 1e3 / static_cast<double>(res.latency_ms.size());
  double agent_us = static_cast<double>(cpu1.second - cpu0.second) / 1e3 / static_cast<double>(res.latency_ms.size());
  double busy = (res.client_cpu_s + static_cast<double>(cpu1.first - cpu0.first + cpu1.second - cpu0.second) / 1e9) /
                res.wall_s;
  std::string what = healthz ? "GET /healthz" : run.tool;
  std::printf("mcp %-9s %-15s %2ld conn%s%s: %ld calls in %.2f s = %.0f calls/s; %s\n", label, what.c_str(), n,
              n == 1 ? " " : "s", healthz ? "" : (" / " + std::to_string(ids.size()) + " sandbox(es)").c_str(),
              static_cast<long>(res.latency_ms.size()), res.wall_s, cps, Describe(sum).c_str());
  std::printf("mcp %-9s CPU per call: sandboxd %.1f us, agent %.1f us, client %.1f us; %.2f of %ld cores busy\n", label,
              daemon_us, agent_us, client_us, busy, sysconf(_SC_NPROCESSORS_ONLN));
  if (res.bad) std::printf("mcp %-9s %ld bad replies, the first: %s\n", label, res.bad, res.first_bad.c_str());
  const std::string& prefix = run.key_prefix;
  out.PutSummary(prefix, sum);
  out.Put(prefix + "_cps", cps);
  out.Put(prefix + "_client_us", client_us);
  if (run.sandboxd_pid > 0) out.Put(prefix + "_sandboxd_us", daemon_us);
  if (!agents.empty()) out.Put(prefix + "_agent_us", agent_us);
  out.Put(prefix + "_busy_cores", busy);
  out.Put(prefix + "_bad", static_cast<double>(res.bad));
  out.Put(run.cores_key, static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)));
  return res.bad;
}

}  // namespace bench
