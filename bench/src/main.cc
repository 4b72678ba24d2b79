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

const char* const kAcquireBody = R"({"server_names": ["filesystem", "git", "terminal"]})";

struct PoolState {
  long idle = 0, size = 0;
};

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

// ---------------------------------------------------------------- memory
double MiB(double bytes) { return bytes / (1024.0 * 1024.0); }

// Our own processes: their PSS + page tables, and the anonymous part of PSS.
struct Ours {
  std::int64_t footprint = 0, anon = 0;
  void Add(pid_t p) {
    footprint += ProcessPss(p) + ProcessPte(p);
    anon += ProcessPssAnon(p);
  }
};

std::string MemText(const HostMem& m) {
  return std::to_string(m.used) + "," + std::to_string(m.kernel) + "," + std::to_string(m.spread) + "," +
         std::to_string(m.anon);
}
std::string MemText(const HostMem& m, const Ours& ours) {
  return MemText(m) + "," + std::to_string(ours.footprint) + "," + std::to_string(ours.anon);
}

std::vector<std::int64_t> MemParse(const std::string& text, std::size_t want) {
  std::vector<std::int64_t> v;
  std::size_t pos = 0;
  for (;;) {
    auto comma = text.find(',', pos);
    v.push_back(std::stoll(text.substr(pos, comma - pos)));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (v.size() != want) throw std::runtime_error("bad memory snapshot '" + text + "'");
  return v;
}

// Host figures per thing for `n` things between two snapshots: the plain
// difference of MemTotal-MemAvailable, the bottom-up one (kernel objects plus
// `ours`, the PSS and page tables of our own processes), and the noise: how
// far other processes' anonymous memory moved in between (AnonPages minus
// ours), or the spread of `used` while a snapshot was read if that is larger.
struct HostFigures {
  double raw_mib, bottom_up_mib, noise_mib;
};
HostFigures HostPer(const HostMem& more, const HostMem& less, const Ours& ours, long n) {
  double dn = static_cast<double>(n);
  std::int64_t others = std::llabs(static_cast<long long>(more.anon - less.anon - ours.anon));
  return {MiB(static_cast<double>(more.used - less.used) / dn),
          MiB(static_cast<double>(more.kernel - less.kernel + ours.footprint) / dn),
          MiB(static_cast<double>(std::max({more.spread, less.spread, others})) / dn)};
}

void PutHost(const Results& out, const std::string& label, const std::string& what, const HostFigures& f) {
  out.Put("mem_" + label + "_" + what + "_mib", f.raw_mib);
  out.Put("mem_" + label + "_" + what + "_bottomup_mib", f.bottom_up_mib);
  out.Put("mem_" + label + "_" + what + "_noise_mib", f.noise_mib);
}

std::string HostText(const HostFigures& f) {
  char buf[200];
  std::snprintf(buf, sizeof buf, "%.2f MiB each (MemTotal-MemAvailable; host noise +-%.2f), %.2f MiB each bottom-up",
                f.raw_mib, f.noise_mib, f.bottom_up_mib);
  return buf;
}

int MemInfo(const Args&) {
  double waited = WaitKernelSettled();
  std::fprintf(stderr, "meminfo: kernel memory settled after %.1f s\n", waited / 1000);
  std::printf("%s\n", MemText(ReadHostMem()).c_str());
  return 0;
}

// The idle pool of a sandboxd started with --pool-size N after `before`
// (from `meminfo`) was read.
int MemorySandboxd(const Args& a) {
  Server s(a.Str("data-dir"));
  Results out(a.Str("out", ""));
  std::string label = a.Str("label"), parent = a.Str("cgroup-parent");
  long n = a.Int("n");
  auto b = MemParse(a.Str("before"), 4);
  HostMem before{b[0], b[1], b[2], b[3]};
  pid_t pid = static_cast<pid_t>(a.Int("pid"));
  Client c(s.addr, s.key);
  double w = WaitPool(c, n, 900s);
  std::printf("memory %s: %ld idle sandboxes after %.0f ms; settling\n", label.c_str(), n, w);
  std::this_thread::sleep_for(std::chrono::milliseconds(a.Int("settle-ms", 1000)));
  WaitKernelSettled();
  HostMem after = ReadHostMem();
  std::int64_t cg_sum = 0, pss_sum = 0, groups = 0, procs = 0;
  Ours ours;
  for (const auto& g : CgroupChildren("memory", parent)) {
    std::int64_t u = CgroupMemoryUsage(parent + "/" + g);
    if (u < 0) continue;
    ++groups;
    cg_sum += u;
    for (pid_t p : CgroupProcs("pids", parent + "/" + g)) {
      ++procs;
      pss_sum += ProcessPss(p);
      ours.Add(p);
    }
  }
  std::int64_t jails = ours.footprint;
  ours.Add(pid);
  std::int64_t daemon = ours.footprint - jails;
  auto host = HostPer(after, before, ours, n);
  double dn = static_cast<double>(n);
  std::printf("memory %s: host %s (both include sandboxd: PSS+PTE %.1f MiB)\n", label.c_str(), HostText(host).c_str(),
              MiB(static_cast<double>(daemon)));
  std::printf("memory %s: %lld groups, sum memory.usage_in_bytes %.2f MiB each; %lld processes, PSS %.2f MiB each\n",
              label.c_str(), static_cast<long long>(groups), MiB(static_cast<double>(cg_sum) / dn),
              static_cast<long long>(procs), MiB(static_cast<double>(pss_sum) / dn));
  PutHost(out, label, "host", host);
  out.Put("mem_" + label + "_cgroup_mib", MiB(static_cast<double>(cg_sum) / dn));
  out.Put("mem_" + label + "_pss_mib", MiB(static_cast<double>(pss_sum) / dn));
  out.Put("mem_" + label + "_daemon_mib", MiB(static_cast<double>(daemon)));
  out.Put("mem_" + label + "_groups", static_cast<double>(groups));
  std::printf("AFTER %s\n", MemText(after, ours).c_str());
  return groups == n ? 0 : 1;
}

// After the pool's sandboxd has stopped: what came back (`after` is the
// AFTER line of memory-sandboxd).
int MemoryDrain(const Args& a) {
  Results out(a.Str("out", ""));
  std::string label = a.Str("label");
  long n = a.Int("n");
  auto v = MemParse(a.Str("after"), 6);
  std::this_thread::sleep_for(std::chrono::milliseconds(a.Int("settle-ms", 1000)));
  double waited = WaitKernelSettled();
  std::printf("memory %s: kernel memory settled %.1f s after the stop\n", label.c_str(), waited / 1000);
  auto host = HostPer(HostMem{v[0], v[1], v[2], v[3]}, ReadHostMem(), Ours{v[4], v[5]}, n);
  std::printf("memory %s: after the stop, host use fell by %s (sandboxd included)\n", label.c_str(),
              HostText(host).c_str());
  PutHost(out, label, "drain", host);
  return 0;
}

void KillGroup(const std::string& cg) {
  for (int i = 0; i < 500; ++i) {
    auto pids = CgroupProcs("pids", cg);
    if (pids.empty()) return;
    for (pid_t p : pids) ::kill(p, SIGKILL);
    std::this_thread::sleep_for(10ms);
  }
  throw std::runtime_error("processes of " + cg + " would not die");
}

// `n` idle copies of argv (e.g. bwrap ... sleep infinity), all in one
// memory+pids cgroup of our own so the same measures apply.
int MemoryProcs(const Args& a) {
  Results out(a.Str("out", ""));
  std::string label = a.Str("label"), cg = a.Str("cgroup"), ready_comm = a.Str("ready-comm");
  long n = a.Int("n");
  if (a.rest.empty()) throw std::runtime_error("memory-procs wants -- argv");
  std::string mem_dir = std::string(kCgroupRoot) + "/memory/" + cg, pids_dir = std::string(kCgroupRoot) + "/pids/" + cg;
  for (const auto& d : {mem_dir, pids_dir})
    if (::mkdir(d.c_str(), 0755) != 0 && errno != EEXIST) throw std::runtime_error("mkdir " + d + ": " + std::strerror(errno));
  WaitKernelSettled();
  HostMem before = ReadHostMem();
  std::vector<char*> args;
  for (const auto& w : a.rest) args.push_back(const_cast<char*>(w.c_str()));
  args.push_back(nullptr);
  std::vector<pid_t> children;
  int rc = 0;
  try {
    for (long i = 0; i < n; ++i) {
      pid_t p = ::fork();
      if (p < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
      if (p == 0) {
        try {
          WriteFile(mem_dir + "/cgroup.procs", "0");
          WriteFile(pids_dir + "/cgroup.procs", "0");
        } catch (...) {
          ::_exit(125);
        }
        int null_fd = ::open("/dev/null", O_RDWR);
        ::dup2(null_fd, 0);
        ::dup2(null_fd, 1);
        ::execvp(args[0], args.data());
        ::_exit(127);
      }
      children.push_back(p);
    }
    auto t0 = Clock::now();
    for (;;) {
      long running = 0;
      for (pid_t p : CgroupProcs("pids", cg)) running += ProcessComm(p) == ready_comm;
      if (running >= n) break;
      if (Clock::now() - t0 > 120s) throw std::runtime_error("the processes did not all start");
      std::this_thread::sleep_for(5ms);
    }
    std::printf("memory %s: %ld idle `%s` up after %.0f ms; settling\n", label.c_str(), n, ready_comm.c_str(),
                MsSince(t0));
    std::this_thread::sleep_for(std::chrono::milliseconds(a.Int("settle-ms", 1000)));
    WaitKernelSettled();
    HostMem after = ReadHostMem();
    std::int64_t cg_use = CgroupMemoryUsage(cg), pss = 0;
    Ours ours;
    auto procs = CgroupProcs("pids", cg);
    for (pid_t p : procs) {
      pss += ProcessPss(p);
      ours.Add(p);
    }
    double dn = static_cast<double>(n);
    auto host = HostPer(after, before, ours, n);
    std::printf("memory %s: host %s\n", label.c_str(), HostText(host).c_str());
    std::printf("memory %s: cgroup memory.usage_in_bytes %.2f MiB each; %zu processes, PSS %.2f MiB each\n",
                label.c_str(), MiB(static_cast<double>(cg_use) / dn), procs.size(), MiB(static_cast<double>(pss) / dn));
    PutHost(out, label, "host", host);
    out.Put("mem_" + label + "_cgroup_mib", MiB(static_cast<double>(cg_use) / dn));
    out.Put("mem_" + label + "_pss_mib", MiB(static_cast<double>(pss) / dn));
    KillGroup(cg);
    for (pid_t p : children) Wait(p);
    children.clear();
    std::this_thread::sleep_for(std::chrono::milliseconds(a.Int("settle-ms", 1000)));
    WaitKernelSettled();
    auto drain = HostPer(after, ReadHostMem(), ours, n);
    std::printf("memory %s: after killing them host use fell by %s\n", label.c_str(), HostText(drain).c_str());
    PutHost(out, label, "drain", drain);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "memory-procs: %s\n", e.what());
    rc = 1;
  }
  try {
    KillGroup(cg);
  } catch (...) {
  }
  for (pid_t p : children) ::waitpid(p, nullptr, 0);
  ::rmdir(mem_dir.c_str());
  ::rmdir(pids_dir.c_str());
  return rc;
}

int Usage() {
  std::fprintf(stderr,
               "usage: sandboxd-bench <command> [--opt value]... [-- argv...]\n"
               "  wait-up          --data-dir D [--timeout 30]\n"
               "  floor            --data-dir D [--samples 1000] [--out F]\n"
               "  acquire          --data-dir D --label L [--samples 200] [--warmup 5] [--gap-ms 5] [--samples-out F] [--out F]\n"
               "  concurrent       --data-dir D --cgroup-parent P --label L [--n 100] [--out F]\n"
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
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sandboxd-bench %s: %s\n", cmd.c_str(), e.what());
    return 1;
  }
  return Usage();
}
