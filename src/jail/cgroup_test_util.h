// Shared by the cgroup tests: children in groups, temp dirs, the fixture.
#pragma once

#include "jail/cgroup.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "core/fs.h"

namespace sbx::jail {

class CgroupTreeTestPeer {
 public:
  // A v2 tree without Open's controller check: this host's cgroup2 mount has
  // no memory, pids or cpu controller (they are bound to v1), yet moving
  // processes, cgroup.kill and rmdir work there as on any v2 host.
  static CgroupTree Unified(const std::string& mount, const std::string& parent) {
    CgroupTree tree;
    tree.unified_ = true;
    tree.parent_ = parent;
    tree.unified_root_ = mount + "/" + parent;
    return tree;
  }
};

namespace cgroup_testing {

using namespace std::chrono_literals;

inline constexpr char kUnifiedMount[] = "/sys/fs/cgroup/unified";
inline constexpr std::uint64_t kMiB = 1 << 20;

inline std::string Slurp(const std::string& path) {
  auto text = fs::ReadFile(path);
  return text ? *text : "<" + text.error().message + ">";
}

// The error code, or nullopt for success (calling error() on it would abort
// the run and skip the cleanup).
template <class R>
inline std::optional<ErrorCode> CodeOf(const R& result) {
  if (result.ok()) return std::nullopt;
  return result.error().code;
}

inline std::string Dirname(const std::string& path) { return path.substr(0, path.rfind('/')); }

inline bool IsDir(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// controller -> cgroup path, from /proc/<pid>/cgroup ("" names the v2 line).
inline std::map<std::string, std::string> CgroupsOf(pid_t pid) {
  std::map<std::string, std::string> out;
  std::istringstream in(Slurp("/proc/" + std::to_string(pid) + "/cgroup"));
  for (std::string line; std::getline(in, line);) {
    auto a = line.find(':'), b = line.find(':', a + 1);
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controllers.empty()) out[""] = path;
    std::istringstream names(controllers);
    for (std::string c; std::getline(names, c, ',');) out[c] = path;
  }
  return out;
}

// A forked child that runs `body` only after Start(), so that the test can
// move it into a group before it does anything. `body` gets the write end of
// a pipe the test reads with Read(). Killed and reaped on destruction.
class Child {
 public:
  explicit Child(const std::function<void(int report_fd)>& body) {
    int go[2], report[2];
    if (::pipe2(go, O_CLOEXEC) != 0 || ::pipe2(report, O_CLOEXEC) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(go[1]);
      ::close(report[0]);
      char c;
      if (::read(go[0], &c, 1) != 1) ::_exit(100);
      body(report[1]);
      ::_exit(0);
    }
    ::close(go[0]);
    ::close(report[1]);
    go_ = go[1];
    report_ = report[0];
  }
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (go_ >= 0) ::close(go_);
    if (report_ >= 0) ::close(report_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  void Start() {
    ASSERT_EQ(::write(go_, "x", 1), 1);
    ::close(go_);
    go_ = -1;
  }
  // Reads exactly `n` bytes the child reported, waiting at most 10 s.
  bool Read(void* buf, std::size_t n) {
    auto* p = static_cast<char*>(buf);
    while (n > 0) {
      pollfd pfd{report_, POLLIN, 0};
      if (::poll(&pfd, 1, 10000) != 1) return false;
      ssize_t got = ::read(report_, p, n);
      if (got <= 0) return false;
      p += got;
      n -= static_cast<std::size_t>(got);
    }
    return true;
  }
  // The child's wait status, or -1 if it has not ended within 10 s.
  int Wait() {
    for (int i = 0; i < 1000; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return status;
      }
      std::this_thread::sleep_for(10ms);
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  int go_ = -1;
  int report_ = -1;
};

[[noreturn]] inline void SleepForever() {
  for (;;) ::pause();
}

// Forks short-lived children without end, at most 8 alive at a time so that
// it stays bounded even in a group without a pids limit.
[[noreturn]] inline void ForkForever() {
  int alive = 0;
  for (;;) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) --alive;
    if (alive >= 8) {
      if (::wait(nullptr) > 0) --alive;
      continue;
    }
    pid_t pid = ::fork();
    if (pid == 0) {
      ::usleep(2000);
      ::_exit(0);
    }
    if (pid > 0) ++alive;
  }
}

// The child, a sleeping grandchild and a grandchild that keeps forking.
inline void ProcessTree(int report) {
  if (::fork() == 0) SleepForever();
  if (::fork() == 0) ForkForever();
  (void)!::write(report, "r", 1);
  SleepForever();
}

inline void Touch(std::size_t bytes) {
  void* mem = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) ::_exit(101);
  for (std::size_t i = 0; i < bytes; i += 4096) static_cast<volatile char*>(mem)[i] = 1;
}

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/cgroup test XXXXXX";  // the space exercises mountinfo's \040
    if (::mkdtemp(tmpl)) path_ = tmpl;
  }
  ~TempDir() {
    if (!path_.empty()) (void)fs::RemoveTree(path_);
  }
  const std::string& path() const { return path_; }
  std::string Write(const std::string& rel, const std::string& data) const {
    std::ofstream(path_ + "/" + rel) << data;
    return path_ + "/" + rel;
  }

 private:
  std::string path_;
};

