// Manager: acquire (a running jail per sandbox), look-ups and ownership,
// release and TTL expiry, agent deaths.
// (Archive objects, initialize/reset/dump and recovery: manager_objects_test.cc;
// executions: manager_executions_test.cc; the warm pool: pool_test.cc.)
#include "sandbox/manager.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/ids.h"
#include "sandbox/sandbox_test_util.h"
#include "store/store_test_util.h"

namespace sbx::sandbox {
namespace {

using testing::kStart;
using testing::ListTree;
using testing::ModeOf;
using testing::TopLevel;
using Tree = std::vector<std::string>;

class ManagerLifecycleTest : public testing::ManagerTest {
 protected:
  void ExpectNotFound(const Error& e, const std::string& id) {
    EXPECT_EQ(e.code, ErrorCode::kNotFound);
    EXPECT_EQ(e.message, "Local sandbox " + id + " not found");
  }
  std::vector<std::string> ServerNames(const store::SandboxRecord& r) {
    std::vector<std::string> out;
    for (const auto& s : r.servers) out.push_back(s.name);
    return out;
  }
  // The agent's health answer, checked to be that of a live pid 1.
  void ExpectHealthy(const std::string& id) {
    auto health = jails_->Call(id, "health", Json::object());
    ASSERT_TRUE(health.ok()) << health.error().message;
    EXPECT_EQ((*health)["status"], "ok");
    EXPECT_EQ((*health)["pid"], 1);
  }
  bool WaitForDeath(const std::string& id) {
    for (int i = 0; i < 500; ++i) {
      auto d = Deaths();
      if (std::find(d.begin(), d.end(), id) != d.end()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  std::string NotRunningMessage(const std::string& id) {
    return "The agent of local sandbox " + id +
           " is not running (status error); reset or initialize the sandbox to start a new one";
  }
};

TEST_F(ManagerLifecycleTest, AcquireRecordsTheSandboxAndStartsItsJail) {
  AcquireRequest req;
  req.server_names = {"git", "filesystem", "git", "terminal", "filesystem"};
  req.benchmark = "Toolathlon";
  req.test_account_email = "a@b.c";
  req.ttl_seconds = 120;
  auto r = manager_->Acquire("alice", req);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const store::SandboxRecord& sb = *r;
  EXPECT_TRUE(ids::IsUuid(sb.id));
  EXPECT_EQ(sb.owner, "alice");
  EXPECT_EQ(sb.state, store::SandboxState::kActive);
  EXPECT_EQ(sb.status, "occupied");
  EXPECT_EQ(sb.benchmark, "Toolathlon");
  EXPECT_EQ(sb.test_account_email, "a@b.c");
  EXPECT_EQ(sb.ttl_seconds, 120);
  EXPECT_EQ(sb.created_at, kStart);
  EXPECT_EQ(sb.expires_at, kStart + 120'000'000);
  EXPECT_TRUE(ids::IsTokenShaped(sb.mcp_token));
  EXPECT_EQ(sb.mcp_token.size(), 32u);  // 24 random bytes, base64url
  // Duplicates dropped, first occurrence order kept, fresh ids per server.
  EXPECT_EQ(ServerNames(sb), (std::vector<std::string>{"git", "filesystem", "terminal"}));
  std::set<std::string> server_ids;
  for (const auto& s : sb.servers) {
    EXPECT_TRUE(ids::IsUuid(s.id));
    EXPECT_EQ(s.status, "occupied");
    EXPECT_EQ(s.updated_at, kStart);
    server_ids.insert(s.id);
  }
  EXPECT_EQ(server_ids.size(), 3u);

  auto stored = store_->GetSandbox(sb.id);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ(**stored, sb);

  // The workspace layout.
  std::string root = SandboxDir(sb.id);
  EXPECT_EQ(TopLevel(root), (Tree{"d dumps", "d exec", "d executions", "d layers", "d root", "d tmp",
                                  "d uploads", "f agent.log", "f layers.json", "o agent.sock"}));
  EXPECT_EQ(ModeOf(root), 0700u);
  EXPECT_EQ(ModeOf(root + "/exec"), 0755u);
  EXPECT_EQ(ModeOf(root + "/layers.json"), 0600u);
  EXPECT_EQ(ListTree(root + "/exec"), Tree{});
  EXPECT_EQ(ListTree(root + "/uploads"), Tree{});
  EXPECT_EQ(ListTree(root + "/tmp"), Tree{});
  LayerState layers = Layers(sb.id);
  EXPECT_FALSE(layers.pending);
  EXPECT_GE(layers.uid, testing::kUidBase);
  EXPECT_LT(layers.uid, testing::kUidBase + testing::kUidCount);
  EXPECT_EQ(layers.lower.rfind("base-", 0), 0u) << layers.lower;
  EXPECT_EQ(layers.upper.rfind("upper-", 0), 0u) << layers.upper;
  EXPECT_EQ(layers.work.rfind("work-", 0), 0u) << layers.work;
  Tree names = {layers.lower, layers.upper, layers.work};
  std::sort(names.begin(), names.end());
  EXPECT_EQ(LayerNames(sb.id), names);
  EXPECT_EQ(ListTree(LayerDir(sb.id, layers.lower)), Tree{});
  EXPECT_EQ(ListTree(LayerDir(sb.id, layers.upper)), Tree{});
  struct stat st {};
  ASSERT_EQ(::stat((root + "/exec").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, layers.uid);

  // A running jail: its agent answers, alone in its cgroup.
  ExpectHealthy(sb.id);
  EXPECT_TRUE(jails_->Running(sb.id));
  EXPECT_EQ(jails_->cgroups().List(), Tree{sb.id});
  pid_t agent = AgentPid(sb.id);
  ASSERT_GT(agent, 0);
  EXPECT_EQ(*jails_->cgroups().Processes(sb.id), std::vector<pid_t>{agent});
  // /data is empty and the sandbox is root inside, mapped to its uid.
  EXPECT_EQ(RunIn(sb.id, "ls -A /data; id -u; cat /proc/self/uid_map | tr -s ' '"),
            "0\n 0 " + std::to_string(layers.uid) + " 1\n");
}

TEST_F(ManagerLifecycleTest, AcquireWithoutTtlNeverExpiresAndIdsAreUnique) {
  auto a = Acquire("alice", {"terminal"}, std::nullopt);
  auto b = Acquire("alice", {"terminal"}, std::nullopt);
  EXPECT_EQ(a.ttl_seconds, std::nullopt);
  EXPECT_EQ(a.expires_at, std::nullopt);
  EXPECT_NE(a.id, b.id);
  EXPECT_NE(a.mcp_token, b.mcp_token);
  EXPECT_NE(a.servers[0].id, b.servers[0].id);
  // Each has a jail and a host uid of its own.
  EXPECT_NE(Layers(a.id).uid, Layers(b.id).uid);
  Tree both = {a.id, b.id};
  std::sort(both.begin(), both.end());
  EXPECT_EQ(jails_->cgroups().List(), both);
  EXPECT_NE(AgentPid(a.id), AgentPid(b.id));
  ExpectHealthy(a.id);
  ExpectHealthy(b.id);
}

TEST_F(ManagerLifecycleTest, GetAndListAreScopedToTheOwner) {
  auto a1 = Acquire("alice");
  clock_.AdvanceSeconds(1);
  auto a2 = Acquire("alice");
  auto b1 = Acquire("bob");

  auto got = manager_->Get("alice", a1.id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, a1);

  auto other = manager_->Get("bob", a1.id);
  ASSERT_FALSE(other.ok());
  ExpectNotFound(other.error(), a1.id);

  auto list = manager_->List("alice");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].id, a1.id);
  EXPECT_EQ((*list)[1].id, a2.id);
  auto bob = manager_->List("bob");
  ASSERT_TRUE(bob.ok());
  ASSERT_EQ(bob->size(), 1u);
  EXPECT_EQ((*bob)[0].id, b1.id);
  auto nobody = manager_->List("carol");
  ASSERT_TRUE(nobody.ok());
  EXPECT_TRUE(nobody->empty());
}

TEST_F(ManagerLifecycleTest, UnknownAndMalformedIdsAreNotFound) {
  Acquire("alice");
  for (const std::string id : {"00000000-0000-4000-8000-000000000000", "not-a-uuid", "../../etc",
                               "", "ABCDEF00-0000-4000-8000-000000000000"}) {
    auto r = manager_->Get("alice", id);
    ASSERT_FALSE(r.ok()) << id;
    ExpectNotFound(r.error(), id);
    Status s = manager_->BeginRelease("alice", id);
    ASSERT_FALSE(s.ok());
    ExpectNotFound(s.error(), id);
  }
}

TEST_F(ManagerLifecycleTest, GetWithTokenChecksTheTokenButNotTheOwner) {
  auto sb = Acquire("alice");
  auto ok = manager_->GetWithToken(sb.id, sb.mcp_token);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->id, sb.id);
  for (const std::string& token : {std::string(), sb.mcp_token + "x", sb.mcp_token.substr(1)}) {
    auto bad = manager_->GetWithToken(sb.id, token);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::kUnauthenticated);
    EXPECT_EQ(bad.error().message, "Invalid or missing sandbox token");
  }
  auto unknown = manager_->GetWithToken("nope", sb.mcp_token);
  ASSERT_FALSE(unknown.ok());
  ExpectNotFound(unknown.error(), "nope");
  ASSERT_TRUE(manager_->BeginRelease("alice", sb.id).ok());
  auto released = manager_->GetWithToken(sb.id, sb.mcp_token);
  ASSERT_FALSE(released.ok());
  ExpectNotFound(released.error(), sb.id);
}

TEST_F(ManagerLifecycleTest, BeginReleaseHidesTheSandboxOnceAndLeavesItsFilesAndJail) {
  auto sb = Acquire("alice");
  auto keep = Acquire("alice");
  Status other_owner = manager_->BeginRelease("bob", sb.id);
  ASSERT_FALSE(other_owner.ok());
  ExpectNotFound(other_owner.error(), sb.id);

  ASSERT_TRUE(manager_->BeginRelease("alice", sb.id).ok());
  Status second = manager_->BeginRelease("alice", sb.id);
  ASSERT_FALSE(second.ok());
  ExpectNotFound(second.error(), sb.id);

  auto got = manager_->Get("alice", sb.id);
  ASSERT_FALSE(got.ok());
  ExpectNotFound(got.error(), sb.id);
  auto list = manager_->List("alice");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].id, keep.id);

