// Manager::Recover after a crash of sandboxd: re-attaching, rebuilding and
// destroying jails, pending layer switches, vanished directories.
#include "sandbox/manager_objects_test_util.h"

namespace sbx::sandbox {
namespace {

using namespace objects_testing;  // NOLINT: shared fixture and helpers

TEST_F(ManagerObjectsTest, RecoverReconcilesTheDiskWithTheStore) {
  std::string upload = Upload("alice", sb_.id, [](TarWriter& w) { w.File("x", "x"); });
  EXPECT_EQ(RunIn(sb_.id, "echo k > /data/kept; echo ok"), "ok\n");
  WriteFile(root_ + "/uploads/" + upload + ".zz.part", "partial");
  WriteFile(root_ + "/uploads/stray.tar.gz", "no record");
  WriteFile(root_ + "/dumps/d.tar.gz.part", "partial");
  WriteFile(root_ + "/dumps/d2.tar.gz", "no record");
  ASSERT_EQ(::mkdir((root_ + "/tmp/stage-x").c_str(), 0755), 0);
  WriteFile(root_ + "/tmp/stage-x/f", "half");

  auto releasing = Acquire("alice");
  EXPECT_EQ(RunIn(releasing.id, "echo l > /data/left; echo ok"), "ok\n");
  ASSERT_TRUE(manager_->BeginRelease("alice", releasing.id).ok());

  std::string orphan = SandboxDir(ids::NewUuid());
  ASSERT_TRUE(fs::MakeDirs(orphan + "/layers/deep").ok());
  WriteFile(orphan + "/layers/deep/f", "orphaned");
  WriteFile(data_dir_ + "/sandboxes/not-a-dir", "junk");

  ASSERT_NO_FATAL_FAILURE(Crash());
  ASSERT_NO_FATAL_FAILURE(Restart());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, std::vector<std::string>{releasing.id});
  Tree expected_top = {"d " + sb_.id, "d " + releasing.id};
  std::sort(expected_top.begin(), expected_top.end());
  EXPECT_EQ(TopLevel(data_dir_ + "/sandboxes"), expected_top);
  EXPECT_EQ(TopLevel(root_), kLayout);
  EXPECT_EQ(ListTree(root_ + "/uploads"), Tree{"f " + upload + ".tar.gz"});
  EXPECT_EQ(ListTree(root_ + "/dumps"), Tree{});
  EXPECT_EQ(ListTree(root_ + "/tmp"), Tree{});
  EXPECT_EQ(Data(), "./kept\n");
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
  // The releasing sandbox's jail is gone, its files are left for FinishRelease.
  EXPECT_EQ(jails_->cgroups().List(), Tree{sb_.id});
  EXPECT_EQ(ReadAll(LayerDir(releasing.id, Layers(releasing.id).upper) + "/left"), "l\n");
  ASSERT_TRUE(manager_->FinishRelease(releasing.id).ok());
  EXPECT_FALSE(fs::Exists(SandboxDir(releasing.id)));
  // The upload kept still initializes.
  ASSERT_TRUE(manager_->Initialize("alice", sb_.id).ok());
  EXPECT_EQ(Data(), "./x\n");
}

TEST_F(ManagerObjectsTest, RecoverReattachesARunningJail) {
  pid_t agent = 0;
  std::string layers;
  ASSERT_NO_FATAL_FAILURE(WorkThenCrash(agent, layers));
  ASSERT_NO_FATAL_FAILURE(Restart());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, std::vector<std::string>{});
  EXPECT_EQ(AgentPid(sb_.id), agent);
  EXPECT_TRUE(jails_->Running(sb_.id));
  EXPECT_EQ(Data(), "./a.txt\n./b.txt\n");
  EXPECT_EQ(LayersJson(sb_.id), layers);
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
  EXPECT_EQ(jails_->cgroups().List(), Tree{sb_.id});
  // Watched again: a death is noticed.
  ASSERT_NO_FATAL_FAILURE(KillAgent(sb_.id));
  EXPECT_TRUE(WaitForStatus(sb_.id, "error"));
  // And operations work on the re-attached sandbox.
  ASSERT_TRUE(manager_->Reset("alice", sb_.id).ok());
  EXPECT_EQ(Data(), "./a.txt\n");
}

TEST_F(ManagerObjectsTest, RecoverRebuildsAKilledJailWithItsFiles) {
  pid_t agent = 0;
  std::string layers;
  ASSERT_NO_FATAL_FAILURE(WorkThenCrash(agent, layers));
  ASSERT_EQ(::kill(agent, SIGKILL), 0);
  ASSERT_TRUE(WaitUntilStopped(agent));
  // The death was noticed by nobody; say the store had it as failed.
  ASSERT_TRUE(store_->SetStatus(sb_.id, "error", kStart).ok());
  ASSERT_NO_FATAL_FAILURE(Restart());
  clock_.AdvanceSeconds(2);
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, std::vector<std::string>{});
  pid_t rebuilt = AgentPid(sb_.id);
  EXPECT_GT(rebuilt, 0);
  EXPECT_NE(rebuilt, agent);
  EXPECT_EQ(Data(), "./a.txt\n./b.txt\n");
  EXPECT_EQ(RunIn(sb_.id, "cat /data/a.txt /data/b.txt"), "Ab\n");
  EXPECT_EQ(LayersJson(sb_.id), layers);
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
  EXPECT_EQ(manager_->Get("alice", sb_.id)->servers[0].updated_at, kStart + 2'000'000);
}

