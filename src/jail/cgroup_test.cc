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

namespace {

using namespace std::chrono_literals;

constexpr char kUnifiedMount[] = "/sys/fs/cgroup/unified";
constexpr std::uint64_t kMiB = 1 << 20;

std::string Slurp(const std::string& path) {
  auto text = fs::ReadFile(path);
  return text ? *text : "<" + text.error().message + ">";
}

// The error code, or nullopt for success (calling error() on it would abort
// the run and skip the cleanup).
template <class R>
std::optional<ErrorCode> CodeOf(const R& result) {
  if (result.ok()) return std::nullopt;
  return result.error().code;
}

std::string Dirname(const std::string& path) { return path.substr(0, path.rfind('/')); }

bool IsDir(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// controller -> cgroup path, from /proc/<pid>/cgroup ("" names the v2 line).
std::map<std::string, std::string> CgroupsOf(pid_t pid) {
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

[[noreturn]] void SleepForever() {
  for (;;) ::pause();
}

// Forks short-lived children without end, at most 8 alive at a time so that
// it stays bounded even in a group without a pids limit.
[[noreturn]] void ForkForever() {
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
void ProcessTree(int report) {
  if (::fork() == 0) SleepForever();
  if (::fork() == 0) ForkForever();
  (void)!::write(report, "r", 1);
  SleepForever();
}

void Touch(std::size_t bytes) {
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

std::string Escaped(const std::string& path) {
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

TEST_F(CgroupTest, OpenPicksV1HereAndCreatesParents) {
  EXPECT_FALSE(tree().unified());
  const std::string base = "/sys/fs/cgroup/";
  const std::string tail = "/" + parent_ + "/g";
  EXPECT_EQ(tree().DirsOf("g"),
            (std::vector<std::string>{base + "memory" + tail, base + "pids" + tail,
                                      base + "cpu" + tail, base + "freezer" + tail}));
  for (const auto& dir : tree().DirsOf("g")) {
    EXPECT_TRUE(IsDir(Dirname(dir))) << dir;
    EXPECT_FALSE(fs::Exists(dir)) << dir;
  }
  // A second instance with the same parent reuses the groups.
  auto again = CgroupTree::Open(parent_);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->DirsOf("g"), tree().DirsOf("g"));
}

TEST_F(CgroupTest, CreateWritesExactLimits) {
  ASSERT_TRUE(tree().Create("g", {256 * kMiB, 37, 250}));
  EXPECT_EQ(Slurp(DirWith("g", "memory.limit_in_bytes") + "/memory.limit_in_bytes"), "268435456\n");
  EXPECT_EQ(Slurp(DirWith("g", "memory.limit_in_bytes") + "/memory.memsw.limit_in_bytes"),
            "268435456\n");
  EXPECT_EQ(Slurp(DirWith("g", "pids.max") + "/pids.max"), "37\n");
  EXPECT_EQ(Slurp(DirWith("g", "cpu.shares") + "/cpu.shares"), "2560\n");
  for (const auto& dir : tree().DirsOf("g")) EXPECT_TRUE(IsDir(dir)) << dir;

  ASSERT_TRUE(tree().Create("low", {4 * kMiB, 1, 1}));
  EXPECT_EQ(Slurp(DirWith("low", "cpu.shares") + "/cpu.shares"), "10\n");
  EXPECT_EQ(Slurp(DirWith("low", "pids.max") + "/pids.max"), "1\n");
  ASSERT_TRUE(tree().Create("high", {kMiB << 10, 100000, 10000}));
  EXPECT_EQ(Slurp(DirWith("high", "cpu.shares") + "/cpu.shares"), "102400\n");

  auto again = tree().Create("g", {});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, ErrorCode::kConflict);
  EXPECT_NE(again.error().message.find("File exists"), std::string::npos) << again.error().message;
  EXPECT_EQ(Slurp(DirWith("g", "pids.max") + "/pids.max"), "37\n");  // left as it was
}

TEST_F(CgroupTest, InvalidNamesAndLimitsAreRefusedAndCreateNothing) {
  const std::string top = Dirname(Dirname(tree().DirsOf("g")[0]));  // the memory mount
  for (const std::string& bad :
       {std::string(), std::string("."), std::string(".."), std::string("a/b"), std::string("a b"),
        std::string("x\n"), std::string("\xc3\xbc"), std::string(101, 'x'),
        "../" + parent_ + "-esc"}) {
    SCOPED_TRACE("name '" + bad + "'");
    auto created = tree().Create(bad, {});
    ASSERT_FALSE(created);
    EXPECT_EQ(created.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(CodeOf(tree().AddProcess(bad, ::getpid())), ErrorCode::kInvalidArgument);
    EXPECT_EQ(CodeOf(tree().Processes(bad)), ErrorCode::kInvalidArgument);
    EXPECT_EQ(CodeOf(tree().KillAll(bad, 1s)), ErrorCode::kInvalidArgument);
    EXPECT_EQ(CodeOf(tree().Remove(bad)), ErrorCode::kInvalidArgument);
    EXPECT_EQ(CodeOf(tree().MemoryUsage(bad)), ErrorCode::kInvalidArgument);
    EXPECT_EQ(CodeOf(tree().OomKills(bad)), ErrorCode::kInvalidArgument);
    EXPECT_TRUE(tree().DirsOf(bad).empty());
    auto opened = CgroupTree::Open(bad);
    ASSERT_FALSE(opened);
    EXPECT_EQ(opened.error().code, ErrorCode::kInvalidArgument);
  }
  EXPECT_FALSE(fs::Exists(Dirname(top) + "/" + parent_ + "-esc"));

  for (const CgroupLimits& bad :
       {CgroupLimits{0, 10, 100}, CgroupLimits{kMiB, 0, 100}, CgroupLimits{kMiB, -1, 100},
        CgroupLimits{kMiB, 10, 0}, CgroupLimits{kMiB, 10, 10001}}) {
    auto created = tree().Create("g", bad);
    ASSERT_FALSE(created);
    EXPECT_EQ(created.error().code, ErrorCode::kInvalidArgument);
  }
  EXPECT_TRUE(tree().List().empty());
  for (const auto& dir : tree().DirsOf("g")) EXPECT_FALSE(fs::Exists(dir)) << dir;

  ASSERT_TRUE(tree().Create(std::string(100, 'x'), {}));  // the longest name is fine
  ASSERT_TRUE(tree().Create("A.b_c-9", {}));
  EXPECT_EQ(tree().List(), (std::vector<std::string>{"A.b_c-9", std::string(100, 'x')}));
}

TEST_F(CgroupTest, AddProcessMovesChildIntoEveryHierarchy) {
  ASSERT_TRUE(tree().Create("g", {}));
  Child child([](int) { SleepForever(); });
  ASSERT_GT(child.pid(), 0);
  const auto before = CgroupsOf(child.pid());
  ASSERT_TRUE(tree().AddProcess("g", child.pid()));

  auto cgroups = CgroupsOf(child.pid());
  for (const char* controller : {"memory", "pids", "cpu", "freezer"})
    EXPECT_EQ(cgroups[controller], "/" + parent_ + "/g") << controller;
  EXPECT_EQ(cgroups["cpuacct"], before.at("cpuacct"));  // not ours, not moved
  auto pids = tree().Processes("g");
  ASSERT_TRUE(pids) << pids.error().message;
  EXPECT_EQ(*pids, std::vector<pid_t>{child.pid()});
  EXPECT_EQ(CgroupsOf(::getpid())["pids"], before.at("pids"));  // the test itself stays out

  auto no_process = tree().AddProcess("g", 0x3ffffff0);
  ASSERT_FALSE(no_process);
  EXPECT_EQ(no_process.error().code, ErrorCode::kNotFound) << no_process.error().message;
  auto no_group = tree().AddProcess("missing", child.pid());
  ASSERT_FALSE(no_group);
  EXPECT_EQ(no_group.error().code, ErrorCode::kNotFound) << no_group.error().message;
  EXPECT_EQ(CodeOf(tree().AddProcess("g", 0)), ErrorCode::kInvalidArgument);
}

TEST_F(CgroupTest, PidsMaxBoundsAForkBomb) {
  ASSERT_TRUE(tree().Create("g", {kMiB << 10, 20, 100}));
  Child child([](int report) {
    int result[2] = {0, 0};  // children forked, errno of the failed fork
    for (int i = 0; i < 1000; ++i) {
      pid_t pid = ::fork();
      if (pid == 0) SleepForever();
      if (pid < 0) {
        result[1] = errno;
        break;
      }
      ++result[0];
    }
    (void)!::write(report, result, sizeof result);
    SleepForever();
  });
  ASSERT_TRUE(Enter(tree(), "g", child));
  int result[2] = {-1, -1};
  ASSERT_TRUE(child.Read(result, sizeof result));
  EXPECT_EQ(result[0], 19);  // the child itself is the 20th task
  EXPECT_EQ(result[1], EAGAIN);
  EXPECT_EQ(Slurp(DirWith("g", "pids.max") + "/pids.current"), "20\n");
  auto pids = tree().Processes("g");
  ASSERT_TRUE(pids);
  EXPECT_EQ(pids->size(), 20u);
  EXPECT_TRUE(std::is_sorted(pids->begin(), pids->end()));
}

TEST_F(CgroupTest, KillAllKillsATreeThatKeepsForking) {
  ASSERT_TRUE(tree().Create("g", {kMiB << 10, 64, 100}));
  Child child(ProcessTree);
  ASSERT_TRUE(Enter(tree(), "g", child));
  char ready = 0;
  ASSERT_TRUE(child.Read(&ready, 1));
  ASSERT_TRUE(WaitForProcesses(tree(), "g", 4));  // child, sleeper, forker, a forked one

  auto killed = tree().KillAll("g", 5s);
  ASSERT_TRUE(killed) << killed.error().message;
  ExpectEmpty(tree(), "g");
  EXPECT_EQ(Slurp(DirWith("g", "freezer.state") + "/freezer.state"), "THAWED\n");
  int status = child.Wait();
  ASSERT_NE(status, -1);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;

  EXPECT_TRUE(tree().KillAll("g", 1s));  // nothing left is success
  // A group already gone, or half removed by a crash, has nothing to kill.
  EXPECT_TRUE(tree().KillAll("missing", 1s));
  ASSERT_TRUE(tree().Create("half", {}));
  ASSERT_EQ(::rmdir(DirWith("half", "pids.max").c_str()), 0);
  EXPECT_TRUE(tree().KillAll("half", 1s));
  EXPECT_TRUE(tree().Remove("half"));
}

TEST_F(CgroupTest, RemoveRefusesWhileProcessesRemainThenRemovesEveryDir) {
  ASSERT_TRUE(tree().Create("g", {}));
  Child child([](int) { SleepForever(); });
  ASSERT_TRUE(tree().AddProcess("g", child.pid()));

  auto busy = tree().Remove("g");
  ASSERT_FALSE(busy);
  EXPECT_EQ(busy.error().message,
            "cgroup " + DirWith("g", "pids.max") + " still has processes (1); kill them first");
  for (const auto& dir : tree().DirsOf("g")) EXPECT_TRUE(IsDir(dir)) << dir;

  ASSERT_TRUE(tree().KillAll("g", 5s));
  auto removed = tree().Remove("g");
  ASSERT_TRUE(removed) << removed.error().message;
  for (const auto& dir : tree().DirsOf("g")) EXPECT_FALSE(fs::Exists(dir)) << dir;
  EXPECT_TRUE(tree().List().empty());
  EXPECT_TRUE(tree().Remove("g"));  // missing is Ok
}

TEST_F(CgroupTest, ListShowsGroupsIncludingHalfRemovedOnes) {
  EXPECT_TRUE(tree().List().empty());
  for (const char* name : {"c", "a", "b"}) ASSERT_TRUE(tree().Create(name, {}));
  EXPECT_EQ(tree().List(), (std::vector<std::string>{"a", "b", "c"}));

  ASSERT_EQ(::rmdir(DirWith("b", "pids.max").c_str()), 0);  // as if a Remove was cut short
  EXPECT_EQ(tree().List(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(CodeOf(tree().Processes("b")), ErrorCode::kNotFound);
  ASSERT_TRUE(tree().Remove("b"));
  for (const auto& dir : tree().DirsOf("b")) EXPECT_FALSE(fs::Exists(dir)) << dir;
  EXPECT_EQ(tree().List(), (std::vector<std::string>{"a", "c"}));
}

TEST_F(CgroupTest, MemoryUsageCountsWhatAChildTouches) {
  ASSERT_TRUE(tree().Create("g", {}));
  auto empty = tree().MemoryUsage("g");
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_EQ(*empty, 0u);

  Child child([](int report) {
    Touch(32 * kMiB);
    (void)!::write(report, "r", 1);
    SleepForever();
  });
  ASSERT_TRUE(Enter(tree(), "g", child));
  char ready = 0;
  ASSERT_TRUE(child.Read(&ready, 1));
  auto used = tree().MemoryUsage("g");
  ASSERT_TRUE(used) << used.error().message;
  EXPECT_GE(*used, 32 * kMiB);
  EXPECT_LT(*used, 48 * kMiB);
  EXPECT_EQ(CodeOf(tree().MemoryUsage("missing")), ErrorCode::kNotFound);
}

TEST_F(CgroupTest, MemoryLimitOomKillsOnlyTheChild) {
  ASSERT_TRUE(tree().Create("g", {16 * kMiB, 64, 100}));
  auto none = tree().OomKills("g");
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_EQ(*none, 0u);

  Child child([](int) { Touch(64 * kMiB); });
  ASSERT_TRUE(Enter(tree(), "g", child));
  int status = child.Wait();
  ASSERT_NE(status, -1);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  auto kills = tree().OomKills("g");
  ASSERT_TRUE(kills) << kills.error().message;
  EXPECT_EQ(*kills, 1u);
  EXPECT_NE(CgroupsOf(::getpid())["memory"], "/" + parent_ + "/g");  // we were never at risk
  EXPECT_EQ(CodeOf(tree().OomKills("missing")), ErrorCode::kNotFound);
}

TEST_F(CgroupTest, UnifiedHierarchyMovesKillsAndRemoves) {
  if (!fs::Exists(std::string(kUnifiedMount) + "/cgroup.procs"))
    GTEST_SKIP() << "no cgroup2 mount at " << kUnifiedMount;
  trees_.push_back(CgroupTreeTestPeer::Unified(kUnifiedMount, parent_));
  const CgroupTree& v2 = trees_.back();
  ASSERT_EQ(::mkdir((std::string(kUnifiedMount) + "/" + parent_).c_str(), 0755), 0);
  ASSERT_EQ(v2.DirsOf("g"),
            std::vector<std::string>{std::string(kUnifiedMount) + "/" + parent_ + "/g"});
  const std::string dir = v2.DirsOf("g")[0];

  // Without the memory controller there is no memory.max: Create must fail
  // and take its directory back.
  auto created = v2.Create("g", {});
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().message,
            "write '1073741824' to " + dir + "/memory.max: No such file or directory");
  EXPECT_FALSE(fs::Exists(dir));

  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  Child child(ProcessTree);
  ASSERT_TRUE(Enter(v2, "g", child));
  EXPECT_EQ(CgroupsOf(child.pid())[""], "/" + parent_ + "/g");
  char ready = 0;
  ASSERT_TRUE(child.Read(&ready, 1));
  ASSERT_TRUE(WaitForProcesses(v2, "g", 4));
  EXPECT_EQ(v2.List(), std::vector<std::string>{"g"});

  auto killed = v2.KillAll("g", 5s);
  ASSERT_TRUE(killed) << killed.error().message;
  ExpectEmpty(v2, "g");
  EXPECT_NE(Slurp(dir + "/cgroup.events").find("populated 0\n"), std::string::npos);
  int status = child.Wait();
  ASSERT_NE(status, -1);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;

  auto removed = v2.Remove("g");
  ASSERT_TRUE(removed) << removed.error().message;
  EXPECT_FALSE(fs::Exists(dir));
  EXPECT_TRUE(v2.List().empty());
}

TEST_F(CgroupTest, OpenRefusesCgroup2WithoutControllers) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string mountinfo =
      tmp.Write("mountinfo", std::string("41 31 0:38 / ") + kUnifiedMount +
                                 " rw,relatime - cgroup2 cgroup2 rw\n");
  auto opened = CgroupTree::Open(parent_ + "-v2", mountinfo);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::kInternal);
  EXPECT_EQ(opened.error().message,
            "no usable cgroup hierarchy in " + mountinfo + ": cgroup2 at " + kUnifiedMount +
                " lacks memory, pids, cpu, no cgroup v1 mount of " + "memory, pids, cpu");
  EXPECT_FALSE(fs::Exists(std::string(kUnifiedMount) + "/" + parent_ + "-v2"));
}

TEST_F(CgroupTest, OpenFailsClearlyWithoutCgroupMounts) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string mountinfo =
      tmp.Write("mountinfo",
                "22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:5 - proc proc rw\n"
                "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
                "32 31 0:29 / /sys/fs/cgroup/memory rw,relatime - tmpfs cgroup rw,memory\n");
  auto opened = CgroupTree::Open(parent_, mountinfo);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::kInternal);
  EXPECT_EQ(opened.error().message,
            "no usable cgroup hierarchy in " + mountinfo +
                ": no cgroup2 mount, no cgroup v1 mount of memory, pids, cpu");

  auto missing = CgroupTree::Open(parent_, tmp.path() + "/nothing");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find(tmp.path() + "/nothing"), std::string::npos);
}

// Open's parsing on plain directories standing in for cgroup mounts: the
// layouts of other hosts (shared mounts, escaped paths, a capable cgroup2).
TEST_F(CgroupTest, OpenReadsOtherHostLayouts) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string t = tmp.path();
  for (const char* d : {"cpu,cpuacct", "mp", "systemd", "v2"})
    ASSERT_EQ(::mkdir((t + "/" + d).c_str(), 0755), 0);
  const std::string v1 = "35 31 0:40 / " + Escaped(t) +
                         "/cpu,cpuacct rw,nosuid shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
                         "36 31 0:41 / " +
                         Escaped(t) +
                         "/mp rw master:3 shared:10 - cgroup cgroup rw,memory,pids\n"
                         "37 31 0:42 / " +
                         Escaped(t) + "/systemd rw - cgroup cgroup rw,xattr,name=systemd\n";
  auto opened = CgroupTree::Open("p", tmp.Write("v1", v1));
  ASSERT_TRUE(opened) << opened.error().message;
  EXPECT_FALSE(opened->unified());
  EXPECT_EQ(opened->DirsOf("g"), (std::vector<std::string>{t + "/mp/p/g", t + "/cpu,cpuacct/p/g"}));
  EXPECT_TRUE(IsDir(t + "/mp/p"));
  EXPECT_TRUE(IsDir(t + "/cpu,cpuacct/p"));
  EXPECT_FALSE(fs::Exists(t + "/systemd/p"));

  // A cgroup2 mount with the controllers wins over v1 and gets them enabled
  // down to the parent.
  tmp.Write("v2/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
  tmp.Write("v2/cgroup.subtree_control", "");
  ASSERT_EQ(::mkdir((t + "/v2/q").c_str(), 0755), 0);
  tmp.Write("v2/q/cgroup.subtree_control", "");
  auto unified = CgroupTree::Open(
      "q", tmp.Write("v2.mountinfo", v1 + "38 31 0:43 / " + Escaped(t) +
                                         "/v2 rw - cgroup2 cgroup2 rw,nsdelegate\n"));
  ASSERT_TRUE(unified) << unified.error().message;
  EXPECT_TRUE(unified->unified());
  EXPECT_EQ(unified->DirsOf("g"), std::vector<std::string>{t + "/v2/q/g"});
  EXPECT_EQ(Slurp(t + "/v2/cgroup.subtree_control"), "+memory +pids +cpu");
  EXPECT_EQ(Slurp(t + "/v2/q/cgroup.subtree_control"), "+memory +pids +cpu");
  EXPECT_FALSE(fs::Exists(t + "/mp/q"));
}

}  // namespace
}  // namespace sbx::jail