  auto stored = store_->GetSandbox(sb.id);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ((*stored)->state, store::SandboxState::kReleasing);
  EXPECT_TRUE(fs::Exists(SandboxDir(sb.id) + "/layers.json"));
  // FinishRelease stops the jail; until then it runs.
  ExpectHealthy(sb.id);
}

TEST_F(ManagerLifecycleTest, FinishReleaseStopsTheJailAndDeletesFilesAndRows) {
  auto sb = Acquire("alice");
  auto keep = Acquire("alice");
  std::string object = Upload("alice", sb.id, [](testing::TarWriter& w) { w.File("a", "1"); });
  EXPECT_EQ(RunIn(sb.id, "echo data > /data/file; echo ok"), "ok\n");
  pid_t agent = AgentPid(sb.id);
  ASSERT_GT(agent, 0);
  std::vector<std::string> group_dirs = jails_->cgroups().DirsOf(sb.id);
  ASSERT_FALSE(group_dirs.empty());
  for (const auto& d : group_dirs) ASSERT_TRUE(fs::Exists(d)) << d;
  ASSERT_TRUE(manager_->BeginRelease("alice", sb.id).ok());

  ASSERT_TRUE(manager_->FinishRelease(sb.id).ok());
  EXPECT_FALSE(fs::Exists(SandboxDir(sb.id)));
  auto stored = store_->GetSandbox(sb.id);
  ASSERT_TRUE(stored.ok());
  EXPECT_FALSE(stored->has_value());
  auto archive = store_->GetArchive(object);
  ASSERT_TRUE(archive.ok());
  EXPECT_FALSE(archive->has_value());
  // No process (not even a zombie) and no cgroup is left.
  EXPECT_FALSE(testing::ProcessExists(agent)) << "agent pid " << agent << " still exists";
  for (const auto& d : group_dirs) EXPECT_FALSE(fs::Exists(d)) << d;
  EXPECT_EQ(jails_->cgroups().List(), Tree{keep.id});
  EXPECT_FALSE(jails_->Running(sb.id));
  testing::ExpectError(jails_->Call(sb.id, "health", Json::object()), ErrorCode::kConflict,
                       NotRunningMessage(sb.id));

  EXPECT_TRUE(manager_->FinishRelease(sb.id).ok());
  EXPECT_TRUE(manager_->FinishRelease("never-existed").ok());
  // The other sandbox is untouched, and a stopped jail is no agent death.
  EXPECT_TRUE(manager_->Get("alice", keep.id).ok());
  ExpectHealthy(keep.id);
  EXPECT_EQ(Deaths(), Tree{});
  EXPECT_EQ(StoredStatus(keep.id), "occupied");
}

