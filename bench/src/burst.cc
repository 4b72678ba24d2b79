// Benchmark 7 (issue 13): a burst of rollouts with sandboxd's default flags.
// `n` client threads, each on its own keep-alive connection, released
// together: acquire (filesystem) → MCP initialize + notifications/initialized
// → one tools/call (list_allowed_directories), checked. The figure is the
// time until the last thread has its tool result. Run `rounds` times on the
// same sandboxd (the first burst finds the pool at its floor; later ones
// find it grown), releasing everything between rounds. Then the pool's idle
// count and memory right after it has grown, and again once it has shrunk
// back to its floor (after --pool-idle-seconds).
#include <latch>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "load.h"
#include "measure.h"

namespace bench {
namespace {

using Json = nlohmann::json;

struct PoolView {
  long idle = 0, size = 0, target = 0, starting = 0;
};

PoolView ReadPool(Client& c) {
  auto r = c.Get("/healthz");
  auto pool = Json::parse(r.body).at("pool");
  return {pool.value("idle", 0L), pool.value("size", 0L), pool.value("target", 0L), pool.value("starting", 0L)};
}

// Memory charged to this instance's sandboxes: the sum over its cgroups
// (v1 memory hierarchy, or v2), in bytes.
double CgroupMemory(const std::string& parent) {
  for (const char* file : {"/sys/fs/cgroup/memory/", "/sys/fs/cgroup/"}) {
    std::string top = std::string(file) + parent;
    std::string usage = ReadFile(top + (std::string(file).find("memory") != std::string::npos
                                            ? "/memory.usage_in_bytes"
                                            : "/memory.current"));
    if (!Trim(usage).empty()) return std::stod(Trim(usage));
  }
  return NAN;
}

struct Thread {
  std::unique_ptr<RawConn> conn;
  Clock::time_point acquired, initialized, called;
  std::string id, error;
};

std::string Header(const std::string& name, const std::string& value) { return name + ": " + value; }

// One thread's rollout start; fills `t` (error on the first failed step).
void Rollout(Thread& t, const Server& s) {
  try {
    Reply r = t.conn->RoundTrip(BuildRequest("POST", "/local-sandbox", s.addr,
                                             {Header("Authorization", "Bearer " + s.key),
                                              "Content-Type: application/json"},
                                             R"({"server_names":["filesystem"]})"));
    if (r.status != 201) throw std::runtime_error("acquire answered " + std::to_string(r.status) + ": " + r.body);
    Json acquired = Json::parse(r.body);
    t.id = acquired.at("local_sandbox_id");
    std::string url = acquired.at("servers").at(0).at("mcp_server_url");
    std::string target = url.substr(url.find('/', url.find("://") + 3));
    t.acquired = Clock::now();
    std::vector<std::string> h = {"Accept: application/json, text/event-stream", "Content-Type: application/json",
                                  "MCP-Protocol-Version: 2025-06-18"};
    r = t.conn->RoundTrip(BuildRequest(
        "POST", target, s.addr, h,
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"burst","version":"1"}}})"));
    std::string session = r.Header("Mcp-Session-Id");
    if (r.status != 200 || session.empty()) throw std::runtime_error("initialize answered " + std::to_string(r.status));
    h.push_back("Mcp-Session-Id: " + session);
    r = t.conn->RoundTrip(BuildRequest("POST", target, s.addr, h, R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
    if (r.status != 202) throw std::runtime_error("initialized answered " + std::to_string(r.status));
    t.initialized = Clock::now();
    r = t.conn->RoundTrip(BuildRequest(
        "POST", target, s.addr, h,
        R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_allowed_directories","arguments":{}}})"));
    if (r.status != 200 || r.body.find("Allowed directories:\\n/data") == std::string::npos)
      throw std::runtime_error("tools/call answered " + std::to_string(r.status) + ": " + r.body.substr(0, 200));
    t.called = Clock::now();
  } catch (const std::exception& e) {
    t.error = e.what();
  }
}

}  // namespace

int Burst(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  const std::string parent = a.Str("cgroup-parent");
  const long n = a.Int("n", 100), rounds = a.Int("rounds", 2), shrink_wait_s = a.Int("shrink-wait-s", 180);
  Client c(s.addr, s.key);
  PoolView start = ReadPool(c);
  double w = WaitPool(c, start.size, std::chrono::seconds(120));
  std::printf("burst: pool at its floor (%ld idle) after %.0f ms; %ld threads, %ld rounds\n", start.size, w, n, rounds);
  out.Put("burst_n", static_cast<double>(n));
  out.Put("burst_floor", static_cast<double>(start.size));
  int failed = 0;
  for (long round = 1; round <= rounds; ++round) {
    PoolView before = ReadPool(c);
    std::vector<Thread> threads(static_cast<std::size_t>(n));
    for (auto& t : threads) t.conn = std::make_unique<RawConn>(s.addr);
    std::latch ready(n), go(1);
    std::vector<std::thread> workers;
    for (auto& t : threads)
      workers.emplace_back([&t, &s, &ready, &go] {
        ready.count_down();
        go.wait();
        Rollout(t, s);
      });
    ready.wait();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // all parked on `go`
    auto t0 = Clock::now();
    go.count_down();
    for (auto& worker : workers) worker.join();
    std::vector<double> acquire, init, call, total;
    Clock::time_point last = t0;
    long ok = 0;
    for (auto& t : threads) {
      if (!t.error.empty()) {
        std::printf("  a rollout failed: %s\n", t.error.c_str());
        continue;
      }
      ++ok;
      acquire.push_back(MsSince(t0, t.acquired));
      init.push_back(MsSince(t.acquired, t.initialized));
      call.push_back(MsSince(t.initialized, t.called));
      total.push_back(MsSince(t0, t.called));
      last = std::max(last, t.called);
    }
    const std::string key = "burst_r" + std::to_string(round);
    double all = MsSince(t0, last);
    out.Put(key + "_all_ms", ok == n ? all : NAN);
    out.Put(key + "_ok", static_cast<double>(ok));
    out.Put(key + "_idle_before", static_cast<double>(before.idle));
    out.PutSummary(key + "_acquire", Summarize(acquire));
    out.PutSummary(key + "_total", Summarize(total));
    auto sa = Summarize(acquire), si = Summarize(init), sc = Summarize(call);
    std::printf("burst round %ld (%ld idle before): %ld/%ld rollouts got their tool result, the last after %.1f ms; "
                "per rollout p50: acquire %.2f, initialize %.2f, tools/call %.2f ms (p99 %.1f / %.1f / %.1f)\n",
                round, before.idle, ok, n, all, sa.p50, si.p50, sc.p50, sa.p99, si.p99, sc.p99);
    if (ok != n) ++failed;
    for (auto& t : threads)
      if (!t.id.empty()) c.Delete("/local-sandbox/" + t.id);
    for (auto& t : threads)
      while (!t.id.empty() && !s.Released(t.id)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    // The next round starts once the pool has stopped starting sandboxes.
    for (int i = 0; i < 6000; ++i) {
      PoolView p = ReadPool(c);
      if (p.starting == 0 && p.idle >= p.target) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // The pool's idle footprint after the bursts, then after it shrank.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  PoolView grown = ReadPool(c);
  double grown_mem = CgroupMemory(parent);
  out.Put("burst_grown_idle", static_cast<double>(grown.idle));
  out.Put("burst_grown_cgroup_mib", grown_mem / (1 << 20));
  std::printf("burst: after the bursts the pool holds %ld idle (target %ld, floor %ld), %.1f MiB in its cgroups\n",
              grown.idle, grown.target, grown.size, grown_mem / (1 << 20));
  auto t_shrink = Clock::now();
  PoolView now = grown;
  while (MsSince(t_shrink, Clock::now()) < shrink_wait_s * 1000.0) {
    now = ReadPool(c);
    if (now.idle <= now.size && now.target <= now.size) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));  // the last discards' clean-up
  now = ReadPool(c);
  double shrunk_mem = CgroupMemory(parent);
  out.Put("burst_shrunk_idle", static_cast<double>(now.idle));
  out.Put("burst_shrunk_cgroup_mib", shrunk_mem / (1 << 20));
  out.Put("burst_shrink_s", MsSince(t_shrink, Clock::now()) / 1000);
  std::printf("burst: %.0f s later the pool holds %ld idle (floor %ld), %.1f MiB in its cgroups\n",
              MsSince(t_shrink, Clock::now()) / 1000, now.idle, now.size, shrunk_mem / (1 << 20));
  return failed == 0 ? 0 : 1;
}

}  // namespace bench
