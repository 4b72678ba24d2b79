// The warm pool: alone with fake sandboxes, and in a Manager with real jails.
#include "sandbox/pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sandbox/sandbox_test_util.h"

namespace sbx::sandbox {
namespace {

using namespace std::chrono_literals;
using testing::TopLevel;
using Tree = std::vector<std::string>;

// Makes "s1", "s2", … and records what was made and discarded, and how
// many makes ran at once.
struct FakeSandboxes {
  std::mutex mu;
  int made = 0;
  int failures_left = 0;
  int running = 0;
  int max_running = 0;
  std::chrono::milliseconds delay{0};
  std::vector<std::string> discarded;

  std::function<Result<std::string>()> Make() {
    return [this]() -> Result<std::string> {
      {
        std::lock_guard lock(mu);
        max_running = std::max(max_running, ++running);
      }
      if (delay.count() > 0) std::this_thread::sleep_for(delay);
      std::lock_guard lock(mu);
      --running;
      if (failures_left > 0) {
        --failures_left;
        return MakeError(ErrorCode::kUnavailable, "no room");
      }
      return "s" + std::to_string(++made);
    };
  }
  std::function<void(const std::string&)> Discard() {
    return [this](const std::string& id) {
      std::lock_guard lock(mu);
      discarded.push_back(id);
    };
  }
  int Made() {
    std::lock_guard lock(mu);
    return made;
  }
  int MaxRunning() {
    std::lock_guard lock(mu);
    return max_running;
  }
  std::vector<std::string> Discarded() {
    std::lock_guard lock(mu);
    auto d = discarded;
    std::sort(d.begin(), d.end());
    return d;
  }
};

// A clock the test moves by hand (the pool's only notion of time).
struct FakeClock {
  std::mutex mu;
  std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  std::function<std::chrono::steady_clock::time_point()> Now() {
    return [this] {
      std::lock_guard lock(mu);
      return t;
    };
  }
  void Advance(std::chrono::milliseconds d) {
    std::lock_guard lock(mu);
    t += d;
  }
};

PoolOptions Floor(std::size_t floor, std::size_t starters = 1) {
  PoolOptions o;
  o.floor = floor;
  o.starters = starters;
  o.available_memory = [] { return std::uint64_t{1} << 40; };
  return o;
}

TEST(PoolTest, FillsToItsFloorAndNoFurther) {
  FakeSandboxes fake;
  Pool pool(Floor(3), fake.Make(), fake.Discard());
  ASSERT_TRUE(pool.WaitFull(5s));
  EXPECT_EQ(pool.idle(), 3u);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(fake.Made(), 3);
  EXPECT_EQ(pool.idle(), 3u);
}

TEST(PoolTest, SandboxesThatWarmCountAsStartingSoNoneIsMadeTooMany) {
  FakeSandboxes fake;
  std::mutex mu;
  Tree warmed;
  auto warm = [&](const std::string& id) {
    std::this_thread::sleep_for(100ms);  // the agent builds its servers
    std::lock_guard lock(mu);
    warmed.push_back(id);
  };
  {
    Pool pool(Floor(2, 4), fake.Make(), fake.Discard(), warm);
    ASSERT_TRUE(pool.WaitFull(5s));
    std::this_thread::sleep_for(300ms);  // time for any surplus to be made and shrunk away
    EXPECT_EQ(pool.idle(), 2u);
    EXPECT_EQ(fake.Made(), 2);
    EXPECT_EQ(fake.Discarded(), Tree{});
    std::lock_guard lock(mu);
    std::sort(warmed.begin(), warmed.end());
    EXPECT_EQ(warmed, (Tree{"s1", "s2"}));
  }
  EXPECT_EQ(fake.Discarded(), (Tree{"s1", "s2"}));
}

TEST(PoolTest, AnAcquireThatWaitsGetsItsSandboxUnwarmed) {
  FakeSandboxes fake;
  fake.delay = 50ms;
  std::atomic<int> warms{0};
  Pool pool(Floor(1, 1), fake.Make(), fake.Discard(), [&](const std::string&) { ++warms; });
  ASSERT_TRUE(pool.WaitFull(5s));
  EXPECT_EQ(warms.load(), 1);
  ASSERT_EQ(pool.TryTake(), "s1");
  auto second = pool.Take(5s);  // waits while s2 is made: nothing delays it further
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_EQ(*second, "s2");
  ASSERT_TRUE(pool.WaitFull(5s));
  EXPECT_EQ(fake.Made(), 3);
  EXPECT_EQ(warms.load(), 2);  // s1 and s3, not s2
}

TEST(PoolTest, TakeHandsOutDistinctIdsOldestFirstAndRefills) {
  FakeSandboxes fake;
  auto pool = std::make_unique<Pool>(Floor(2), fake.Make(), fake.Discard());
  ASSERT_TRUE(pool->WaitFull(5s));
  EXPECT_EQ(pool->TryTake(), "s1");
  EXPECT_EQ(*pool->Take(1s), "s2");
  ASSERT_TRUE(pool->WaitFull(5s));
  EXPECT_EQ(pool->idle(), 2u);
  EXPECT_EQ(fake.Made(), 4);
  std::set<std::string> taken;
  for (int i = 0; i < 6; ++i) {
    auto id = pool->Take(5s);  // waits for the refill when none is ready
    ASSERT_TRUE(id.ok()) << id.error().message;
    EXPECT_TRUE(taken.insert(*id).second) << *id << " handed out twice";
  }
  ASSERT_TRUE(pool->WaitFull(5s));
  // Destruction discards exactly the idle ones, never a handed-out one.
  int made = fake.Made();
  pool.reset();
  Tree expected = {"s" + std::to_string(made - 1), "s" + std::to_string(made)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(fake.Discarded(), expected);
  for (const auto& id : fake.Discarded()) EXPECT_EQ(taken.count(id), 0u) << id;
}

TEST(PoolTest, AFloorOfZeroMakesNothing) {
  FakeSandboxes fake;
  Pool pool(Floor(0), fake.Make(), fake.Discard());
  EXPECT_TRUE(pool.WaitFull(10ms));
  EXPECT_EQ(pool.TryTake(), std::nullopt);
  auto waited = pool.Take(10ms);
  ASSERT_FALSE(waited.ok());
  EXPECT_EQ(waited.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(pool.idle(), 0u);
  EXPECT_EQ(fake.Made(), 0);
}

TEST(PoolTest, AFailedStartIsReportedToAWaitingTakeAndTheFillResumes) {
  FakeSandboxes fake;
  fake.failures_left = 2;  // 100 ms, then 200 ms of back-off
  Pool pool(Floor(1), fake.Make(), fake.Discard());
  auto first = pool.Take(5s);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().message, "no room");  // the start's own error, not a timeout
  ASSERT_TRUE(pool.WaitFull(5s));
  EXPECT_EQ(pool.TryTake(), "s1");
}

TEST(PoolTest, ASandboxMadeWhileStoppingIsDiscarded) {
  FakeSandboxes fake;
  fake.delay = 100ms;
  {
    Pool pool(Floor(1), fake.Make(), fake.Discard());
    std::this_thread::sleep_for(20ms);  // the first make is under way
  }
  EXPECT_EQ(fake.Made(), 1);
  EXPECT_EQ(fake.Discarded(), Tree{"s1"});
}

TEST(PoolTest, ABurstOfWaitingTakesIsServedByParallelStartsInOrderOfArrival) {
  FakeSandboxes fake;
  fake.delay = 20ms;
  Pool pool(Floor(1, 4), fake.Make(), fake.Discard());
  ASSERT_TRUE(pool.WaitFull(5s));
  std::vector<std::thread> takers;
  std::mutex mu;
  std::set<std::string> got;
  for (int i = 0; i < 12; ++i)
    takers.emplace_back([&] {
      pool.BeginDemand();
      auto id = pool.Take(10s);
      pool.EndDemand();
      std::lock_guard lock(mu);
      ASSERT_TRUE(id.ok()) << id.error().message;
      EXPECT_TRUE(got.insert(*id).second);
    });
  for (auto& t : takers) t.join();
  EXPECT_EQ(got.size(), 12u);
  // The starters ran in parallel, never more than there are of them.
  EXPECT_EQ(fake.MaxRunning(), 4);
}

TEST(PoolTest, DemandRaisesTheTargetToItsPeakWithinTheCeiling) {
  FakeSandboxes fake;
  PoolOptions o = Floor(2, 2);
  o.ceiling = 10;
  Pool pool(o, fake.Make(), fake.Discard());
  for (int i = 0; i < 7; ++i) pool.BeginDemand();
  EXPECT_EQ(pool.stats().target, 7u);
  ASSERT_TRUE(pool.WaitFull(5s));
  EXPECT_EQ(pool.idle(), 7u);
  for (int i = 0; i < 7; ++i) pool.EndDemand();
  // The peak stays the target after the demand ends (the next burst finds it ready)…
  EXPECT_EQ(pool.stats().target, 7u);
  for (int i = 0; i < 30; ++i) pool.BeginDemand();
  // …and no demand takes it past the ceiling.
  EXPECT_EQ(pool.stats().target, 10u);
  ASSERT_TRUE(pool.WaitFull(5s));
  EXPECT_EQ(pool.idle(), 10u);
  EXPECT_EQ(fake.Made(), 10);
}

TEST(PoolTest, GrowthStopsAtTheMemoryBudgetAndWhenTheHostRunsShort) {
  FakeSandboxes fake;
  std::atomic<std::uint64_t> available{8ull << 30};
  PoolOptions o = Floor(1, 2);
  o.idle_sandbox_bytes = 4 << 20;
  o.memory_budget = 5 * o.idle_sandbox_bytes;
  o.available_memory = [&] { return available.load(); };
  auto pool = std::make_unique<Pool>(o, fake.Make(), fake.Discard());
  for (int i = 0; i < 20; ++i) pool->BeginDemand();
  EXPECT_EQ(pool->stats().target, 5u);
  ASSERT_TRUE(pool->WaitFull(5s));
  EXPECT_EQ(pool->idle(), 5u);
  pool.reset();

  // Short of memory: no growth past what exists, but the floor is kept.
  available = 100 << 20;
  Pool short_pool(o, fake.Make(), fake.Discard());
  ASSERT_TRUE(short_pool.WaitFull(5s));
  for (int i = 0; i < 20; ++i) short_pool.BeginDemand();
  EXPECT_EQ(short_pool.stats().target, 1u);
  EXPECT_EQ(short_pool.idle(), 1u);
}

TEST(PoolTest, AGrownPoolShrinksToItsFloorOldestFirstAfterTheIdleTime) {
  FakeSandboxes fake;
  FakeClock clock;
  PoolOptions o = Floor(2, 1);  // one starter: sandboxes are ready in the order they were made
  o.idle_shrink = 60s;
  o.now = clock.Now();
  Pool pool(o, fake.Make(), fake.Discard());
  for (int i = 0; i < 6; ++i) pool.BeginDemand();
  for (int i = 0; i < 6; ++i) pool.EndDemand();
  ASSERT_TRUE(pool.WaitFull(5s));
  ASSERT_EQ(pool.idle(), 6u);
  clock.Advance(59s);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(pool.stats().target, 6u);
  EXPECT_EQ(pool.idle(), 6u);
  clock.Advance(2s);
  // The starters look again at least once a second while above the floor.
  for (int i = 0; i < 300 && pool.idle() > 2; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(pool.idle(), 2u);
  EXPECT_EQ(pool.stats().target, 2u);
  EXPECT_EQ(fake.Made(), 6);
  EXPECT_EQ(fake.Discarded(), (Tree{"s1", "s2", "s3", "s4"}));  // made first, discarded first
}

class PoolManagerTest : public testing::ManagerTest {
 protected:
  ManagerConfig Config() override {
    ManagerConfig c = ManagerTest::Config();
    c.pool_size = 2;
    return c;
  }
  std::set<std::string> Groups() {
    auto list = jails_->cgroups().List();
    return {list.begin(), list.end()};
  }
  std::set<std::string> Dirs() {
    std::set<std::string> out;
    for (const auto& line : TopLevel(data_dir_ + "/sandboxes")) out.insert(line.substr(2));
    return out;
  }
};

TEST_F(PoolManagerTest, NoPoolUntilStarted) {
  EXPECT_EQ(manager_->pool(), nullptr);
  std::this_thread::sleep_for(50ms);
  EXPECT_TRUE(Groups().empty());
}

TEST_F(PoolManagerTest, ThePoolKeepsRunningIdleJailsWithoutRows) {
  ASSERT_TRUE(manager_->Recover().ok());
  manager_->StartPool();
  ASSERT_NE(manager_->pool(), nullptr);
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  EXPECT_EQ(manager_->pool()->idle(), 2u);
  std::set<std::string> pooled = Groups();
  EXPECT_EQ(pooled.size(), 2u);
  EXPECT_EQ(Dirs(), pooled);
  for (const auto& id : pooled) {
    auto health = jails_->Call(id, "health", Json::object());
    ASSERT_TRUE(health.ok()) << health.error().message;
    EXPECT_EQ((*health)["status"], "ok");
  }
  auto rows = store_->AllSandboxIds();
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
  // StartPool twice keeps the one pool.
  Pool* pool = manager_->pool();
  manager_->StartPool();
  EXPECT_EQ(manager_->pool(), pool);
}

TEST_F(PoolManagerTest, AcquireHandsOverAPooledJailAndThePoolRefills) {
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  std::set<std::string> pooled = Groups();
  std::map<std::string, pid_t> agents;
  for (const auto& id : pooled) agents[id] = AgentPid(id);

  auto sb = Acquire("alice");
  ASSERT_EQ(pooled.count(sb.id), 1u) << sb.id << " did not come from the pool";
  EXPECT_EQ(AgentPid(sb.id), agents[sb.id]);  // the same running agent
  EXPECT_EQ(StoredStatus(sb.id), "occupied");
  EXPECT_EQ(RunIn(sb.id, "ls -A /data; echo ok"), "ok\n");
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  EXPECT_EQ(manager_->pool()->idle(), 2u);
  EXPECT_EQ(Groups().size(), 3u);

  // The Manager going away discards the idle jails, not the sandbox.
  std::set<std::string> idle = Groups();
  idle.erase(sb.id);
  std::vector<pid_t> idle_agents;
  for (const auto& id : idle) idle_agents.push_back(AgentPid(id));
  SetDeathTarget(nullptr);
  manager_.reset();
  EXPECT_EQ(Groups(), std::set<std::string>{sb.id});
  EXPECT_EQ(Dirs(), std::set<std::string>{sb.id});
  for (pid_t pid : idle_agents) EXPECT_FALSE(testing::ProcessExists(pid)) << pid;
  EXPECT_EQ(Deaths(), Tree{});
}

TEST_F(PoolManagerTest, AcquireNeverHandsOverAPooledJailWhoseAgentDied) {
  // BUG (src/sandbox/manager.cc, Manager::Acquire): an idle jail whose agent
  // died stays in the pool (OnAgentDeath finds no row and does nothing), and
  // Acquire hands it out as it is: the client gets status "occupied" and a
  // sandbox whose agent is gone (MCP calls fail until a reset or dump
  // revives it). Acquire should discard taken jails that are not Running
  // and take another or prepare one.
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  std::set<std::string> pooled = Groups();
  for (const auto& id : pooled) ASSERT_NO_FATAL_FAILURE(KillAgent(id));
  for (int i = 0; i < 500 && Deaths().size() < pooled.size(); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(Deaths().size(), 2u);
  auto sb = Acquire("alice");
  ASSERT_FALSE(sb.id.empty());
  EXPECT_TRUE(jails_->Running(sb.id)) << "handed over a dead jail";
  auto health = jails_->Call(sb.id, "health", Json::object());
  EXPECT_TRUE(health.ok()) << health.error().message;
  EXPECT_EQ(StoredStatus(sb.id), "occupied");
}

TEST_F(PoolManagerTest, TakeReturnsDistinctRunningSandboxes) {
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  auto a = manager_->pool()->TryTake();
  auto b = manager_->pool()->TryTake();
  ASSERT_TRUE(a && b);
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(jails_->Running(*a));
  EXPECT_TRUE(jails_->Running(*b));
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  std::set<std::string> all = Groups();
  EXPECT_EQ(all.size(), 4u);
  EXPECT_EQ(all.count(*a) + all.count(*b), 2u);
}

TEST_F(PoolManagerTest, ConcurrentAcquiresGetDistinctRunningJails) {
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  std::vector<store::SandboxRecord> got(5);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] {
      AcquireRequest req;
      req.server_names = {"git"};
      auto r = manager_->Acquire("alice", req);
      if (r.ok()) got[i] = *r;
    });
  for (auto& t : threads) t.join();
  std::set<std::string> ids;
  std::set<uid_t> uids;
  for (const auto& sb : got) {
    ASSERT_FALSE(sb.id.empty());
    ids.insert(sb.id);
    uids.insert(Layers(sb.id).uid);
    EXPECT_TRUE(jails_->Running(sb.id)) << sb.id;
  }
  EXPECT_EQ(ids.size(), got.size());
  EXPECT_EQ(uids.size(), got.size());
  auto list = manager_->List("alice");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(list->size(), got.size());
}

TEST_F(PoolManagerTest, AcquireWithAnEmptyPoolStartsAJailOfItsOwn) {
  // No pool started: acquire prepares one on the spot.
  auto sb = Acquire("alice");
  EXPECT_EQ(Groups(), std::set<std::string>{sb.id});
  EXPECT_TRUE(jails_->Running(sb.id));
}

TEST_F(PoolManagerTest, RecoverAfterACrashDestroysThePoolOfThePreviousRun) {
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  auto sb = Acquire("alice");
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  // A real crash leaves the idle jails running: make them outlive the
  // Manager by taking them out of its pool first.
  auto x = manager_->pool()->TryTake();
  auto y = manager_->pool()->TryTake();
  ASSERT_TRUE(x && y);
  ASSERT_NO_FATAL_FAILURE(Crash());
  // (Any jails the refill made meanwhile were discarded with the pool.)
  ASSERT_NO_FATAL_FAILURE(Restart());
  EXPECT_EQ(Groups().count(*x), 1u);
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(Groups(), std::set<std::string>{sb.id});
  EXPECT_EQ(Dirs(), std::set<std::string>{sb.id});
  manager_->StartPool();
  ASSERT_TRUE(manager_->pool()->WaitFull(30s));
  EXPECT_EQ(Groups().size(), 3u);
}

}  // namespace
}  // namespace sbx::sandbox
