// Spawns real jails with the real sandbox-agent (needs root, as sandboxd does).
#include "jail/spawn.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "agent/client.h"
#include "core/fs.h"
#include "core/ids.h"
#include "jail/overlay.h"

namespace sbx::jail {
namespace {

constexpr uid_t kHostUid = 1'900'000'000;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class SpawnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/sbx-spawn-" + ids::RandomToken(6);
    for (const char* d : {"", "/root", "/lower", "/upper", "/work", "/exec"})
      ASSERT_TRUE(fs::MakeDirs(dir_ + d, 0755));
    for (const char* d : {"/upper", "/exec"}) ASSERT_EQ(::chown((dir_ + d).c_str(), kHostUid, kHostUid), 0);
    auto tree = CgroupTree::Open("sbxtest-spawn-" + std::to_string(::getpid()));
    ASSERT_TRUE(tree) << tree.error().message;
    tree_ = std::make_unique<CgroupTree>(std::move(*tree));
    auto listen = agent::ListenAt(dir_ + "/agent.sock");
    ASSERT_TRUE(listen) << listen.error().message;
    listen_fd_ = *listen;
  }
  void TearDown() override {
    jail_.Close();
    if (tree_) {
      for (const auto& name : tree_->List()) EXPECT_TRUE(DestroyJail(*tree_, name));
      while (::waitpid(-1, nullptr, WNOHANG) > 0) {
      }
      EXPECT_TRUE(tree_->RemoveParent());
    }
    if (listen_fd_ >= 0) ::close(listen_fd_);
    EXPECT_TRUE(fs::RemoveTree(dir_));
  }
  SpawnRequest Request() {
    SpawnRequest r;
    r.spec.root_dir = dir_ + "/root";
    r.spec.data = Layers{dir_ + "/lower", dir_ + "/upper", dir_ + "/work"};
    r.spec.exec_dir = dir_ + "/exec";
    r.spec.host_uid = kHostUid;
    r.spec.host_gid = kHostUid;
    r.agent_path = SANDBOX_AGENT_PATH;
    r.cgroup_name = "jail1";
    r.listen_fd = listen_fd_;
    return r;
  }
  // Runs `script` with sh inside the jail and returns its output.
  std::string Run(const std::string& script, const std::string& name = "t") {
    std::string log = dir_ + "/" + name + ".log";
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    agent::AgentClient client(dir_ + "/agent.sock");
    Json params = {{"name", name}, {"cwd", "/"}, {"env", {"PATH=/usr/bin:/bin"}},
                   {"steps", {{{"argv", {"/bin/sh", "-c", script}}, {"phase", "running"}}}}};
    auto started = client.Call("exec.start", params, {fd});
    ::close(fd);
    EXPECT_TRUE(started) << started.error().message;
    for (int i = 0; i < 500; ++i) {
      auto st = client.Call("exec.status", {{"name", name}});
      if (st && (*st)["status"] != "running") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return Slurp(log);
  }

  std::string dir_;
  std::unique_ptr<CgroupTree> tree_;
  int listen_fd_ = -1;
  JailProcess jail_;
};

TEST_F(SpawnTest, AgentAnswersHealthAsPidOne) {
  auto jail = SpawnJail(*tree_, Request());
  ASSERT_TRUE(jail) << jail.error().message;
  jail_ = std::move(*jail);
  agent::AgentClient client(dir_ + "/agent.sock");
  auto health = client.Call("health", Json::object());
  ASSERT_TRUE(health) << health.error().message;
  EXPECT_EQ((*health)["status"], "ok");
  EXPECT_EQ((*health)["pid"], 1);
  auto procs = tree_->Processes("jail1");
  ASSERT_TRUE(procs);
  EXPECT_EQ(*procs, std::vector<pid_t>{jail_.pid()});
}

TEST_F(SpawnTest, InsideIsRootMappedToTheHostUidWithNoCapabilities) {
  auto jail = SpawnJail(*tree_, Request());
  ASSERT_TRUE(jail) << jail.error().message;
  jail_ = std::move(*jail);
  std::string out = Run(
      "id -u; hostname; cat /proc/self/uid_map | tr -s ' '; grep CapEff /proc/self/status; "
      "grep NoNewPrivs /proc/self/status; grep Seccomp: /proc/self/status; ls /");
  // The top level is fixed, plus whichever of the host's /bin, /lib… exist.
  std::string listing;
  for (const char* name : {"bin", "data", "dev", "etc", "exec", "home", "lib", "lib32", "lib64", "libx32",
                           "mnt", "opt", "proc", "root", "run", "sbin", "srv", "tmp", "usr", "var"}) {
    bool mirrored = std::string("bin lib lib32 lib64 libx32 sbin").find(name) != std::string::npos;
    if (!mirrored || fs::Exists(std::string("/") + name)) listing += std::string(name) + "\n";
  }
  EXPECT_EQ(out, "0\nsandbox\n 0 1900000000 1\nCapEff:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n" + listing);
}

TEST_F(SpawnTest, WritesToDataLandInTheUpperLayerOwnedByTheHostUid) {
  ASSERT_TRUE(fs::WriteFileAtomic(dir_ + "/lower/seed.txt", "seed\n", 0644));
  ASSERT_EQ(::chown((dir_ + "/lower/seed.txt").c_str(), kHostUid, kHostUid), 0);
  auto jail = SpawnJail(*tree_, Request());
  ASSERT_TRUE(jail) << jail.error().message;
  jail_ = std::move(*jail);
  EXPECT_EQ(Run("cat /data/seed.txt; echo new > /data/new.txt; echo more >> /data/seed.txt; echo ok"), "seed\nok\n");
  struct stat st{};
  ASSERT_EQ(::stat((dir_ + "/upper/new.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, kHostUid);
  EXPECT_EQ(Slurp(dir_ + "/upper/seed.txt"), "seed\nmore\n");
  EXPECT_EQ(Slurp(dir_ + "/lower/seed.txt"), "seed\n");
}

TEST_F(SpawnTest, RemountSwapsTheLayersUnderARunningJail) {
  auto jail = SpawnJail(*tree_, Request());
  ASSERT_TRUE(jail) << jail.error().message;
  jail_ = std::move(*jail);
  EXPECT_EQ(Run("echo old > /data/a; ls /data", "a"), "a\n");
  for (const char* d : {"/lower2", "/upper2", "/work2"}) ASSERT_TRUE(fs::MakeDirs(dir_ + d, 0755));
  ASSERT_EQ(::chown((dir_ + "/upper2").c_str(), kHostUid, kHostUid), 0);
  ASSERT_TRUE(fs::WriteFileAtomic(dir_ + "/lower2/b", "b\n", 0644));
  auto s = RemountData(jail_, Layers{dir_ + "/lower2", dir_ + "/upper2", dir_ + "/work2"});
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(Run("ls /data; cat /proc/mounts | grep -c ' /data '", "b"), "b\n1\n");
}

TEST_F(SpawnTest, AttachFindsTheRunningAgentThroughItsCgroup) {
  auto jail = SpawnJail(*tree_, Request());
  ASSERT_TRUE(jail) << jail.error().message;
  jail_ = std::move(*jail);
  Run("sleep 30 & echo started", "bg");
  auto found = AttachJail(*tree_, "jail1");
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->pid(), jail_.pid());
}

TEST_F(SpawnTest, DestroyLeavesNoProcessAndNoCgroup) {
  auto jail = SpawnJail(*tree_, Request());
  ASSERT_TRUE(jail) << jail.error().message;
  jail_ = std::move(*jail);
  Run("sleep 100 & sleep 100 & echo ok", "bg");
  pid_t agent_pid = jail_.pid();
  ASSERT_TRUE(DestroyJail(*tree_, "jail1"));
  ::waitpid(agent_pid, nullptr, 0);
  EXPECT_NE(::kill(agent_pid, 0), 0);
  EXPECT_TRUE(tree_->List().empty());
  for (const auto& d : tree_->DirsOf("jail1")) EXPECT_FALSE(fs::Exists(d)) << d;
}

TEST_F(SpawnTest, AFailedStartLeavesNothingBehind) {
  SpawnRequest r = Request();
  r.spec.data.lower = dir_ + "/does-not-exist";
  auto jail = SpawnJail(*tree_, r);
  ASSERT_FALSE(jail);
  EXPECT_NE(jail.error().message.find("overlay"), std::string::npos) << jail.error().message;
  EXPECT_TRUE(tree_->List().empty());
}

}  // namespace
}  // namespace sbx::jail
