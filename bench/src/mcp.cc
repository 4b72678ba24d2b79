// The MCP tools/call benchmark (see README.md): seeds sandboxes through the
// REST API, opens MCP sessions on the gateway (one keep-alive connection
// each) and drives tools/call through them with the epoll load generator of
// load.h, measuring latency, throughput and who spent the CPU.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "http_client.h"
#include "load.h"
#include "measure.h"

namespace bench {
namespace {

using Json = nlohmann::json;

constexpr const char* kProtocolVersion = "2025-06-18";
constexpr const char* kFile4k = "file-4k.txt";
constexpr const char* kDir1000 = "dir-1000";

// path?query of an absolute URL.
std::string TargetOf(const std::string& url) {
  auto scheme = url.find("://");
  auto slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

void WriteNew(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f.flush()) throw std::runtime_error("cannot write " + path);
}

// ---------------------------------------------------------------- mcp-tree
// The tree both servers serve: a 4 KiB text file and a directory of 1,000
// entries (900 small files, 100 empty directories).
int McpTreeImpl(const Args& a) {
  std::string dir = a.Str("dir");
  std::filesystem::create_directories(dir + "/" + kDir1000);
  std::string text;
  for (int i = 0; text.size() < 4096; ++i) {
    char line[96];
    std::snprintf(line, sizeof line, "%04d the quick brown fox jumps over the lazy dog, 0123456789 abcdefghij\n", i);
    text += line;
  }
  text.resize(4095);
  text += '\n';
  WriteNew(dir + "/" + kFile4k, text);
  for (int i = 0; i < 1000; ++i) {
    char name[32];
    if (i % 10 == 9) {
      std::snprintf(name, sizeof name, "sub-%04d", i);
      std::filesystem::create_directory(dir + "/" + kDir1000 + "/" + name);
    } else {
      std::snprintf(name, sizeof name, "entry-%04d.txt", i);
      WriteNew(dir + "/" + kDir1000 + "/" + name, std::string("entry ") + std::to_string(i) + "\n");
    }
  }
  std::printf("mcp tree in %s: %s (%zu bytes), %s/ (1000 entries)\n", dir.c_str(), kFile4k, text.size(), kDir1000);
  return 0;
}

// ---------------------------------------------------------------- mcp-seed
// Acquires `--sandboxes` sandboxes with the filesystem server, uploads the
// seed archive to each and initializes it; writes "<id> <mcp_server_url>"
// lines to --urls-out.
int McpSeedImpl(const Args& a) {
  Server s(a.Str("data-dir"));
  std::string seed = ReadFile(a.Str("seed"));
  if (seed.empty()) throw std::runtime_error("empty seed archive " + a.Str("seed"));
  long k = a.Int("sandboxes", 1);
  std::ofstream urls(a.Str("urls-out"));
  Client c(s.addr, s.key);
  for (long i = 0; i < k; ++i) {
    auto t0 = Clock::now();
    auto r = c.Post("/local-sandbox", R"({"server_names": ["filesystem"]})");
    if (r.status != 201) throw std::runtime_error("acquire answered " + std::to_string(r.status) + ": " + r.body);
    auto j = Json::parse(r.body);
    std::string id = j.at("local_sandbox_id").get<std::string>();
    std::string url = j.at("servers").at(0).at("mcp_server_url").get<std::string>();
    auto t1 = Clock::now();
    r = c.Post("/local-sandbox/" + id + "/upload-url", "");
    if (r.status != 200) throw std::runtime_error("upload-url answered " + std::to_string(r.status) + ": " + r.body);
    std::string upload = Json::parse(r.body).at("upload_url").get<std::string>();
    r = c.Put(TargetOf(upload), seed, "application/gzip");
    if (r.status != 200) throw std::runtime_error("PUT of the seed answered " + std::to_string(r.status) + ": " + r.body);
    auto t2 = Clock::now();
    r = c.Post("/local-sandbox/" + id + "/initialize", "");
    if (r.status != 200) throw std::runtime_error("initialize answered " + std::to_string(r.status) + ": " + r.body);
    auto t3 = Clock::now();
    urls << id << ' ' << url << '\n';
    std::printf("mcp seed %s: acquire %.1f ms, upload-url + PUT %zu bytes %.1f ms, initialize %.1f ms\n", id.c_str(),
                MsSince(t0, t1), seed.size(), MsSince(t1, t2), MsSince(t2, t3));
  }
  if (!urls.flush()) throw std::runtime_error("cannot write " + a.Str("urls-out"));
  return 0;
}

// ---------------------------------------------------------------- mcp-load

// On-CPU time of every thread of `pid` (schedstat, ns); 0 if gone.
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

struct McpSession {
  std::string sandbox_id, target, session;
};

std::vector<std::string> McpHeaders(const std::string& session) {
  std::vector<std::string> h = {"Accept: application/json, text/event-stream", "Content-Type: application/json",
                                std::string("MCP-Protocol-Version: ") + kProtocolVersion};
  if (!session.empty()) h.push_back("Mcp-Session-Id: " + session);
  return h;
}

McpSession OpenSession(RawConn& conn, const std::string& host, const std::string& sandbox_id,
                       const std::string& target) {
  Json init = {{"jsonrpc", "2.0"},
               {"id", 0},
               {"method", "initialize"},
               {"params",
                {{"protocolVersion", kProtocolVersion},
                 {"capabilities", Json::object()},
                 {"clientInfo", {{"name", "sandboxd-bench"}, {"version", "1"}}}}}};
  Reply r = conn.RoundTrip(BuildRequest("POST", target, host, McpHeaders(""), init.dump()));
  std::string session = r.Header("Mcp-Session-Id");
  if (r.status != 200 || session.empty())
    throw std::runtime_error("initialize answered " + std::to_string(r.status) + ": " + r.body.substr(0, 300));
  Json note = {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
  r = conn.RoundTrip(BuildRequest("POST", target, host, McpHeaders(session), note.dump()));
  if (r.status != 202) throw std::runtime_error("notifications/initialized answered " + std::to_string(r.status));
  return {sandbox_id, target, session};
}

// What a tools/call reply must hold, checked once per session before the load.
void CheckFirstReply(const Reply& r, const Args& a) {
  if (r.status != 200) throw std::runtime_error("tools/call answered " + std::to_string(r.status) + ": " + r.body);
  Json j = Json::parse(r.body);
  if (!j.contains("result") || j["result"].value("isError", false))
    throw std::runtime_error("tools/call failed: " + r.body.substr(0, 500));
  std::string text = j["result"].at("content").at(0).at("text").get<std::string>();
  std::string file = a.Str("expect-file", "");
  if (!file.empty() && text != ReadFile(file))
    throw std::runtime_error("read_text_file did not return the content of " + file + ": " + text.substr(0, 200));
  long lines = a.Int("expect-lines", 0);
  if (lines > 0) {
    long got = static_cast<long>(std::count(text.begin(), text.end(), '\n')) + (text.empty() ? 0 : 1);
    if (got != lines)
      throw std::runtime_error("expected " + std::to_string(lines) + " lines, got " + std::to_string(got) + ": " +
                               text.substr(0, 200));
  }
}

int McpLoadImpl(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  std::string label = a.Str("label"), tool = a.Str("tool");
  long n = a.Int("n", 1), calls = a.Int("calls", 5000), warmup = a.Int("warmup", 200);
  pid_t sandboxd_pid = static_cast<pid_t>(a.Int("sandboxd-pid", 0));
  std::string cg_parent = a.Str("cgroup-parent", "");
  const bool healthz = tool == "healthz";

  std::vector<std::pair<std::string, std::string>> sandboxes;  // id, target
  if (!healthz) {
    std::ifstream in(a.Str("urls"));
    std::string id, url;
    while (in >> id >> url) sandboxes.emplace_back(id, TargetOf(url));
    if (sandboxes.empty()) throw std::runtime_error("no sandbox URLs in " + a.Str("urls"));
    long use = std::min<long>(a.Int("sandboxes", 1), static_cast<long>(sandboxes.size()));
    sandboxes.resize(static_cast<std::size_t>(std::max(use, 1L)));
  }

  std::vector<std::unique_ptr<RawConn>> conns;
  std::vector<McpSession> sessions;
  for (long i = 0; i < n; ++i) {
    conns.push_back(std::make_unique<RawConn>(s.addr));
    if (healthz) continue;
    const auto& [id, target] = sandboxes[static_cast<std::size_t>(i) % sandboxes.size()];
    sessions.push_back(OpenSession(*conns.back(), s.addr, id, target));
  }

  // The request bytes: a per-session head, then the body around the id.
  std::vector<std::string> heads;
  std::string body_a = R"({"jsonrpc":"2.0","id":)", body_b;
  if (!healthz) {
    Json params = {{"name", tool}, {"arguments", Json::parse(a.Str("args", "{}"))}};
    body_b = R"(,"method":"tools/call","params":)" + params.dump() + "}";
    for (const auto& ss : sessions) {
      std::string head = BuildRequest("POST", ss.target, s.addr, McpHeaders(ss.session), "");
      head.resize(head.size() - std::string_view("0\r\n\r\n").size());  // ends "Content-Length: "
      heads.push_back(std::move(head));
    }
    for (std::size_t i = 0; i < conns.size(); ++i) {
      std::string body = body_a + "1" + body_b;
      CheckFirstReply(conns[i]->RoundTrip(heads[i] + std::to_string(body.size()) + "\r\n\r\n" + body), a);
    }
  }
  const std::string healthz_request = BuildRequest("GET", "/healthz", s.addr, {}, "");

  LoadSpec spec;
  spec.warmup_per_conn = warmup;
  spec.calls = calls;
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
  std::vector<pid_t> agents;
  std::set<std::string> ids;
  for (const auto& ss : sessions) ids.insert(ss.sandbox_id);
  if (!cg_parent.empty())
    for (const auto& id : ids)
      for (pid_t p : CgroupProcs("pids", cg_parent + "/" + id)) agents.push_back(p);
  auto server_cpu = [&] {
    std::int64_t daemon = sandboxd_pid > 0 ? ProcessCpuNs(sandboxd_pid) : 0, agent = 0;
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
  double cps = static_cast<double>(res.latency_ms.size()) / res.wall_s;
  double per = 1e6 / static_cast<double>(res.latency_ms.size());  // s -> us per call
  double client_us = res.client_cpu_s * per;
  double daemon_us = static_cast<double>(cpu1.first - cpu0.first) / 1e3 / static_cast<double>(res.latency_ms.size());
  double agent_us = static_cast<double>(cpu1.second - cpu0.second) / 1e3 / static_cast<double>(res.latency_ms.size());
  double busy = (res.client_cpu_s + static_cast<double>(cpu1.first - cpu0.first + cpu1.second - cpu0.second) / 1e9) /
                res.wall_s;
  std::string what = healthz ? "GET /healthz" : tool;
  std::printf("mcp %-9s %-15s %2ld conn%s%s: %ld calls in %.2f s = %.0f calls/s; %s\n", label.c_str(), what.c_str(), n,
              n == 1 ? " " : "s", healthz ? "" : (" / " + std::to_string(ids.size()) + " sandbox(es)").c_str(),
              static_cast<long>(res.latency_ms.size()), res.wall_s, cps, Describe(sum).c_str());
  std::printf("mcp %-9s CPU per call: sandboxd %.1f us, agent %.1f us, client %.1f us; %.2f of %ld cores busy\n",
              label.c_str(), daemon_us, agent_us, client_us, busy, sysconf(_SC_NPROCESSORS_ONLN));
  if (res.bad) std::printf("mcp %-9s %ld bad replies, the first: %s\n", label.c_str(), res.bad, res.first_bad.c_str());
  std::string prefix = "mcp_" + label + "_n" + std::to_string(n);
  out.PutSummary(prefix, sum);
  out.Put(prefix + "_cps", cps);
  out.Put(prefix + "_client_us", client_us);
  if (sandboxd_pid > 0) out.Put(prefix + "_sandboxd_us", daemon_us);
  if (!agents.empty()) out.Put(prefix + "_agent_us", agent_us);
  out.Put(prefix + "_busy_cores", busy);
  out.Put(prefix + "_bad", static_cast<double>(res.bad));
  out.Put("mcp_cores", static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)));
  return res.bad == 0 ? 0 : 1;
}

}  // namespace

int McpTree(const Args& a) { return McpTreeImpl(a); }
int McpSeed(const Args& a) { return McpSeedImpl(a); }
int McpLoad(const Args& a) { return McpLoadImpl(a); }

}  // namespace bench
