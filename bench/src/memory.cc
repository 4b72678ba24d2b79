// The memory subcommands of sandboxd-bench: memory per idle sandbox (ours,
// and the baselines' processes) seen from the host, bottom-up from PSS and
// page tables, and through the cgroups' own accounting.
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

}  // namespace

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

namespace {

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
}  // namespace

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

}  // namespace bench
