// Measuring helpers: clocks, percentiles, /proc/meminfo, cgroups, spawning
// processes, and the results file the report is built from.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double MsSince(Clock::time_point t0, Clock::time_point t1 = Clock::now()) {
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

struct Summary {
  std::size_t n = 0;
  double min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};
// Nearest-rank percentiles of `samples` (milliseconds, any order).
Summary Summarize(std::vector<double> samples);
std::string Describe(const Summary& s);  // "n=200 p50=… p90=… p99=… max=… mean=… ms"

// Appends "key value" lines to the results file (and echoes nothing).
class Results {
 public:
  explicit Results(std::string path) : path_(std::move(path)) {}
  void Put(const std::string& key, double value) const;
  void PutSummary(const std::string& prefix, const Summary& s) const;  // prefix_p50_ms, …
 private:
  std::string path_;
};

// Host memory from /proc/meminfo, each the median of `reads` reads `gap` apart.
//   used   = MemTotal - MemAvailable (what the issue asks for). On a host where
//            other work runs (compilers) it swings by hundreds of MiB within
//            seconds, nearly all of it other processes' anonymous memory.
//   kernel = Slab + KernelStack + Percpu + Shmem + VmallocUsed: the kernel
//            objects a sandbox costs (namespaces, mounts, overlay/tmpfs
//            superblocks, sockets, task structs, stacks) and tmpfs contents;
//            it moves by ~2 MiB under the same load. Adding the PSS and page
//            tables (VmPTE) of our own processes gives a bottom-up host figure.
//   anon   = AnonPages, to see how much other processes' memory moved.
//   spread = max - min of `used` over the reads (how noisy the host was).
struct HostMem {
  std::int64_t used = 0, kernel = 0, spread = 0, anon = 0;
};
HostMem ReadHostMem(int reads = 7, std::chrono::milliseconds gap = std::chrono::milliseconds(200));
// Waits until `kernel` has moved by less than `tolerance` bytes over `window`
// (at most `max_wait`): destroyed namespaces and sockets are freed late, by
// workqueues and (with CONFIG_RCU_LAZY) RCU callbacks batched for up to ~10 s.
// Returns the milliseconds waited; prints a note on stderr if it gave up.
double WaitKernelSettled(std::chrono::milliseconds window = std::chrono::seconds(3),
                         std::int64_t tolerance = 2 << 20, std::chrono::seconds max_wait = std::chrono::seconds(40));

constexpr const char* kCgroupRoot = "/sys/fs/cgroup";
// Child group directory names below <root>/<hierarchy>/<parent>.
std::vector<std::string> CgroupChildren(const std::string& hierarchy, const std::string& parent);
// The pids in <root>/<hierarchy>/<path>/cgroup.procs.
std::vector<pid_t> CgroupProcs(const std::string& hierarchy, const std::string& path);
// memory.usage_in_bytes of <root>/memory/<path> (cgroup v1); -1 if unreadable.
std::int64_t CgroupMemoryUsage(const std::string& path);
// Pss and Pss_Anon of /proc/<pid>/smaps_rollup in bytes; 0 if gone.
std::int64_t ProcessPss(pid_t pid);
std::int64_t ProcessPssAnon(pid_t pid);
// VmPTE (page tables) of /proc/<pid>/status in bytes; 0 if gone.
std::int64_t ProcessPte(pid_t pid);
// VmRSS and RssAnon of /proc/<pid>/status in bytes; 0 if gone.
std::int64_t ProcessRss(pid_t pid);
std::int64_t ProcessRssAnon(pid_t pid);
std::string ProcessComm(pid_t pid);

// posix_spawnp(argv) with stdio on /dev/null; throws on failure.
pid_t Spawn(const std::vector<std::string>& argv);
// Waits for `pid`; returns its wait status.
int Wait(pid_t pid);

bool PathExists(const std::string& path);
std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);

}  // namespace bench