TEST_F(ManagerLifecycleTest, BeginExpiredReleasesFollowsTheClock) {
  auto short_lived = Acquire("alice", {"git"}, 60);
  auto longer = Acquire("bob", {"git"}, 120);
  auto forever = Acquire("alice", {"git"}, std::nullopt);

  auto none = manager_->BeginExpiredReleases();
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  clock_.Set(kStart + 60'000'000 - 1);
  none = manager_->BeginExpiredReleases();
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());

  clock_.Set(kStart + 60'000'000);  // exactly at expiry counts
  auto first = manager_->BeginExpiredReleases();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, std::vector<std::string>{short_lived.id});
  EXPECT_FALSE(manager_->Get("alice", short_lived.id).ok());
  EXPECT_TRUE(manager_->Get("bob", longer.id).ok());

  // Already releasing: not begun twice.
  auto again = manager_->BeginExpiredReleases();
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->empty());

  clock_.AdvanceSeconds(365 * 24 * 3600);
  auto second = manager_->BeginExpiredReleases();
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, std::vector<std::string>{longer.id});
  EXPECT_TRUE(manager_->Get("alice", forever.id).ok());
}

TEST_F(ManagerLifecycleTest, McpUrlUsesThePublicUrlWithoutTrailingSlash) {
  EXPECT_EQ(manager_->config().public_url, testing::kPublicUrl);
  auto sb = Acquire("alice");
  EXPECT_EQ(manager_->McpUrl(sb, "git"), std::string(testing::kPublicUrl) + "/git/mcp/?local_sandbox_id=" +
                                             sb.id + "&token=" + sb.mcp_token);
  ManagerConfig config;
  config.data_dir = data_dir_;
  config.public_url = "https://x.example///";
  Manager m(config, *store_, clock_, signer_, *jails_);
  EXPECT_EQ(m.config().public_url, "https://x.example");
}