TEST_F(ManagerObjectsTest, RecoverDestroysJailsNoLiveSandboxOwns) {
  // A warm-pool slot of the previous run: a directory and a jail, no row.
  std::string leftover = ids::NewUuid();
  Workspace ws(SandboxDir(leftover));
  ASSERT_TRUE(ws.Create(jails_->AllocateUid()).ok());
  ASSERT_TRUE(jails_->Start(leftover, ws).ok());
  pid_t leftover_agent = AgentPid(leftover);
  ASSERT_GT(leftover_agent, 0);
  // A sandbox whose release was under way.
  auto releasing = Acquire("alice");
  ASSERT_TRUE(manager_->BeginRelease("alice", releasing.id).ok());
  pid_t releasing_agent = AgentPid(releasing.id);
  ASSERT_GT(releasing_agent, 0);
  pid_t live_agent = AgentPid(sb_.id);

  ASSERT_NO_FATAL_FAILURE(Crash());
  ASSERT_NO_FATAL_FAILURE(Restart());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, std::vector<std::string>{releasing.id});
  EXPECT_EQ(jails_->cgroups().List(), Tree{sb_.id});
  EXPECT_FALSE(Runs(leftover_agent));
  EXPECT_FALSE(Runs(releasing_agent));
  for (const auto& id : {leftover, releasing.id})
    for (const auto& d : jails_->cgroups().DirsOf(id)) EXPECT_FALSE(fs::Exists(d)) << d;
  EXPECT_FALSE(fs::Exists(SandboxDir(leftover)));
  EXPECT_TRUE(fs::Exists(SandboxDir(releasing.id) + "/layers.json"));
  EXPECT_EQ(AgentPid(sb_.id), live_agent);
  ASSERT_TRUE(manager_->FinishRelease(releasing.id).ok());
  EXPECT_FALSE(fs::Exists(SandboxDir(releasing.id)));
}

// Layers written (pending) before the crash, the jail still on the old ones.
class PendingLayersTest : public ManagerObjectsTest {
 protected:
  LayerState WritePendingLayers() {
    Workspace ws = manager_->WorkspaceOf(sb_.id);
    LayerState current = Layers(sb_.id);
    auto staging = ws.NewStagingDir();
    EXPECT_TRUE(staging.ok());
    WriteFile(*staging + "/new.txt", "N");
    EXPECT_TRUE(ChownTree(*staging, current.uid).ok());
    auto base = ws.AdoptBase(*staging);
    auto upper = ws.NewLayer("upper", current.uid);
    auto work = ws.NewLayer("work", current.uid);
    EXPECT_TRUE(base.ok() && upper.ok() && work.ok());
    LayerState next{current.uid, *base, *upper, *work, true};
    EXPECT_TRUE(ws.WriteLayers(next).ok());
    return next;
  }
};

TEST_F(PendingLayersTest, RecoverSwitchesARunningJailToThePendingLayers) {
  Initialize("alice", sb_.id, [](TarWriter& w) { w.File("old.txt", "O"); });
  pid_t agent = AgentPid(sb_.id);
  LayerState next = WritePendingLayers();
  EXPECT_EQ(Data(), "./old.txt\n");
  ASSERT_NO_FATAL_FAILURE(Crash());
  ASSERT_NO_FATAL_FAILURE(Restart());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(AgentPid(sb_.id), agent);
  EXPECT_EQ(Data(), "./new.txt\n");
  LayerState now = Layers(sb_.id);
  EXPECT_FALSE(now.pending);
  EXPECT_EQ(now.lower, next.lower);
  EXPECT_EQ(now.upper, next.upper);
  EXPECT_EQ(now.work, next.work);
  EXPECT_EQ(LayerNames(sb_.id), NamesOf(next));
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
}

TEST_F(PendingLayersTest, RecoverStartsADeadJailOnThePendingLayers) {
  Initialize("alice", sb_.id, [](TarWriter& w) { w.File("old.txt", "O"); });
  pid_t agent = AgentPid(sb_.id);
  LayerState next = WritePendingLayers();
  ASSERT_NO_FATAL_FAILURE(Crash());
  ASSERT_EQ(::kill(agent, SIGKILL), 0);
  ASSERT_TRUE(WaitUntilStopped(agent));
  ASSERT_NO_FATAL_FAILURE(Restart());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(AgentPid(sb_.id), agent);
  EXPECT_EQ(Data(), "./new.txt\n");
  LayerState now = Layers(sb_.id);
  EXPECT_FALSE(now.pending);
  EXPECT_EQ(now.lower, next.lower);
  EXPECT_EQ(LayerNames(sb_.id), NamesOf(next));
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
}

TEST_F(ManagerObjectsTest, RecoverRebuildsASandboxWhoseDirectoryVanished) {
  // The jail is gone and so is the whole sandbox directory (layers.json
  // included). The sandbox must come back usable (empty /data), as the old
  // design recreated the layout, rather than stay broken: a reset cannot
  // repair it either, since every operation reads layers.json first.
  pid_t agent = AgentPid(sb_.id);
  ASSERT_NO_FATAL_FAILURE(Crash());
  ASSERT_EQ(::kill(agent, SIGKILL), 0);
  ASSERT_TRUE(WaitUntilStopped(agent));
  ASSERT_TRUE(fs::RemoveTree(root_).ok());
  ASSERT_NO_FATAL_FAILURE(Restart());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->empty());
  EXPECT_EQ(TopLevel(root_), kLayout);
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
  Status reset = manager_->Reset("alice", sb_.id);
  EXPECT_TRUE(reset.ok()) << reset.error().message;
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
  if (jails_->Running(sb_.id)) {
    EXPECT_EQ(Data(), "");
  }
}

}  // namespace
}  // namespace sbx::sandbox