inline std::string Escaped(const std::string& path) {
  std::string out;
  for (char c : path) out += c == ' ' ? std::string("\\040") : std::string(1, c);
  return out;
}

class CgroupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "cgroups need root";
    std::random_device rd;
    char rnd[16];
    std::snprintf(rnd, sizeof rnd, "%08x", rd());
    parent_ = "sbxtest-" + std::to_string(::getpid()) + "-" + rnd;
    auto tree = CgroupTree::Open(parent_);
    ASSERT_TRUE(tree) << tree.error().message;
    trees_.push_back(std::move(*tree));
  }

  // Kills and removes whatever a test left, then the parent groups.
  void TearDown() override {
    for (const auto& tree : trees_) {
      for (const auto& name : tree.List()) {
        auto killed = tree.KillAll(name, 5s);
        EXPECT_TRUE(killed) << killed.error().message;
        auto removed = tree.Remove(name);
        EXPECT_TRUE(removed) << removed.error().message;
      }
      for (const auto& dir : tree.DirsOf("x"))
        EXPECT_TRUE(::rmdir(Dirname(dir).c_str()) == 0 || errno == ENOENT) << Dirname(dir);
    }
  }

  const CgroupTree& tree() const { return trees_.front(); }

  // The group's directory in the v1 hierarchy that has `file`.
  std::string DirWith(const std::string& name, const std::string& file) const {
    for (const auto& dir : tree().DirsOf(name))
      if (fs::Exists(dir + "/" + file)) return dir;
    return "<no " + file + " in " + name + ">";
  }

  void ExpectEmpty(const CgroupTree& t, const std::string& name) {
    auto pids = t.Processes(name);
    ASSERT_TRUE(pids) << pids.error().message;
    EXPECT_TRUE(pids->empty());
    for (const auto& dir : t.DirsOf(name)) EXPECT_EQ(Slurp(dir + "/cgroup.procs"), "") << dir;
  }

  // Moves the child into the group and lets it run only once every
  // hierarchy lists it, so that a broken AddProcess cannot set a fork loop
  // loose on the host.
  ::testing::AssertionResult Enter(const CgroupTree& t, const std::string& name, Child& child) {
    if (child.pid() <= 0) return ::testing::AssertionFailure() << "fork failed";
    if (auto s = t.AddProcess(name, child.pid()); !s)
      return ::testing::AssertionFailure() << s.error().message;
    for (const auto& dir : t.DirsOf(name)) {
      std::string procs = Slurp(dir + "/cgroup.procs");
      if (procs != std::to_string(child.pid()) + "\n")
        return ::testing::AssertionFailure() << dir << "/cgroup.procs is '" << procs << "'";
    }
    child.Start();
    return ::testing::AssertionSuccess();
  }

  // Polls until the group holds at least `n` processes (10 s at most).
  bool WaitForProcesses(const CgroupTree& t, const std::string& name, std::size_t n) {
    for (int i = 0; i < 1000; ++i) {
      if (auto pids = t.Processes(name); pids && pids->size() >= n) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  std::string parent_;
  std::vector<CgroupTree> trees_;
};

}  // namespace cgroup_testing
}  // namespace sbx::jail