TEST_F(ManagerLifecycleTest, SandboxNotFoundWording) {
  Error e = SandboxNotFound("abc");
  EXPECT_EQ(e.code, ErrorCode::kNotFound);
  EXPECT_EQ(e.message, "Local sandbox abc not found");
}

TEST_F(ManagerLifecycleTest, AgentDeathMarksTheSandboxFailedAndResetRevivesIt) {
  auto sb = Acquire("alice");
  auto other = Acquire("alice");
  Initialize("alice", sb.id, [](testing::TarWriter& w) { w.File("a.txt", "A"); });
  EXPECT_EQ(RunIn(sb.id, "echo new > /data/new.txt; echo ok"), "ok\n");
  pid_t old_agent = AgentPid(sb.id);
  ASSERT_NO_FATAL_FAILURE(KillAgent(sb.id));
  ASSERT_TRUE(WaitForStatus(sb.id, "error")) << StoredStatus(sb.id);
  EXPECT_EQ(Deaths(), Tree{sb.id});
  auto got = manager_->Get("alice", sb.id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->status, "error");
  EXPECT_EQ(got->servers[0].status, "error");
  EXPECT_FALSE(jails_->Running(sb.id));
  testing::ExpectError(jails_->Call(sb.id, "health", Json::object()), ErrorCode::kConflict,
                       NotRunningMessage(sb.id));
  EXPECT_EQ(StoredStatus(other.id), "occupied");

  clock_.AdvanceSeconds(3);
  ASSERT_TRUE(manager_->Reset("alice", sb.id).ok());
  EXPECT_EQ(StoredStatus(sb.id), "occupied");
  EXPECT_EQ(manager_->Get("alice", sb.id)->servers[0].updated_at, kStart + 3'000'000);
  pid_t new_agent = AgentPid(sb.id);
  EXPECT_GT(new_agent, 0);
  EXPECT_NE(new_agent, old_agent);
  ExpectHealthy(sb.id);
  // The reset discarded the change, kept the initialized file.
  EXPECT_EQ(DataTree(sb.id), "./a.txt\n");
  EXPECT_EQ(jails_->cgroups().Processes(sb.id)->size(), 1u);
}

