#include "sandbox/workspace.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/fs.h"
#include "sandbox/sandbox_test_util.h"

namespace sbx::sandbox {
namespace {

using testing::ListTree;
using testing::ModeOf;
using testing::ReadAll;
using testing::TempDir;
using testing::TopLevel;
using testing::WriteFile;
using Tree = std::vector<std::string>;

constexpr uid_t kUid = 1'234'567'890;

// Restores the process umask when the test ends.
class UmaskScope {
 public:
  explicit UmaskScope(mode_t mask) : previous_(::umask(mask)) {}
  ~UmaskScope() { ::umask(previous_); }

 private:
  mode_t previous_;
};

struct Owner {
  uid_t uid;
  gid_t gid;
  bool operator==(const Owner&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Owner& o) { return os << o.uid << ":" << o.gid; }

Owner OwnerOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {static_cast<uid_t>(-1), static_cast<gid_t>(-1)};
  return {st.st_uid, st.st_gid};
}

const Tree kTop = {"d dumps", "d exec", "d executions", "d layers", "d root", "d tmp", "d uploads",
                   "f layers.json"};

class WorkspaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(ws_.Create(kUid).ok());
    auto state = ws_.ReadLayers();
    ASSERT_TRUE(state.ok()) << state.error().message;
    state_ = *state;
  }

  // A staging dir holding a.txt (0644), bin/run (0755), empty/ and a link.
  std::string Staging() {
    auto dir = ws_.NewStagingDir();
    EXPECT_TRUE(dir.ok());
    WriteFile(*dir + "/a.txt", "alpha", 0644);
    EXPECT_EQ(::mkdir((*dir + "/bin").c_str(), 0755), 0);
    WriteFile(*dir + "/bin/run", "#!/bin/sh\n", 0755);
    EXPECT_EQ(::mkdir((*dir + "/empty").c_str(), 0700), 0);
    EXPECT_EQ(::symlink("a.txt", (*dir + "/link").c_str()), 0);
    return *dir;
  }
  Tree LayerNames() {
    Tree out;
    for (const auto& line : TopLevel(ws_.layers_dir())) out.push_back(line.substr(2));
    return out;
  }
  static Tree Sorted(Tree t) {
    std::sort(t.begin(), t.end());
    return t;
  }

  const Tree kStagedTree = {"d bin", "d empty", "f a.txt", "f bin/run", "l link -> a.txt"};
  UmaskScope umask_{022};  // the usual umask, whatever the test runner's
  TempDir dir_;
  Workspace ws_{dir_ / "sb"};
  LayerState state_;
};

TEST_F(WorkspaceTest, PathsAreFixedBelowTheRoot) {
  Workspace w("/x/y");
  EXPECT_EQ(w.root(), "/x/y");
  EXPECT_EQ(w.layers_dir(), "/x/y/layers");
  EXPECT_EQ(w.root_mount_dir(), "/x/y/root");
  EXPECT_EQ(w.exec_dir(), "/x/y/exec");
  EXPECT_EQ(w.logs_dir(), "/x/y/executions");
  EXPECT_EQ(w.uploads_dir(), "/x/y/uploads");
  EXPECT_EQ(w.dumps_dir(), "/x/y/dumps");
  EXPECT_EQ(w.tmp_dir(), "/x/y/tmp");
  EXPECT_EQ(w.socket_path(), "/x/y/agent.sock");
  EXPECT_EQ(w.agent_log_path(), "/x/y/agent.log");
  LayerState s{7, "base-a", "upper-b", "work-c", false};
  jail::Layers paths = w.LayerPaths(s);
  EXPECT_EQ(paths.lower, "/x/y/layers/base-a");
  EXPECT_EQ(paths.upper, "/x/y/layers/upper-b");
  EXPECT_EQ(paths.work, "/x/y/layers/work-c");
}

