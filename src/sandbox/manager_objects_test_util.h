// Shared by the manager tests of objects and of recovery: the fixture
// (one acquired sandbox) and its helpers.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>
#include "core/ids.h"
#include "sandbox/manager.h"
#include "sandbox/sandbox_test_util.h"

namespace sbx::sandbox::objects_testing {

using testing::ArchiveMembers;
using testing::kStart;
using testing::ListTree;
using testing::ObjectUrl;
using testing::ParseObjectUrl;
using testing::ReadAll;
using testing::TarWriter;
using testing::TopLevel;
using testing::WriteFile;
using Tree = std::vector<std::string>;

inline constexpr std::int64_t kStartSeconds = kStart / 1'000'000;

inline const Tree kLayout = {"d dumps",  "d exec",    "d executions",  "d layers",     "d root",
                      "d tmp",    "d uploads", "f agent.log",   "f layers.json", "o agent.sock"};

// True while `pid` runs (exists and is not a zombie).
inline bool Runs(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  std::size_t paren = line.rfind(')');
  return paren != std::string::npos && paren + 2 < line.size() && line[paren + 2] != 'Z';
}

inline bool WaitUntilStopped(pid_t pid) {
  for (int i = 0; i < 500; ++i) {
    if (!Runs(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class ManagerObjectsTest : public testing::ManagerTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(testing::ManagerTest::SetUp());
    sb_ = Acquire("alice");
    root_ = SandboxDir(sb_.id);
  }

  // The sandbox gets a.txt by initialize and b.txt from a process inside,
  // then sandboxd "crashes" (its Manager and Jails go, the jail stays).
  void WorkThenCrash(pid_t& agent, std::string& layers) {
    Initialize("alice", sb_.id, [](TarWriter& w) { w.File("a.txt", "A"); });
    EXPECT_EQ(RunIn(sb_.id, "echo b > /data/b.txt; echo ok"), "ok\n");
    agent = AgentPid(sb_.id);
    ASSERT_GT(agent, 0);
    layers = LayersJson(sb_.id);
    ASSERT_NO_FATAL_FAILURE(Crash());
  }

  Status Verify(const std::string& method, const ObjectUrl& u) {
    return manager_->VerifyObjectUrl(method, u.sandbox_id, u.object_id, u.expires, u.signature);
  }
  void ExpectError(const Status& s, ErrorCode code, const std::string& message) {
    testing::ExpectError(s, code, message);
  }
  std::string Data() { return DataTree(sb_.id); }
  // Sorted names of `state`'s layers.
  static Tree NamesOf(const LayerState& state) {
    Tree t = {state.lower, state.upper, state.work};
    std::sort(t.begin(), t.end());
    return t;
  }

  store::SandboxRecord sb_;
  std::string root_;
};

}  // namespace sbx::sandbox::objects_testing
