#include "measure.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace bench {

Summary Summarize(std::vector<double> v) {
  Summary s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto rank = [&](double p) {
    auto i = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    return v[std::clamp<std::size_t>(i, 1, v.size()) - 1];
  };
  s.n = v.size();
  s.min = v.front();
  s.p50 = rank(0.50);
  s.p90 = rank(0.90);
  s.p99 = rank(0.99);
  s.max = v.back();
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  return s;
}

std::string Describe(const Summary& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "n=%zu min=%.3f p50=%.3f p90=%.3f p99=%.3f max=%.3f mean=%.3f ms", s.n, s.min,
                s.p50, s.p90, s.p99, s.max, s.mean);
  return buf;
}

void Results::Put(const std::string& key, double value) const {
  if (path_.empty()) return;
  std::ofstream out(path_, std::ios::app);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", value);
  out << key << ' ' << buf << '\n';
  if (!out) throw std::runtime_error("cannot write " + path_);
}

void Results::PutSummary(const std::string& prefix, const Summary& s) const {
  Put(prefix + "_n", static_cast<double>(s.n));
  Put(prefix + "_p50_ms", s.p50);
  Put(prefix + "_p90_ms", s.p90);
  Put(prefix + "_p99_ms", s.p99);
  Put(prefix + "_max_ms", s.max);
  Put(prefix + "_mean_ms", s.mean);
}

namespace {

HostMem HostMemOnce() {
  std::ifstream in("/proc/meminfo");
  std::map<std::string, std::int64_t> kb;
  std::string key, unit;
  std::int64_t value = 0;
  while (in >> key >> value) {
    std::getline(in, unit);
    kb[key] = value;
  }
  for (const char* k : {"MemTotal:", "MemAvailable:", "Slab:", "KernelStack:", "Percpu:", "Shmem:", "VmallocUsed:", "AnonPages:"})
    if (!kb.count(k)) throw std::runtime_error(std::string("no ") + k + " in /proc/meminfo");
  HostMem m;
  m.used = (kb["MemTotal:"] - kb["MemAvailable:"]) * 1024;
  m.kernel = (kb["Slab:"] + kb["KernelStack:"] + kb["Percpu:"] + kb["Shmem:"] + kb["VmallocUsed:"]) * 1024;
  m.anon = kb["AnonPages:"] * 1024;
  return m;
}

std::int64_t FieldKb(const std::string& path, const std::string& field) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) {
      std::istringstream is(line.substr(field.size()));
      std::int64_t kb = 0;
      is >> kb;
      return kb * 1024;
    }
  }
  return 0;
}

}  // namespace

HostMem ReadHostMem(int reads, std::chrono::milliseconds gap) {
  std::vector<std::int64_t> used, kernel, anon;
  for (int i = 0; i < reads; ++i) {
    if (i) std::this_thread::sleep_for(gap);
    HostMem m = HostMemOnce();
    used.push_back(m.used);
    kernel.push_back(m.kernel);
    anon.push_back(m.anon);
  }
  std::sort(used.begin(), used.end());
  std::sort(kernel.begin(), kernel.end());
  std::sort(anon.begin(), anon.end());
  std::size_t m = used.size() / 2;
  return {used[m], kernel[m], used.back() - used.front(), anon[m]};
}

double WaitKernelSettled(std::chrono::milliseconds window, std::int64_t tolerance, std::chrono::seconds max_wait) {
  auto t0 = Clock::now();
  std::deque<std::pair<Clock::time_point, std::int64_t>> seen;
  for (;;) {
    auto now = Clock::now();
    seen.emplace_back(now, HostMemOnce().kernel);
    while (now - seen.front().first > window) seen.pop_front();
    if (now - t0 >= window) {
      auto [lo, hi] = std::minmax_element(seen.begin(), seen.end(),
                                          [](const auto& a, const auto& b) { return a.second < b.second; });
      if (hi->second - lo->second < tolerance) return MsSince(t0);
    }
    if (now - t0 > max_wait) {
      std::fprintf(stderr, "note: kernel memory still moving after %lld s; measuring anyway\n",
                   static_cast<long long>(max_wait.count()));
      return MsSince(t0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

std::vector<std::string> CgroupChildren(const std::string& hierarchy, const std::string& parent) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(std::string(kCgroupRoot) + "/" + hierarchy + "/" + parent, ec))
    if (e.is_directory(ec) && !e.is_symlink(ec)) out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<pid_t> CgroupProcs(const std::string& hierarchy, const std::string& path) {
  std::ifstream in(std::string(kCgroupRoot) + "/" + hierarchy + "/" + path + "/cgroup.procs");
  std::vector<pid_t> out;
  pid_t pid;
  while (in >> pid) out.push_back(pid);
  return out;
}

std::int64_t CgroupMemoryUsage(const std::string& path) {
  std::ifstream in(std::string(kCgroupRoot) + "/memory/" + path + "/memory.usage_in_bytes");
  std::int64_t v = -1;
  if (!(in >> v)) return -1;
  return v;
}

std::int64_t ProcessPss(pid_t pid) { return FieldKb("/proc/" + std::to_string(pid) + "/smaps_rollup", "Pss:"); }
std::int64_t ProcessPssAnon(pid_t pid) {
  return FieldKb("/proc/" + std::to_string(pid) + "/smaps_rollup", "Pss_Anon:");
}
std::int64_t ProcessPte(pid_t pid) { return FieldKb("/proc/" + std::to_string(pid) + "/status", "VmPTE:"); }
std::int64_t ProcessRss(pid_t pid) { return FieldKb("/proc/" + std::to_string(pid) + "/status", "VmRSS:"); }
std::int64_t ProcessRssAnon(pid_t pid) { return FieldKb("/proc/" + std::to_string(pid) + "/status", "RssAnon:"); }

std::string ProcessComm(pid_t pid) {
  std::string s = ReadFile("/proc/" + std::to_string(pid) + "/comm");
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

pid_t Spawn(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("posix_spawnp " + argv[0] + ": " + std::strerror(rc));
  return pid;
}

int Wait(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  return status;
}

bool PathExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("open " + path + ": " + std::strerror(errno));
  ssize_t n = ::write(fd, text.data(), text.size());
  int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) throw std::runtime_error("write " + path + ": " + std::strerror(err));
}

}  // namespace bench