TEST_F(WorkspaceTest, CreateMakesTheLayoutWithEmptyLayersOwnedByTheUid) {
  EXPECT_EQ(TopLevel(ws_.root()), kTop);
  EXPECT_EQ(state_.uid, kUid);
  EXPECT_FALSE(state_.pending);
  EXPECT_EQ(state_.lower.rfind("base-", 0), 0u) << state_.lower;
  EXPECT_EQ(state_.upper.rfind("upper-", 0), 0u) << state_.upper;
  EXPECT_EQ(state_.work.rfind("work-", 0), 0u) << state_.work;
  EXPECT_EQ(LayerNames(), Sorted({state_.lower, state_.upper, state_.work}));
  EXPECT_EQ(ListTree(ws_.layers_dir()), Sorted({"d " + state_.lower, "d " + state_.upper, "d " + state_.work}));
  // Modes and owners: the sandbox's uid owns what becomes /data and /exec;
  // the overlay work dir and everything else stay root's.
  const Owner root{0, 0}, sandbox{kUid, kUid};
  EXPECT_EQ(ModeOf(ws_.root()), 0700u);
  EXPECT_EQ(OwnerOf(ws_.root()), root);
  for (const std::string& d : {ws_.layers_dir(), ws_.root_mount_dir(), ws_.logs_dir(), ws_.uploads_dir(),
                               ws_.dumps_dir(), ws_.tmp_dir()}) {
    EXPECT_EQ(ModeOf(d), 0700u) << d;
    EXPECT_EQ(OwnerOf(d), root) << d;
  }
  EXPECT_EQ(ModeOf(ws_.exec_dir()), 0755u);
  EXPECT_EQ(OwnerOf(ws_.exec_dir()), sandbox);
  EXPECT_EQ(ModeOf(ws_.layers_dir() + "/" + state_.lower), 0755u);
  EXPECT_EQ(OwnerOf(ws_.layers_dir() + "/" + state_.lower), sandbox);
  EXPECT_EQ(ModeOf(ws_.layers_dir() + "/" + state_.upper), 0755u);
  EXPECT_EQ(OwnerOf(ws_.layers_dir() + "/" + state_.upper), sandbox);
  EXPECT_EQ(ModeOf(ws_.layers_dir() + "/" + state_.work), 0700u);
  EXPECT_EQ(OwnerOf(ws_.layers_dir() + "/" + state_.work), root);
  EXPECT_EQ(ModeOf(ws_.root() + "/layers.json"), 0600u);
}

TEST_F(WorkspaceTest, ModesDoNotDependOnTheUmask) {
  UmaskScope strict(077);
  Workspace w(dir_ / "strict");
  ASSERT_TRUE(w.Create(kUid).ok());
  auto s = w.ReadLayers();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ModeOf(w.exec_dir()), 0755u);
  EXPECT_EQ(ModeOf(w.layers_dir() + "/" + s->lower), 0755u);
  EXPECT_EQ(ModeOf(w.layers_dir() + "/" + s->upper), 0755u);
  EXPECT_EQ(ModeOf(w.layers_dir() + "/" + s->work), 0700u);
  auto staging = w.NewStagingDir();
  ASSERT_TRUE(staging.ok());
  EXPECT_EQ(ModeOf(*staging), 0755u);
  UmaskScope loose(0);
  Workspace l(dir_ / "loose");
  ASSERT_TRUE(l.Create(kUid).ok());
  EXPECT_EQ(ModeOf(l.root()), 0700u);
  EXPECT_EQ(ModeOf(l.uploads_dir()), 0700u);
}

TEST_F(WorkspaceTest, CreateFailsIfTheRootExists) {
  std::string layers = ReadAll(ws_.root() + "/layers.json");
  Status s = ws_.Create(kUid + 1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInternal);
  EXPECT_EQ(s.error().message, "mkdir " + ws_.root() + ": File exists");
  // Nothing was disturbed.
  EXPECT_EQ(TopLevel(ws_.root()), kTop);
  EXPECT_EQ(ReadAll(ws_.root() + "/layers.json"), layers);
  EXPECT_EQ(LayerNames().size(), 3u);
}

TEST_F(WorkspaceTest, LayersJsonRoundTripsWithItsExactText) {
  LayerState s{kUid, "base-1", "upper-2", "work-3", true};
  ASSERT_TRUE(ws_.WriteLayers(s).ok());
  EXPECT_EQ(ReadAll(ws_.root() + "/layers.json"),
            R"({"uid":1234567890,"lower":"base-1","upper":"upper-2","work":"work-3","pending":true})");
  EXPECT_EQ(ModeOf(ws_.root() + "/layers.json"), 0600u);
  auto back = ws_.ReadLayers();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->uid, kUid);
  EXPECT_EQ(back->lower, "base-1");
  EXPECT_EQ(back->upper, "upper-2");
  EXPECT_EQ(back->work, "work-3");
  EXPECT_TRUE(back->pending);
  // "pending" is optional (false when absent).
  WriteFile(ws_.root() + "/layers.json", R"({"uid":5,"lower":"a","upper":"b","work":"c"})");
  back = ws_.ReadLayers();
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_FALSE(back->pending);
  EXPECT_EQ(back->uid, 5u);
}

TEST_F(WorkspaceTest, ReadLayersRefusesNamesOutsideTheLayersDirectory) {
  for (const char* bad : {"", ".", "..", "../x", "a/b", "/abs"}) {
    Json j = {{"uid", 5}, {"lower", "base-1"}, {"upper", bad}, {"work", "work-1"}};
    WriteFile(ws_.root() + "/layers.json", j.dump());
    auto r = ws_.ReadLayers();
    testing::ExpectError(r, ErrorCode::kInternal, "layers.json names a bad layer in " + ws_.root());
  }
}

