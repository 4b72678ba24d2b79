// Jails: starting, stopping, re-attaching and watching real jails (the real
// sandbox-agent) from a sandbox's workspace.
#include "sandbox/jails.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/ids.h"
#include "sandbox/sandbox_test_util.h"

namespace sbx::sandbox {
namespace {

using testing::ListTree;
using testing::ReadAll;
using testing::TempDir;
using testing::WriteFile;
using Tree = std::vector<std::string>;

constexpr uid_t kBase = 1'100'000'000;

class JailsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(Open()); }
  void TearDown() override {
    jails_.reset();
    EXPECT_TRUE(testing::DestroyCgroupParent(parent_));
  }

  void Open(uid_t uid_count = 1000) {
    JailConfig c;
    c.agent_path = SANDBOX_AGENT_PATH;
    c.cgroup_parent = parent_;
    c.limits.memory_bytes = 256ull << 20;
    c.limits.pids = 64;
    c.tmp_bytes = 8ull << 20;
    c.uid_base = kBase;
    c.uid_count = uid_count;
    auto j = Jails::Open(c, [this](const std::string& id) {
      std::lock_guard lock(mu_);
      deaths_.push_back(id);
    });
    ASSERT_TRUE(j.ok()) << j.error().message;
    jails_ = std::move(j).value();
  }
  Tree Deaths() {
    std::lock_guard lock(mu_);
    return deaths_;
  }
  // A new workspace for sandbox `id`, owned by `uid`.
  Workspace NewWorkspace(const std::string& id, uid_t uid) {
    Workspace ws(dir_ / id);
    Status s = ws.Create(uid);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return ws;
  }
  std::string StartNew(uid_t uid = kBase) {
    std::string id = ids::NewUuid();
    Workspace ws = NewWorkspace(id, uid);
    Status s = jails_->Start(id, ws);
    EXPECT_TRUE(s.ok()) << s.error().message;
    return id;
  }
  pid_t AgentPid(const std::string& id) {
    auto pids = jails_->cgroups().Processes(id);
    return pids && pids->size() == 1 ? pids->front() : -1;
  }
  std::string Run(const std::string& id, const std::string& script) {
    std::string name = "t" + std::to_string(++runs_);
    std::string log = dir_ / (name + ".log");
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    Json params = {{"name", name}, {"cwd", "/"}, {"env", {"PATH=/usr/bin:/bin"}},
                   {"steps", {{{"argv", {"/bin/sh", "-c", script}}, {"phase", "running"}}}}};
    auto started = jails_->Call(id, "exec.start", params, {fd});
    ::close(fd);
    if (!started) return "<" + started.error().message + ">";
    for (int i = 0; i < 1000; ++i) {
      auto st = jails_->Call(id, "exec.status", {{"name", name}});
      if (!st || (*st)["status"] != "running") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return ReadAll(log);
  }
  std::string NotRunning(const std::string& id) {
    return "The agent of local sandbox " + id +
           " is not running (status error); reset or initialize the sandbox to start a new one";
  }

  TempDir dir_;
  std::string parent_ = "sbxtest-jails-" + std::to_string(::getpid()) + "-" + ids::RandomToken(6);
  std::unique_ptr<Jails> jails_;
  std::mutex mu_;
  Tree deaths_;
  int runs_ = 0;
};

TEST_F(JailsTest, StartRunsTheAgentAsPidOneAloneInItsCgroup) {
  std::string id = StartNew();
  EXPECT_TRUE(jails_->Running(id));
  auto health = jails_->Call(id, "health", Json::object());
  ASSERT_TRUE(health.ok()) << health.error().message;
  EXPECT_EQ((*health)["status"], "ok");
  EXPECT_EQ((*health)["pid"], 1);
  EXPECT_EQ((*health)["running_executions"], 0);
  EXPECT_EQ(jails_->cgroups().List(), Tree{id});
  EXPECT_GT(AgentPid(id), 0);
  EXPECT_EQ(Run(id, "id -u; hostname; ls -A /data; ls -ld /exec | cut -c1-10"), "0\nsandbox\ndrwxr-xr-x\n");
  EXPECT_EQ(Deaths(), Tree{});
}

TEST_F(JailsTest, StopKillsEverythingRemovesTheGroupAndIsNoDeath) {
  std::string id = StartNew();
  pid_t agent = AgentPid(id);
  ASSERT_GT(agent, 0);
  std::vector<std::string> dirs = jails_->cgroups().DirsOf(id);
  ASSERT_TRUE(jails_->Stop(id).ok());
  EXPECT_FALSE(jails_->Running(id));
  // Our child, reaped: not even a zombie is left.
  EXPECT_FALSE(testing::ProcessExists(agent)) << agent;
  for (const auto& d : dirs) EXPECT_FALSE(fs::Exists(d)) << d;
  EXPECT_EQ(jails_->cgroups().List(), Tree{});
  testing::ExpectError(jails_->Call(id, "health", Json::object()), ErrorCode::kConflict, NotRunning(id));
  testing::ExpectError(jails_->DupRootFd(id), ErrorCode::kConflict, NotRunning(id));
  testing::ExpectError(jails_->RemountData(id, jail::Layers{"/a", "/b", "/c"}), ErrorCode::kConflict,
                       NotRunning(id));
  EXPECT_TRUE(jails_->Stop(id).ok());
  EXPECT_TRUE(jails_->Stop(ids::NewUuid()).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(Deaths(), Tree{});
}

TEST_F(JailsTest, StopReapsTheAgentEvenWhenItIsStillExitingAfterLeavingItsGroup) {
  // BUG (src/sandbox/jails.cc, Jails::Stop): Stop reaps with
  // waitid(P_PIDFD, …, WEXITED | WNOHANG) right after DestroyJail. But an
  // agent leaves its cgroup (cgroup_exit) before it becomes a zombie
  // (exit_notify, where pid 1 of a pid namespace first waits for every other
  // process of the namespace to be reaped), so DestroyJail can return while
  // the agent is still exiting; the WNOHANG wait then finds nothing, the
  // entry (and its pidfd) is dropped, and nobody ever reaps the agent: one
  // zombie per unlucky release, for the life of sandboxd. Under stress
  // (8 jails with background processes, stopped 240 times) this happened
  // once; here the window is widened deterministically by a process of the
  // jail's pid namespace that sits outside the jail's cgroup and whose
  // parent reaps it only 300 ms after it was killed.
  std::string id = StartNew();
  pid_t agent = AgentPid(id);
  ASSERT_GT(agent, 0);
  int pidns = ::open(("/proc/" + std::to_string(agent) + "/ns/pid").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(pidns, 0);
  int ready[2];
  ASSERT_EQ(::pipe2(ready, O_CLOEXEC), 0);
  pid_t helper = ::fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    if (::setns(pidns, CLONE_NEWPID) != 0) ::_exit(1);
    pid_t inside = ::fork();
    if (inside < 0) ::_exit(2);
    if (inside == 0) {
      for (;;) ::pause();
    }
    if (::write(ready[1], "x", 1) != 1) ::_exit(3);
    siginfo_t info{};
    // Killed with the namespace when the agent exits; reaped 300 ms later.
    if (::waitid(P_PID, static_cast<id_t>(inside), &info, WEXITED | WNOWAIT) != 0) ::_exit(4);
    struct timespec delay{0, 300'000'000};
    ::nanosleep(&delay, nullptr);
    ::waitpid(inside, nullptr, 0);
    ::_exit(0);
  }
  ::close(ready[1]);
  ::close(pidns);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);

  ASSERT_TRUE(jails_->Stop(id).ok());
  EXPECT_FALSE(jails_->Running(id));
  EXPECT_EQ(jails_->cgroups().List(), Tree{});
  int status = 0;
  ASSERT_EQ(::waitpid(helper, &status, 0), helper);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(testing::ProcessExists(agent)) << "agent " << agent << " left as a zombie";
}

TEST_F(JailsTest, AnAgentDeathIsReportedOnceAndReaped) {
  std::string a = StartNew(kBase);
  std::string b = StartNew(kBase + 1);
  pid_t agent = AgentPid(a);
  ASSERT_EQ(::kill(agent, SIGKILL), 0);
  for (int i = 0; i < 500 && Deaths().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Deaths(), Tree{a});
  EXPECT_FALSE(jails_->Running(a));
  EXPECT_TRUE(jails_->Running(b));
  for (int i = 0; i < 100 && testing::ProcessExists(agent); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(testing::ProcessExists(agent));
  testing::ExpectError(jails_->Call(a, "health", Json::object()), ErrorCode::kConflict, NotRunning(a));
  // Stopping the dead jail removes its group; no second report.
  ASSERT_TRUE(jails_->Stop(a).ok());
  EXPECT_EQ(jails_->cgroups().List(), Tree{b});
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(Deaths(), Tree{a});
}

TEST_F(JailsTest, AttachFindsTheJailAfterARestart) {
  std::string id = StartNew();
  pid_t agent = AgentPid(id);
  EXPECT_EQ(Run(id, "echo kept > /data/f; echo ok"), "ok\n");
  jails_.reset();  // the jail keeps running
  ASSERT_NO_FATAL_FAILURE(Open());
  EXPECT_FALSE(jails_->Running(id));
  ASSERT_TRUE(jails_->Attach(id, Workspace(dir_ / id)).ok());
  EXPECT_TRUE(jails_->Running(id));
  EXPECT_EQ(AgentPid(id), agent);
  EXPECT_EQ(Run(id, "cat /data/f"), "kept\n");
  // Watched by the new instance.
  ASSERT_EQ(::kill(agent, SIGKILL), 0);
  for (int i = 0; i < 500 && Deaths().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(Deaths(), Tree{id});
}

TEST_F(JailsTest, AttachWithoutAJailIsNotFound) {
  std::string id = ids::NewUuid();
  Workspace ws = NewWorkspace(id, kBase);
  testing::ExpectCode(jails_->Attach(id, ws), ErrorCode::kNotFound);
  EXPECT_FALSE(jails_->Running(id));
}

TEST_F(JailsTest, AFailedStartLeavesNothingBehind) {
  std::string id = ids::NewUuid();
  Workspace ws = NewWorkspace(id, kBase);
  auto state = ws.ReadLayers();
  ASSERT_TRUE(state.ok());
  state->lower = "base-missing";
  ASSERT_TRUE(ws.WriteLayers(*state).ok());
  Status s = jails_->Start(id, ws);
  ASSERT_FALSE(s.ok());
  EXPECT_FALSE(jails_->Running(id));
  EXPECT_EQ(jails_->cgroups().List(), Tree{});
  // A workspace without layers.json cannot start either.
  ASSERT_EQ(::unlink((ws.root() + "/layers.json").c_str()), 0);
  EXPECT_FALSE(jails_->Start(id, ws).ok());
  EXPECT_EQ(jails_->cgroups().List(), Tree{});
}

TEST_F(JailsTest, RemountDataSwapsTheLayersUnderTheRunningAgent) {
  std::string id = StartNew();
  pid_t agent = AgentPid(id);
  Workspace ws(dir_ / id);
  EXPECT_EQ(Run(id, "echo old > /data/a; ls /data"), "a\n");
  auto staging = ws.NewStagingDir();
  ASSERT_TRUE(staging.ok());
  WriteFile(*staging + "/b", "b\n");
  ASSERT_TRUE(ChownTree(*staging, kBase).ok());
  auto base = ws.AdoptBase(*staging);
  auto upper = ws.NewLayer("upper", kBase);
  auto work = ws.NewLayer("work", kBase);
  ASSERT_TRUE(base.ok() && upper.ok() && work.ok());
  LayerState next{kBase, *base, *upper, *work, false};
  ASSERT_TRUE(jails_->RemountData(id, ws.LayerPaths(next)).ok());
  EXPECT_EQ(Run(id, "ls /data; cat /data/b; grep -c ' /data ' /proc/mounts"), "b\nb\n1\n");
  EXPECT_EQ(AgentPid(id), agent);
  // Bad layers: refused, the old ones stay mounted.
  Status bad = jails_->RemountData(id, jail::Layers{ws.layers_dir() + "/nope", ws.layers_dir() + "/" + *upper,
                                                    ws.layers_dir() + "/" + *work});
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(Run(id, "ls /data"), "b\n");
}

TEST_F(JailsTest, DupRootFdIsTheJailsRoot) {
  std::string id = StartNew();
  EXPECT_EQ(Run(id, "echo x > /data/inside; echo ok"), "ok\n");
  auto fd = jails_->DupRootFd(id);
  ASSERT_TRUE(fd.ok()) << fd.error().message;
  EXPECT_EQ(::faccessat(*fd, "data/inside", F_OK, 0), 0);
  EXPECT_EQ(::faccessat(*fd, "exec", F_OK, 0), 0);
  // Not the host's root: the sandboxd data dir is not in there.
  EXPECT_NE(::faccessat(*fd, (dir_.path().substr(1) + "/" + id + "/layers.json").c_str(), F_OK, 0), 0);
  ::close(*fd);
}

TEST_F(JailsTest, AllocateUidSkipsTheUidsOfRunningJails) {
  jails_.reset();
  ASSERT_NO_FATAL_FAILURE(Open(2));
  StartNew(kBase);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(jails_->AllocateUid(), kBase + 1);
  jails_.reset();
  ASSERT_NO_FATAL_FAILURE(Open(1000));
  for (int i = 0; i < 32; ++i) {
    uid_t uid = jails_->AllocateUid();
    EXPECT_GE(uid, kBase);
    EXPECT_LT(uid, kBase + 1000);
  }
}

}  // namespace
}  // namespace sbx::sandbox