TEST_F(ManagerLifecycleTest, AgentDeathThenDumpRevivesTheSandboxWithItsChanges) {
  auto sb = Acquire("alice");
  Initialize("alice", sb.id, [](testing::TarWriter& w) { w.File("a.txt", "A"); });
  EXPECT_EQ(RunIn(sb.id, "echo new > /data/new.txt; echo ok"), "ok\n");
  ASSERT_NO_FATAL_FAILURE(KillAgent(sb.id));
  ASSERT_TRUE(WaitForStatus(sb.id, "error"));
  EXPECT_EQ(DumpMembers("alice", sb.id), (Tree{"d ./", "f ./a.txt", "f ./new.txt"}));
  EXPECT_EQ(StoredStatus(sb.id), "occupied");
  ExpectHealthy(sb.id);
  EXPECT_EQ(RunIn(sb.id, "cat /data/new.txt /data/a.txt"), "new\nA");
}

TEST_F(ManagerLifecycleTest, AgentDeathThenInitializeRevivesTheSandboxWithTheNewTree) {
  auto sb = Acquire("alice");
  ASSERT_NO_FATAL_FAILURE(KillAgent(sb.id));
  ASSERT_TRUE(WaitForStatus(sb.id, "error"));
  Initialize("alice", sb.id, [](testing::TarWriter& w) { w.File("fresh.txt", "F"); });
  EXPECT_EQ(StoredStatus(sb.id), "occupied");
  EXPECT_EQ(DataTree(sb.id), "./fresh.txt\n");
  EXPECT_FALSE(Layers(sb.id).pending);
}

TEST_F(ManagerLifecycleTest, AgentDeathOfAReleasingSandboxLeavesItsRowAlone) {
  auto sb = Acquire("alice");
  ASSERT_TRUE(manager_->BeginRelease("alice", sb.id).ok());
  ASSERT_NO_FATAL_FAILURE(KillAgent(sb.id));
  ASSERT_TRUE(WaitForDeath(sb.id));
  auto stored = store_->GetSandbox(sb.id);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ((*stored)->state, store::SandboxState::kReleasing);
  EXPECT_EQ((*stored)->status, "occupied");
  // And its release still completes.
  ASSERT_TRUE(manager_->FinishRelease(sb.id).ok());
  EXPECT_EQ(jails_->cgroups().List(), Tree{});
  EXPECT_FALSE(fs::Exists(SandboxDir(sb.id)));
}

}  // namespace
}  // namespace sbx::sandbox