TEST_F(WorkspaceTest, ReadLayersReportsAMissingOrBrokenFile) {
  for (const char* text : {"not json", "{}", R"({"uid":"x","lower":"a","upper":"b","work":"c"})",
                                  R"({"uid":5,"lower":"a","upper":"b"})"}) {
    WriteFile(ws_.root() + "/layers.json", text);
    auto r = ws_.ReadLayers();
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code, ErrorCode::kInternal);
    EXPECT_EQ(r.error().message.rfind("unreadable layers.json in " + ws_.root() + ": ", 0), 0u)
        << r.error().message;
  }
  ASSERT_EQ(::unlink((ws_.root() + "/layers.json").c_str()), 0);
  EXPECT_FALSE(ws_.ReadLayers().ok());
}

TEST_F(WorkspaceTest, NewLayersAreFreshEmptyAndOwnedByKind) {
  auto upper = ws_.NewLayer("upper", kUid + 1);
  auto upper2 = ws_.NewLayer("upper", kUid + 1);
  auto work = ws_.NewLayer("work", kUid + 1);
  ASSERT_TRUE(upper.ok() && upper2.ok() && work.ok());
  EXPECT_NE(*upper, *upper2);
  EXPECT_EQ(upper->rfind("upper-", 0), 0u);
  EXPECT_EQ(work->rfind("work-", 0), 0u);
  EXPECT_EQ(ListTree(ws_.layers_dir() + "/" + *upper), Tree{});
  EXPECT_EQ(OwnerOf(ws_.layers_dir() + "/" + *upper), (Owner{kUid + 1, kUid + 1}));
  EXPECT_EQ(ModeOf(ws_.layers_dir() + "/" + *upper), 0755u);
  EXPECT_EQ(OwnerOf(ws_.layers_dir() + "/" + *work), (Owner{0, 0}));
  EXPECT_EQ(ModeOf(ws_.layers_dir() + "/" + *work), 0700u);
  EXPECT_EQ(LayerNames().size(), 6u);
}

TEST_F(WorkspaceTest, AdoptBaseMovesTheStagingTreeIntoLayers) {
  std::string staging = Staging();
  auto base = ws_.AdoptBase(staging);
  ASSERT_TRUE(base.ok()) << base.error().message;
  EXPECT_EQ(base->rfind("base-", 0), 0u);
  EXPECT_NE(*base, state_.lower);
  std::string dir = ws_.layers_dir() + "/" + *base;
  EXPECT_EQ(ListTree(dir), kStagedTree);
  EXPECT_EQ(ReadAll(dir + "/a.txt"), "alpha");
  EXPECT_EQ(ModeOf(dir + "/bin/run"), 0755u);
  EXPECT_EQ(ModeOf(dir + "/empty"), 0700u);
  EXPECT_EQ(ModeOf(dir), 0755u);  // the staging dir's mode
  EXPECT_FALSE(fs::Exists(staging));
  EXPECT_EQ(ListTree(ws_.tmp_dir()), Tree{});
}

TEST_F(WorkspaceTest, AdoptBaseOfAMissingStagingChangesNothing) {
  Tree before = LayerNames();
  std::string missing = ws_.tmp_dir() + "/stage-missing";
  auto r = ws_.AdoptBase(missing);
  testing::ExpectError(r, ErrorCode::kInternal, "rename " + missing + ": No such file or directory");
  EXPECT_EQ(LayerNames(), before);
}

TEST_F(WorkspaceTest, CollectLayersRemovesExactlyTheUnnamedLayers) {
  auto base = ws_.AdoptBase(Staging());
  auto upper = ws_.NewLayer("upper", kUid);
  auto work = ws_.NewLayer("work", kUid);
  ASSERT_TRUE(base.ok() && upper.ok() && work.ok());
  // A link in a collected layer is removed, not followed.
  TempDir outside;
  WriteFile(outside / "secret", "s");
  ASSERT_EQ(::symlink(outside.path().c_str(), (ws_.layers_dir() + "/" + state_.upper + "/out").c_str()), 0);
  LayerState next{kUid, *base, *upper, *work, false};
  ASSERT_TRUE(ws_.CollectLayers(next).ok());
  EXPECT_EQ(LayerNames(), Sorted({*base, *upper, *work}));
  EXPECT_EQ(ListTree(ws_.layers_dir() + "/" + *base), kStagedTree);
  EXPECT_EQ(ListTree(outside.path()), Tree{"f secret"});
  // Collecting again is a no-op.
  ASSERT_TRUE(ws_.CollectLayers(next).ok());
  EXPECT_EQ(LayerNames(), Sorted({*base, *upper, *work}));
}

