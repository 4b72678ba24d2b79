// Manager: getting a sandbox ready for its first MCP request off that
// request's path. The listener hears of started jails and hand-overs; a
// pooled agent warms its servers while it waits, a handed-over one builds
// those it was acquired with.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sandbox/manager.h"
#include "sandbox/sandbox_test_util.h"
#include "store/store_test_util.h"

namespace sbx::sandbox {
namespace {

using namespace std::chrono_literals;
using Names = std::vector<std::string>;

// What the gateway would hear, in order.
class RecordingListener final : public HandOverListener {
 public:
  void JailStarted(const std::string& id) override {
    std::lock_guard lock(mu_);
    events_.push_back("started " + id);
  }
  void HandedOver(const store::SandboxRecord& record, std::uint64_t epoch) override {
    std::lock_guard lock(mu_);
    events_.push_back("handed " + record.id + " " + std::to_string(epoch));
    records_.push_back(record);
  }
  std::vector<std::string> Events() {
    std::lock_guard lock(mu_);
    return events_;
  }
  std::vector<store::SandboxRecord> Records() {
    std::lock_guard lock(mu_);
    return records_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> events_;
  std::vector<store::SandboxRecord> records_;
};

class HandOverTest : public testing::ManagerTest {
 protected:
  ManagerConfig Config() override {
    ManagerConfig c = ManagerTest::Config();
    c.pool_size = pool_size_;
    return c;
  }
  void TearDown() override {
    if (manager_) manager_->SetHandOverListener(nullptr);
    ManagerTest::TearDown();
  }
  // The agent's health answer once `done` holds for it, or after 10 s.
  template <class Done>
  Json HealthOnce(const std::string& id, Done done) {
    Json health;
    for (int i = 0; i < 1000; ++i) {
      auto h = jails_->Call(id, "health", Json::object());
      if (!h.ok()) {
        ADD_FAILURE() << h.error().message;
        return Json();
      }
      health = *h;
      if (done(health)) break;
      std::this_thread::sleep_for(10ms);
    }
    return health;
  }

  std::size_t pool_size_ = 0;
  RecordingListener listener_;
};

TEST_F(HandOverTest, AColdAcquireTellsTheListenerAndTheAgentBuildsItsServers) {
  manager_->SetHandOverListener(&listener_);
  auto sb = Acquire("alice", {"git", "filesystem", "git"});
  ASSERT_FALSE(sb.id.empty());
  // The jail started, then the record was stored and handed over, stamped
  // with the access epoch read before it was stored.
  EXPECT_EQ(listener_.Events(), (Names{"started " + sb.id, "handed " + sb.id + " 0"}));
  auto stored = store_->GetSandbox(sb.id);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  ASSERT_EQ(listener_.Records().size(), 1u);
  EXPECT_EQ(listener_.Records()[0], **stored);
  // Its agent builds what it was acquired with (and warms nothing: no pool).
  Json health = HealthOnce(sb.id, [](const Json& h) { return h["servers_built"].size() == 2; });
  EXPECT_EQ(health["servers_built"], (Names{"filesystem", "git"}));
  EXPECT_EQ(health["servers_warmed"], false);
  EXPECT_EQ(health["mcp_sessions"], 0);

  // A release advances the epoch the next hand-over is stamped with.
  ASSERT_TRUE(manager_->BeginRelease("alice", sb.id).ok());
  auto next = Acquire("alice", {"terminal"});
  EXPECT_EQ(listener_.Events().back(), "handed " + next.id + " 1");
  health = HealthOnce(next.id, [](const Json& h) { return !h["servers_built"].empty(); });
  EXPECT_EQ(health["servers_built"], Names{"terminal"});

  // Without a listener nothing is told; the agent still builds.
  manager_->SetHandOverListener(nullptr);
  auto quiet = Acquire("alice", {"git"});
  EXPECT_EQ(listener_.Events().size(), 4u);
  health = HealthOnce(quiet.id, [](const Json& h) { return !h["servers_built"].empty(); });
  EXPECT_EQ(health["servers_built"], Names{"git"});
}

class PooledHandOverTest : public HandOverTest {
 protected:
  PooledHandOverTest() { pool_size_ = 2; }
};

TEST_F(PooledHandOverTest, PooledAgentsWarmEveryServerAndKeepOnlyTheAcquiredOnes) {
  manager_->SetHandOverListener(&listener_);
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  std::vector<std::string> started = listener_.Events();
  ASSERT_EQ(started.size(), 2u);
  std::set<std::string> pooled;
  for (const auto& e : started) {
    ASSERT_EQ(e.rfind("started ", 0), 0u) << e;
    pooled.insert(e.substr(8));
  }
  for (const auto& id : pooled) {
    Json health = HealthOnce(id, [](const Json& h) { return h["servers_warmed"] == true; });
    EXPECT_EQ(health["servers_warmed"], true) << id;
    EXPECT_EQ(health["servers_built"], Names{}) << id;  // warmed, then dropped
  }

  auto sb = Acquire("alice", {"filesystem"});
  ASSERT_EQ(pooled.count(sb.id), 1u) << sb.id << " did not come from the pool";
  Json health = HealthOnce(sb.id, [](const Json& h) { return !h["servers_built"].empty(); });
  EXPECT_EQ(health["servers_built"], Names{"filesystem"});
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  // The hand-over, and the refill's jail (in either order).
  std::vector<std::string> events = listener_.Events();
  ASSERT_EQ(events.size(), 4u);
  std::set<std::string> later(events.begin() + 2, events.end());
  EXPECT_EQ(later.count("handed " + sb.id + " 0"), 1u);
  EXPECT_EQ(std::count_if(later.begin(), later.end(), [&](const std::string& e) {
              return e.rfind("started ", 0) == 0 && pooled.count(e.substr(8)) == 0;
            }),
            1);
}

}  // namespace
}  // namespace sbx::sandbox
