// sandboxd-bench: the benchmarks of issue 3. Each subcommand measures one
// thing, prints it, and appends "key value" lines to the results file given
// by --out; `report` turns that file into the table. bench/run.sh drives it.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <latch>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"
#include "http_client.h"
#include "measure.h"

namespace bench {
namespace {
using Json = nlohmann::json;
using namespace std::chrono_literals;
}  // namespace

PoolState Health(Client& c) {
  auto r = c.Get("/healthz");
  if (r.status != 200) throw std::runtime_error("healthz answered " + std::to_string(r.status));
  auto j = Json::parse(r.body);
  if (j.value("status", "") != "ok") throw std::runtime_error("healthz: " + r.body);
  return {j["pool"]["idle"].get<long>(), j["pool"]["size"].get<long>()};
}

// Polls /healthz until the pool holds `want` idle sandboxes; returns the wait in ms.
double WaitPool(Client& c, long want, std::chrono::seconds timeout) {
  auto t0 = Clock::now();
  while (Health(c).idle < want) {
    if (Clock::now() - t0 > timeout)
      throw std::runtime_error("the pool did not reach " + std::to_string(want) + " idle sandboxes in time");
    std::this_thread::sleep_for(1ms);
  }
  return MsSince(t0);
}

namespace {

const char* const kAcquireBody = R"({"server_names": ["filesystem", "git", "terminal"]})";

void WaitReleased(const Server& s, const std::vector<std::string>& ids, std::chrono::seconds timeout) {
  auto t0 = Clock::now();
  for (const auto& id : ids) {
    while (!s.Released(id)) {
      if (Clock::now() - t0 > timeout) throw std::runtime_error("sandbox " + id + " was not released in time");
      std::this_thread::sleep_for(1ms);
    }
  }
}

std::string AcquiredId(const Response& r) {
  auto j = Json::parse(r.body);
  return j.at("local_sandbox_id").get<std::string>();
}

void Release(Client& c, const std::string& id) {
  auto r = c.Delete("/local-sandbox/" + id);
  if (r.status != 200) throw std::runtime_error("release " + id + " answered " + std::to_string(r.status) + ": " + r.body);
}

// ---------------------------------------------------------------- wait-up
// Waits for listen.addr and GET /healthz {"status":"ok"} (run.sh's start).
int WaitUp(const Args& a) {
  std::string dir = a.Str("data-dir");
  auto t0 = Clock::now();
  auto timeout = std::chrono::seconds(a.Int("timeout", 30));
  std::string last;
  while (Clock::now() - t0 < timeout) {
    try {
      std::string addr = Trim(ReadFile(dir + "/listen.addr"));
      if (!addr.empty() && addr.substr(addr.size() - 2) != ":0" && PathExists(dir + "/admin.key")) {
        Server s(dir);
        Client c(s.addr, "");
        Health(c);
        std::printf("sandboxd up at %s after %.0f ms\n", s.addr.c_str(), MsSince(t0));
        return 0;
      }
    } catch (const std::exception& e) {
      last = e.what();
    }
    std::this_thread::sleep_for(20ms);
  }
  std::fprintf(stderr, "sandboxd did not come up in %lld s (%s)\n", static_cast<long long>(timeout.count()), last.c_str());
  return 1;
}

// ---------------------------------------------------------------- floor
// Round trips that do no sandbox work: what the client plus sandboxd's HTTP
// stack cost, the floor under every API figure.
int Floor(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  long n = a.Int("samples", 1000);
  Client c(s.addr, s.key);
  std::vector<double> health, list;
  for (long i = 0; i < n + 20; ++i) {
    auto t0 = Clock::now();
    auto r = c.Get("/healthz");
    double ms = MsSince(t0);
    if (r.status != 200) throw std::runtime_error("healthz " + std::to_string(r.status));
    if (i >= 20) health.push_back(ms);
  }
  for (long i = 0; i < n + 20; ++i) {
    auto t0 = Clock::now();
    auto r = c.Get("/local-sandbox");
    double ms = MsSince(t0);
    if (r.status != 200) throw std::runtime_error("list " + std::to_string(r.status) + " " + r.body);
    if (i >= 20) list.push_back(ms);
  }
  auto h = Summarize(health), l = Summarize(list);
  std::printf("floor  GET /healthz (no auth, no store):        %s\n", Describe(h).c_str());
  std::printf("floor  GET /local-sandbox (auth + store read):  %s\n", Describe(l).c_str());
  out.PutSummary("floor_healthz", h);
  out.PutSummary("floor_list", l);
  return 0;
}

// ---------------------------------------------------------------- acquire
// Sequential acquire -> release. With a pool, every sample starts with the
// pool full (so each acquire is a hand-over) and the previous release done.
int Acquire(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  std::string label = a.Str("label");
  long n = a.Int("samples", 200), warmup = a.Int("warmup", 5), gap_ms = a.Int("gap-ms", 5);
  std::string samples_out = a.Str("samples-out", "");
  Client c(s.addr, s.key);
  long size = Health(c).size;
  std::vector<double> acquire, refill, release;
  for (long i = 0; i < warmup + n; ++i) {
    if (size > 0) WaitPool(c, size, 120s);
    // Let the last release's store write land (and, with --gap-ms, the
    // kernel's asynchronous clean-up of the last jail's namespaces).
    std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    auto t0 = Clock::now();
    auto r = c.Post("/local-sandbox", kAcquireBody);
    auto t1 = Clock::now();
    double ms = MsSince(t0, t1);
    if (r.status != 201) throw std::runtime_error("acquire answered " + std::to_string(r.status) + ": " + r.body);
    std::string id = AcquiredId(r);
    Release(c, id);
    // Until the release has finished and (with a pool) the pool is full again.
    double released_ms = -1, full_ms = size > 0 ? -1 : 0;
    while (released_ms < 0 || full_ms < 0) {
      if (released_ms < 0 && s.Released(id)) released_ms = MsSince(t1);
      if (full_ms < 0 && Health(c).idle >= size) full_ms = MsSince(t1);
      if (Clock::now() - t1 > 120s) throw std::runtime_error("release or refill did not finish in 120 s");
      std::this_thread::sleep_for(1ms);
    }
    if (i >= warmup) {
      acquire.push_back(ms);
      release.push_back(released_ms);
      if (size > 0) refill.push_back(full_ms);
    }
  }
  if (!samples_out.empty()) {
    std::ofstream f(samples_out);
    f << "acquire_ms release_ms refill_ms\n";
    for (std::size_t i = 0; i < acquire.size(); ++i)
      f << acquire[i] << ' ' << release[i] << ' ' << (i < refill.size() ? refill[i] : 0.0) << '\n';
  }
  auto sa = Summarize(acquire), sr = Summarize(release);
  std::printf("acquire %-5s pool=%ld  POST /local-sandbox -> 201:            %s\n", label.c_str(), size,
              Describe(sa).c_str());
  std::printf("acquire %-5s          201 -> released (jail gone, dir gone): %s\n", label.c_str(), Describe(sr).c_str());
  out.PutSummary("acquire_" + label, sa);
  out.PutSummary("release_" + label, sr);
  if (!refill.empty()) {
    auto sf = Summarize(refill);
    std::printf("acquire %-5s          201 -> pool full again:                %s\n", label.c_str(), Describe(sf).c_str());
    out.PutSummary("refill_" + label, sf);
  }
  return 0;
}

// ---------------------------------------------------------------- concurrent
// `n` client threads, each on its own open connection, fire POST together.
int Concurrent(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  std::string label = a.Str("label"), parent = a.Str("cgroup-parent");
  long n = a.Int("n", 100);
  Client c(s.addr, s.key);
  long size = Health(c).size;
  if (size > 0) {
    double w = WaitPool(c, size, 600s);
    std::printf("concurrent %s: pool full (%ld idle) after %.0f ms\n", label.c_str(), size, w);
    std::this_thread::sleep_for(2s);  // let the last spawns' aftermath settle
  }
  struct Slot {
    std::unique_ptr<Client> client;
    Clock::time_point end;
    int status = 0;
    std::string body, error;
  };
  std::vector<Slot> slots(static_cast<std::size_t>(n));
  for (auto& sl : slots) {
    sl.client = std::make_unique<Client>(s.addr, s.key);
    sl.client->Connect();
  }
  std::latch ready(n), go(1);
  std::vector<std::thread> threads;
  for (auto& sl : slots) {
    threads.emplace_back([&sl, &ready, &go] {
      ready.count_down();
      go.wait();
      try {
        auto r = sl.client->Post("/local-sandbox", kAcquireBody);
        sl.status = r.status;
        sl.body = std::move(r.body);
      } catch (const std::exception& e) {
        sl.error = e.what();
      }
      sl.end = Clock::now();
    });
  }
  ready.wait();
  std::this_thread::sleep_for(50ms);  // all threads parked on `go`
  auto t0 = Clock::now();
  go.count_down();
  for (auto& t : threads) t.join();
  std::vector<double> each;
  Clock::time_point last = t0;
  std::vector<std::string> ids;
  long created = 0;
  for (auto& sl : slots) {
    each.push_back(MsSince(t0, sl.end));
    last = std::max(last, sl.end);
    if (sl.status == 201) {
      ++created;
      ids.push_back(AcquiredId(Response{sl.status, sl.body}));
    } else {
      std::printf("  a request failed: %d %s %s\n", sl.status, sl.body.substr(0, 200).c_str(), sl.error.c_str());
    }
  }
  double all = MsSince(t0, last);
  auto se = Summarize(each);
  std::printf("concurrent %-6s pool=%ld  %ld acquires fired together: %ld answered 201; all answered after %.1f ms\n",
              label.c_str(), size, n, created, all);
  std::printf("concurrent %-6s           each request:  %s\n", label.c_str(), Describe(se).c_str());

  // Ready: GET says occupied, and the jail's agent is alive in its cgroup.
  auto tr = Clock::now();
  long ready_count = 0;
  for (const auto& id : ids) {
    auto r = c.Get("/local-sandbox/" + id);
    bool occupied = r.status == 200 && Json::parse(r.body).value("status", "") == "occupied";
    bool agent = false;
    for (pid_t pid : CgroupProcs("pids", parent + "/" + id)) agent |= ProcessComm(pid) == "sandbox-agent";
    if (occupied && agent) ++ready_count;
    else std::printf("  not ready: %s (GET %d %s, agent %s)\n", id.c_str(), r.status, r.body.substr(0, 120).c_str(),
                     agent ? "alive" : "missing");
  }
  std::printf("concurrent %-6s           ready (GET occupied + agent alive): %ld/%ld, checked in %.1f ms\n",
              label.c_str(), ready_count, n, MsSince(tr));

  auto tl = Clock::now();
  for (const auto& id : ids) Release(c, id);
  WaitReleased(s, ids, 600s);
  std::printf("concurrent %-6s           released all %zu in %.0f ms\n", label.c_str(), ids.size(), MsSince(tl));

  out.Put("concurrent_" + label + "_all_ms", all);
  out.Put("concurrent_" + label + "_created", static_cast<double>(created));
  out.Put("concurrent_" + label + "_ready", static_cast<double>(ready_count));
  out.Put("concurrent_" + label + "_n", static_cast<double>(n));
  out.PutSummary("concurrent_" + label + "_each", se);
  return created == n && ready_count == n ? 0 : 1;
}

// ---------------------------------------------------------------- spawn baselines
int SpawnSeq(const Args& a) {
  Results out(a.Str("out", ""));
  std::string label = a.Str("label");
  long n = a.Int("samples", 200), warmup = a.Int("warmup", 5);
  if (a.rest.empty()) throw std::runtime_error("spawn wants -- argv");
  std::vector<double> v;
  for (long i = 0; i < warmup + n; ++i) {
    auto t0 = Clock::now();
    int st = Wait(Spawn(a.rest));
    double ms = MsSince(t0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) throw std::runtime_error(a.rest[0] + " failed");
    if (i >= warmup) v.push_back(ms);
  }
  auto sv = Summarize(v);
  std::string cmd;
  for (const auto& w : a.rest) cmd += (cmd.empty() ? "" : " ") + w;
  std::printf("spawn %-6s `%s` run to exit: %s\n", label.c_str(), cmd.c_str(), Describe(sv).c_str());
  out.PutSummary("spawn_" + label, sv);
  return 0;
}

// `n` copies started together; time until every one has exited.
int SpawnConcurrent(const Args& a) {
  Results out(a.Str("out", ""));
  std::string label = a.Str("label");
  long n = a.Int("n", 100);
  auto t0 = Clock::now();
  std::vector<pid_t> pids;
  for (long i = 0; i < n; ++i) pids.push_back(Spawn(a.rest));
  long ok = 0;
  for (pid_t p : pids) {
    int st = Wait(p);
    ok += WIFEXITED(st) && WEXITSTATUS(st) == 0;
  }
  double all = MsSince(t0);
  std::printf("spawn-concurrent %-6s %ld started together, %ld exited 0, all done after %.1f ms\n", label.c_str(), n,
              ok, all);
  out.Put("concurrent_" + label + "_all_ms", all);
  return ok == n ? 0 : 1;
}

int Usage() {
  std::fprintf(stderr,
               "usage: sandboxd-bench <command> [--opt value]... [-- argv...]\n"
               "  wait-up          --data-dir D [--timeout 30]\n"
               "  floor            --data-dir D [--samples 1000] [--out F]\n"
               "  acquire          --data-dir D --label L [--samples 200] [--warmup 5] [--gap-ms 5] [--samples-out F] [--out F]\n"
               "  concurrent       --data-dir D --cgroup-parent P --label L [--n 100] [--out F]\n"
               "  burst            --data-dir D --cgroup-parent P [--n 100] [--rounds 2] [--shrink-wait-s 180] [--out F]\n"
               "  spawn            --label L [--samples 200] [--out F] -- argv...\n"
               "  spawn-concurrent --label L [--n 100] [--out F] -- argv...\n"
               "  meminfo\n"
               "  memory-sandboxd  --data-dir D --cgroup-parent P --n N --before BYTES --pid PID --label L [--out F]\n"
               "  memory-drain     --after BYTES --n N --label L [--out F]\n"
               "  memory-procs     --cgroup NAME --ready-comm COMM --n N --label L [--out F] -- argv...\n"
               "  mcp-tree         --dir D\n"
               "  mcp-seed         --data-dir D --seed F.tar.gz --urls-out F [--sandboxes 1]\n"
               "  mcp-load         --data-dir D --label L --tool NAME|healthz [--args JSON] [--urls F] [--sandboxes 1]\n"
               "                   [--n 1] [--calls 5000] [--warmup 200] [--expect-file F] [--expect-lines K]\n"
               "                   [--sandboxd-pid P] [--cgroup-parent CG] [--out F]\n"
               "  servers-tree     --dir D\n"
               "  servers-settings --table servers.json --agent sandbox-agent --out F\n"
               "  servers-run      --data-dir D --table servers.json --seed F.tar.gz --tree D [--only \"names\"]\n"
               "                   [--ns \"1 8\"] [--calls 2000] [--warmup 200] [--sandboxd-pid P] [--cgroup-parent CG] [--out F]\n"
               "  first            --data-dir D [--samples 200] [--warmup 5] [--gap-ms 5] [--samples-out F] [--out F]\n"
               "  report           --in F [--only \"names\"] [--servers-table servers.json] [--servers-only \"names\"]\n");
  return 2;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  if (argc < 2) return Usage();
  std::string cmd = argv[1];
  try {
    Args a = Parse(argc, argv, 2);
    if (cmd == "wait-up") return WaitUp(a);
    if (cmd == "floor") return Floor(a);
    if (cmd == "acquire") return Acquire(a);
    if (cmd == "concurrent") return Concurrent(a);
    if (cmd == "burst") return Burst(a);
    if (cmd == "spawn") return SpawnSeq(a);
    if (cmd == "spawn-concurrent") return SpawnConcurrent(a);
    if (cmd == "meminfo") return MemInfo(a);
    if (cmd == "memory-sandboxd") return MemorySandboxd(a);
    if (cmd == "memory-drain") return MemoryDrain(a);
    if (cmd == "memory-procs") return MemoryProcs(a);
    if (cmd == "report") return Report(a);
    if (cmd == "mcp-tree") return McpTree(a);
    if (cmd == "mcp-seed") return McpSeed(a);
    if (cmd == "mcp-load") return McpLoad(a);
    if (cmd == "servers-tree") return ServersTree(a);
    if (cmd == "servers-settings") return ServersSettings(a);
    if (cmd == "servers-run") return ServersRun(a);
    if (cmd == "first") return FirstResult(a);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sandboxd-bench %s: %s\n", cmd.c_str(), e.what());
    return 1;
  }
  return Usage();
}