TEST_F(WorkspaceTest, StagingDirsAreFreshAndUnderTmp) {
  auto a = ws_.NewStagingDir();
  auto b = ws_.NewStagingDir();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_EQ(a->rfind(ws_.tmp_dir() + "/stage-", 0), 0u) << *a;
  EXPECT_EQ(ListTree(*a), Tree{});
  EXPECT_EQ(ListTree(ws_.tmp_dir()).size(), 2u);
}

TEST_F(WorkspaceTest, ChownTreeGivesEverythingToTheUidWithoutFollowingLinks) {
  std::string staging = Staging();
  TempDir outside;
  WriteFile(outside / "secret", "s");
  ASSERT_EQ(::symlink((outside / "secret").c_str(), (staging + "/out").c_str()), 0);
  ASSERT_TRUE(ChownTree(staging, kUid).ok());
  const Owner sandbox{kUid, kUid};
  EXPECT_EQ(OwnerOf(staging), sandbox);
  for (const char* rel : {"a.txt", "bin", "bin/run", "empty", "link", "out"})
    EXPECT_EQ(OwnerOf(staging + "/" + rel), sandbox) << rel;
  EXPECT_EQ(OwnerOf(outside / "secret"), (Owner{0, 0}));
  EXPECT_EQ(ModeOf(staging + "/bin/run"), 0755u);  // modes kept
  testing::ExpectCode(ChownTree(dir_ / "missing", kUid), ErrorCode::kInternal);
}

TEST_F(WorkspaceTest, RepairDropsCrashLeftoversAndKeepsTheLayers) {
  std::string layers = ReadAll(ws_.root() + "/layers.json");
  WriteFile(ws_.layers_dir() + "/" + state_.upper + "/kept", "k");
  ASSERT_TRUE(fs::RemoveTree(ws_.dumps_dir()).ok());
  ASSERT_TRUE(fs::RemoveTree(ws_.logs_dir()).ok());
  auto stage = ws_.NewStagingDir();
  ASSERT_TRUE(stage.ok());
  WriteFile(*stage + "/half", "h");
  WriteFile(ws_.tmp_dir() + "/loose-file", "l");
  WriteFile(ws_.uploads_dir() + "/obj.tar.gz", "complete");
  WriteFile(ws_.uploads_dir() + "/obj.abc.part", "partial");

  ASSERT_TRUE(ws_.Repair().ok());
  EXPECT_EQ(TopLevel(ws_.root()), kTop);
  EXPECT_EQ(ListTree(ws_.uploads_dir()), Tree{"f obj.tar.gz"});
  EXPECT_EQ(ListTree(ws_.tmp_dir()), Tree{});
  EXPECT_EQ(ListTree(ws_.layers_dir() + "/" + state_.upper), Tree{"f kept"});
  EXPECT_EQ(ReadAll(ws_.root() + "/layers.json"), layers);
  EXPECT_EQ(ModeOf(ws_.dumps_dir()), 0700u);
  EXPECT_EQ(ModeOf(ws_.logs_dir()), 0700u);
}

TEST_F(WorkspaceTest, RepairDropsPartialDumpsOnly) {
  WriteFile(ws_.dumps_dir() + "/d.tar.gz.part", "partial");
  WriteFile(ws_.dumps_dir() + "/d.tar.gz", "done");
  ASSERT_TRUE(ws_.Repair().ok());
  EXPECT_EQ(ListTree(ws_.dumps_dir()), Tree{"f d.tar.gz"});
}

TEST_F(WorkspaceTest, RepairRecreatesAMissingExecDirForTheSandbox) {
  // BUG (src/sandbox/workspace.cc, Workspace::Repair): Repair recreates
  // layers/, root/, executions/, uploads/, dumps/ and tmp/ but not exec/,
  // which the jail bind-mounts at /exec: without it every jail start of the
  // sandbox fails. It must come back as Create makes it (0755, owned by the
  // sandbox's uid).
  ASSERT_TRUE(fs::RemoveTree(ws_.exec_dir()).ok());
  ASSERT_TRUE(ws_.Repair().ok());
  EXPECT_EQ(TopLevel(ws_.root()), kTop);
  EXPECT_EQ(ModeOf(ws_.exec_dir()), 0755u);
  EXPECT_EQ(OwnerOf(ws_.exec_dir()), (Owner{kUid, kUid}));
}

TEST_F(WorkspaceTest, DestroyRemovesEverythingAndToleratesAMissingRoot) {
  ASSERT_TRUE(ws_.AdoptBase(Staging()).ok());
  ::chmod(ws_.exec_dir().c_str(), 0500);  // read-only dirs do not stop it
  ASSERT_TRUE(ws_.Destroy().ok());
  EXPECT_FALSE(fs::Exists(ws_.root()));
  EXPECT_TRUE(ws_.Destroy().ok());
}

}  // namespace
}  // namespace sbx::sandbox
