// One cgroup per sandbox on this machine's real hierarchy: limits, moves,
// kills, removal, and the unified hierarchy for what it offers here.
#include "jail/cgroup_test_util.h"

namespace sbx::jail {
namespace {

using namespace cgroup_testing;  // NOLINT: shared fixture and helpers

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

}  // namespace
}  // namespace sbx::jail
