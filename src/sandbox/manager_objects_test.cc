// Archive objects through the Manager: upload URLs, commits, initialize,
// reset and dump against real jails, and expiry of objects.
#include "sandbox/manager_objects_test_util.h"

namespace sbx::sandbox {
namespace {

using namespace objects_testing;  // NOLINT: shared fixture and helpers

TEST_F(ManagerObjectsTest, UploadUrlIsSignedForPutAndExpiresWithTheConfiguredLifetime) {
  auto url = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(url.ok()) << url.error().message;
  EXPECT_EQ(url->expires_in_minutes, 30);
  ObjectUrl u = ParseObjectUrl(url->url);
  EXPECT_EQ(u.base, testing::kPublicUrl);
  EXPECT_EQ(u.sandbox_id, sb_.id);
  EXPECT_TRUE(ids::IsTokenShaped(u.object_id));
  EXPECT_EQ(u.expires, std::to_string(kStartSeconds + 30 * 60));
  EXPECT_EQ(u.signature, signer_.Sign("PUT", sb_.id, u.object_id, kStartSeconds + 30 * 60));

  auto record = store_->GetArchive(u.object_id);
  ASSERT_TRUE(record.ok() && record->has_value());
  EXPECT_EQ((*record)->kind, store::ArchiveKind::kUpload);
  EXPECT_FALSE((*record)->complete);
  EXPECT_EQ((*record)->created_at, kStart);
  EXPECT_EQ((*record)->expires_at, kStart + 30 * 60 * 1'000'000ll);

  auto other = manager_->CreateUploadUrl("bob", sb_.id);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().message, "Local sandbox " + sb_.id + " not found");
}

TEST_F(ManagerObjectsTest, VerifyObjectUrlChecksMethodSandboxExpiryAndLiveness) {
  auto url = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(url.ok());
  ObjectUrl u = ParseObjectUrl(url->url);
  EXPECT_TRUE(Verify("PUT", u).ok());
  ExpectError(Verify("GET", u), ErrorCode::kForbidden, "Signed URL signature is invalid");

  auto other = Acquire("alice");
  ObjectUrl moved = u;
  moved.sandbox_id = other.id;
  ExpectError(Verify("PUT", moved), ErrorCode::kForbidden, "Signed URL signature is invalid");

  // A correctly signed URL for an object the store does not know.
  ObjectUrl unknown = u;
  unknown.object_id = "unknown-object";
  unknown.signature = signer_.Sign("PUT", sb_.id, "unknown-object", std::stoll(u.expires));
  ExpectError(Verify("PUT", unknown), ErrorCode::kNotFound, "The requested object no longer exists");

  clock_.Set((kStartSeconds + 30 * 60) * 1'000'000 - 1);
  EXPECT_TRUE(Verify("PUT", u).ok());
  clock_.Set((kStartSeconds + 30 * 60) * 1'000'000);
  ExpectError(Verify("PUT", u), ErrorCode::kForbidden, "Signed URL has expired");

  clock_.Set(kStart);
  ASSERT_TRUE(manager_->BeginRelease("alice", sb_.id).ok());
  ExpectError(Verify("PUT", u), ErrorCode::kNotFound, "The requested object no longer exists");
}

TEST_F(ManagerObjectsTest, CommitKeepsOnlyTheLatestUpload) {
  std::string first = Upload("alice", sb_.id, [](TarWriter& w) { w.File("one", "1"); });
  clock_.AdvanceSeconds(1);
  auto url = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(url.ok());
  std::string second = ParseObjectUrl(url->url).object_id;
  auto target = manager_->BeginUpload(sb_.id, second);
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->max_bytes, 1u << 20);
  std::string uploads = SandboxDir(sb_.id) + "/uploads/";
  EXPECT_EQ(target->part_path.rfind(uploads + second + ".", 0), 0u) << target->part_path;
  EXPECT_EQ(target->part_path.substr(target->part_path.size() - 5), ".part");
  WriteFile(target->part_path, "0123456789");
  // The pending second upload does not displace the first.
  Tree both = {"f " + first + ".tar.gz", "f " + target->part_path.substr(uploads.size())};
  std::sort(both.begin(), both.end());
  EXPECT_EQ(ListTree(uploads), both);

  ASSERT_TRUE(manager_->CommitUpload(sb_.id, second, *target, 10).ok());
  EXPECT_EQ(ListTree(uploads), Tree{"f " + second + ".tar.gz"});
  EXPECT_EQ(ReadAll(uploads + second + ".tar.gz"), "0123456789");
  auto archives = store_->ListArchives(sb_.id);
  ASSERT_TRUE(archives.ok());
  ASSERT_EQ(archives->size(), 1u);
  EXPECT_EQ((*archives)[0].object_id, second);
  EXPECT_TRUE((*archives)[0].complete);
  EXPECT_EQ((*archives)[0].size, 10u);
}

TEST_F(ManagerObjectsTest, AbortAndCommitAfterReleaseDiscardThePart) {
  auto url = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(url.ok());
  std::string object = ParseObjectUrl(url->url).object_id;
  auto aborted = manager_->BeginUpload(sb_.id, object);
  ASSERT_TRUE(aborted.ok());
  WriteFile(aborted->part_path, "x");
  manager_->AbortUpload(*aborted);
  EXPECT_FALSE(fs::Exists(aborted->part_path));

  auto late = manager_->BeginUpload(sb_.id, object);
  ASSERT_TRUE(late.ok());
  WriteFile(late->part_path, "y");
  ASSERT_TRUE(manager_->BeginRelease("alice", sb_.id).ok());
  ExpectError(manager_->CommitUpload(sb_.id, object, *late, 1), ErrorCode::kNotFound,
              "Local sandbox " + sb_.id + " not found");
  EXPECT_EQ(ListTree(SandboxDir(sb_.id) + "/uploads"), Tree{});
}

TEST_F(ManagerObjectsTest, CommitOfAnUploadWhoseRecordExpiredLeavesNoFile) {
  // The pending record is gone (its URL expired mid-upload and
  // CollectExpiredObjects deleted it): the renamed file must not stay behind.
  auto url = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(url.ok());
  std::string object = ParseObjectUrl(url->url).object_id;
  auto target = manager_->BeginUpload(sb_.id, object);
  ASSERT_TRUE(target.ok());
  WriteFile(target->part_path, "slow upload");
  clock_.AdvanceSeconds(31 * 60);
  ASSERT_TRUE(manager_->CollectExpiredObjects().ok());
  Status s = manager_->CommitUpload(sb_.id, object, *target, 11);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(ListTree(SandboxDir(sb_.id) + "/uploads"), Tree{});
}

TEST_F(ManagerObjectsTest, InitializeWithoutAnUploadIsRefusedAndChangesNothing) {
  EXPECT_EQ(RunIn(sb_.id, "echo agent work > /data/marker; echo ok"), "ok\n");
  std::string layers = LayersJson(sb_.id);
  auto r = manager_->Initialize("alice", sb_.id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message, "No archive has been uploaded to local sandbox " + sb_.id +
                                   ": get a URL from POST /local-sandbox/" + sb_.id +
                                   "/upload-url, PUT the tar.gz to it, then call initialize");
  EXPECT_EQ(Data(), "./marker\n");
  // A pending (never completed) upload does not count either.
  ASSERT_TRUE(manager_->CreateUploadUrl("alice", sb_.id).ok());
  testing::ExpectCode(manager_->Initialize("alice", sb_.id), ErrorCode::kInvalidArgument);
  testing::ExpectCode(manager_->Initialize("bob", sb_.id), ErrorCode::kNotFound);
  EXPECT_EQ(LayersJson(sb_.id), layers);
  EXPECT_EQ(Data(), "./marker\n");
}

TEST_F(ManagerObjectsTest, InitializeMakesDataExactlyTheLatestUpload) {
  EXPECT_EQ(RunIn(sb_.id, "echo agent work > /data/marker; echo ok"), "ok\n");
  LayerState before = Layers(sb_.id);
  pid_t agent = AgentPid(sb_.id);
  Upload("alice", sb_.id, [](TarWriter& w) { w.File("stale", "old upload"); });
  Upload("alice", sb_.id, [](TarWriter& w) {
    w.Dir("./").File("./README.md", "hello\n").Dir("src").File("src/main.py", "print(1)\n", 0755);
  });
  clock_.AdvanceSeconds(5);
  auto r = manager_->Initialize("alice", sb_.id);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->entries, 3u);
  EXPECT_EQ(r->bytes, 15u);

  // What the sandbox sees: exactly the archive (the marker is gone).
  EXPECT_EQ(Data(), "./README.md\n./src\n./src/main.py\n");
  EXPECT_EQ(RunIn(sb_.id, "cat /data/src/main.py; stat -c '%a %u' /data/src/main.py /data/README.md"),
            "print(1)\n755 0\n644 0\n");
  EXPECT_EQ(DumpMembers("alice", sb_.id), (Tree{"d ./", "f ./README.md", "d ./src/", "f ./src/main.py"}));
  // The same jail, switched to new layers: a new lower holding the tree
  // (owned by the sandbox's uid), a fresh upper; the old layers are gone.
  EXPECT_EQ(AgentPid(sb_.id), agent);
  LayerState after = Layers(sb_.id);
  EXPECT_FALSE(after.pending);
  EXPECT_EQ(after.uid, before.uid);
  EXPECT_NE(after.lower, before.lower);
  EXPECT_NE(after.upper, before.upper);
  EXPECT_NE(after.work, before.work);
  EXPECT_EQ(after.lower.rfind("base-", 0), 0u);
  EXPECT_EQ(LayerNames(sb_.id), NamesOf(after));
  EXPECT_EQ(ListTree(LayerDir(sb_.id, after.lower)), (Tree{"d src", "f README.md", "f src/main.py"}));
  EXPECT_EQ(ListTree(LayerDir(sb_.id, after.upper)), Tree{});
  struct stat st {};
  ASSERT_EQ(::stat((LayerDir(sb_.id, after.lower) + "/src/main.py").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, after.uid);
  EXPECT_EQ(ListTree(root_ + "/tmp"), Tree{});
  // The status was re-stamped at the initialize time.
  auto got = manager_->Get("alice", sb_.id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->status, "occupied");
  EXPECT_EQ(got->servers[0].updated_at, kStart + 5'000'000);
}

TEST_F(ManagerObjectsTest, WritesAfterInitializeGoToTheUpperLayer) {
  Initialize("alice", sb_.id, [](TarWriter& w) { w.File("a.txt", "A\n").File("b.txt", "B\n"); });
  LayerState layers = Layers(sb_.id);
  EXPECT_EQ(RunIn(sb_.id, "echo new > /data/new.txt; echo more >> /data/a.txt; rm /data/b.txt; cat /data/a.txt"),
            "A\nmore\n");
  std::string lower = LayerDir(sb_.id, layers.lower);
  std::string upper = LayerDir(sb_.id, layers.upper);
  EXPECT_EQ(ListTree(lower), (Tree{"f a.txt", "f b.txt"}));
  EXPECT_EQ(ReadAll(lower + "/a.txt"), "A\n");
  EXPECT_EQ(ReadAll(lower + "/b.txt"), "B\n");
  // The deletion is a whiteout (a character device) in the upper layer.
  EXPECT_EQ(ListTree(upper), (Tree{"f a.txt", "f new.txt", "o b.txt"}));
  EXPECT_EQ(ReadAll(upper + "/a.txt"), "A\nmore\n");
  EXPECT_EQ(ReadAll(upper + "/new.txt"), "new\n");
  struct stat st {};
  ASSERT_EQ(::stat((upper + "/new.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, layers.uid);
  EXPECT_EQ(Data(), "./a.txt\n./new.txt\n");
}

TEST_F(ManagerObjectsTest, HostileArchiveIsRefusedAndDataSurvives) {
  Initialize("alice", sb_.id, [](TarWriter& w) { w.File("good", "fine"); });
  EXPECT_EQ(RunIn(sb_.id, "echo agent work > /data/marker; echo ok"), "ok\n");
  std::string layers = LayersJson(sb_.id);
  Tree names = LayerNames(sb_.id);
  Upload("alice", sb_.id, [](TarWriter& w) { w.File("a", "a").File("../x", "evil"); });
  auto r = manager_->Initialize("alice", sb_.id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message, "archive entry \"../x\" escapes the workspace (\"..\")");
  EXPECT_EQ(LayersJson(sb_.id), layers);
  EXPECT_EQ(LayerNames(sb_.id), names);
  EXPECT_EQ(Data(), "./good\n./marker\n");
  EXPECT_EQ(RunIn(sb_.id, "cat /data/marker"), "agent work\n");
  EXPECT_EQ(ListTree(root_ + "/tmp"), Tree{});
  EXPECT_FALSE(fs::Exists(root_ + "/x"));
  EXPECT_FALSE(fs::Exists(root_ + "/layers/x"));
  EXPECT_EQ(StoredStatus(sb_.id), "occupied");
}

TEST_F(ManagerObjectsTest, ResetDiscardsTheChangesAndKeepsTheInitializedTree) {
  Initialize("alice", sb_.id, [](TarWriter& w) { w.File("a.txt", "A").Dir("d").File("d/b.txt", "B"); });
  LayerState before = Layers(sb_.id);
  pid_t agent = AgentPid(sb_.id);
  EXPECT_EQ(RunIn(sb_.id, "echo modified > /data/a.txt; echo new > /data/new.txt; rm /data/d/b.txt; echo ok"),
            "ok\n");
  EXPECT_EQ(Data(), "./a.txt\n./d\n./new.txt\n");
  clock_.AdvanceSeconds(9);
  ASSERT_TRUE(manager_->Reset("alice", sb_.id).ok());
  EXPECT_EQ(Data(), "./a.txt\n./d\n./d/b.txt\n");
  EXPECT_EQ(RunIn(sb_.id, "cat /data/a.txt /data/d/b.txt"), "AB");
  // Same jail and lower layer; fresh upper and work; the old ones collected.
  EXPECT_EQ(AgentPid(sb_.id), agent);
  LayerState after = Layers(sb_.id);
  EXPECT_EQ(after.lower, before.lower);
  EXPECT_NE(after.upper, before.upper);
  EXPECT_NE(after.work, before.work);
  EXPECT_FALSE(after.pending);
  EXPECT_EQ(LayerNames(sb_.id), NamesOf(after));
  EXPECT_EQ(ListTree(LayerDir(sb_.id, after.upper)), Tree{});
  EXPECT_EQ(manager_->Get("alice", sb_.id)->servers[0].updated_at, kStart + 9'000'000);
  Status other = manager_->Reset("bob", sb_.id);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, ErrorCode::kNotFound);
  // Resetting twice is the same as once.
  ASSERT_TRUE(manager_->Reset("alice", sb_.id).ok());
  EXPECT_EQ(Data(), "./a.txt\n./d\n./d/b.txt\n");
}

TEST_F(ManagerObjectsTest, ResetBeforeAnyInitializeEmptiesData) {
  EXPECT_EQ(RunIn(sb_.id, "echo x > /data/scratch; mkdir /data/d; echo ok"), "ok\n");
  ASSERT_TRUE(manager_->Reset("alice", sb_.id).ok());
  EXPECT_EQ(Data(), "");
  EXPECT_EQ(RunIn(sb_.id, "stat -c '%a %u' /data"), "755 0\n");
}

TEST_F(ManagerObjectsTest, DumpPacksTheMergedViewWithExactMembersAndSignsAGetUrl) {
  Initialize("alice", sb_.id,
             [](TarWriter& w) { w.File("a.txt", "A").File("b.txt", "bee").Dir("d").File("d/c.txt", "C"); });
  EXPECT_EQ(RunIn(sb_.id, "rm /data/a.txt; echo n > /data/new.txt; mkdir /data/e; ln -s b.txt /data/link; echo ok"),
            "ok\n");
  auto dump = manager_->Dump("alice", sb_.id);
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  EXPECT_EQ(dump->expires_in_minutes, 30);
  ObjectUrl u = ParseObjectUrl(dump->url);
  EXPECT_EQ(u.base, testing::kPublicUrl);
  EXPECT_EQ(u.sandbox_id, sb_.id);
  EXPECT_EQ(u.expires, std::to_string(kStartSeconds + 30 * 60));
  EXPECT_TRUE(Verify("GET", u).ok());
  ExpectError(Verify("PUT", u), ErrorCode::kForbidden, "Signed URL signature is invalid");

  auto path = manager_->ObjectPath(sb_.id, u.object_id);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, root_ + "/dumps/" + u.object_id + ".tar.gz");
  // Lower and upper merged; the deleted lower file is not there.
  EXPECT_EQ(ArchiveMembers(*path),
            (Tree{"d ./", "f ./b.txt", "d ./d/", "f ./d/c.txt", "d ./e/", "l ./link", "f ./new.txt"}));
  EXPECT_EQ(ListTree(root_ + "/dumps"), Tree{"f " + u.object_id + ".tar.gz"});

  auto record = store_->GetArchive(u.object_id);
  ASSERT_TRUE(record.ok() && record->has_value());
  EXPECT_EQ((*record)->kind, store::ArchiveKind::kDump);
  EXPECT_TRUE((*record)->complete);
  EXPECT_EQ((*record)->sandbox_id, sb_.id);
  struct stat st {};
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  EXPECT_EQ((*record)->size, static_cast<std::uint64_t>(st.st_size));

  // Upload objects and other sandboxes' objects are not dumps.
  std::string upload = Upload("alice", sb_.id, [](TarWriter& w) { w.File("x", "x"); });
  testing::ExpectCode(manager_->ObjectPath(sb_.id, upload), ErrorCode::kNotFound);
  testing::ExpectError(manager_->ObjectPath(Acquire("alice").id, u.object_id), ErrorCode::kNotFound,
                       "The requested object no longer exists");
  // Dumping changed nothing.
  EXPECT_EQ(Data(), "./b.txt\n./d\n./d/c.txt\n./e\n./link\n./new.txt\n");
}

TEST_F(ManagerObjectsTest, DumpOfAnEmptySandboxHoldsOnlyTheRoot) {
  EXPECT_EQ(DumpMembers("alice", sb_.id), Tree{"d ./"});
  testing::ExpectCode(manager_->Dump("bob", sb_.id), ErrorCode::kNotFound);
}

TEST_F(ManagerObjectsTest, DumpDoesNotFollowLinksTheSandboxPlanted) {
  // Links the sandbox made are packed as links: never followed to the
  // jail's or the host's files.
  EXPECT_EQ(RunIn(sb_.id, "ln -s /etc /data/etc; ln -s ../../../../../../etc/passwd /data/pw; echo ok"), "ok\n");
  EXPECT_EQ(DumpMembers("alice", sb_.id), (Tree{"d ./", "l ./etc", "l ./pw"}));
}

TEST_F(ManagerObjectsTest, CollectExpiredObjectsDeletesDumpsAndPendingUploadsOnly) {
  std::string upload = Upload("alice", sb_.id, [](TarWriter& w) { w.File("x", "x"); });
  auto pending = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(pending.ok());
  std::string pending_id = ParseObjectUrl(pending->url).object_id;
  auto dump = manager_->Dump("alice", sb_.id);
  ASSERT_TRUE(dump.ok());
  std::string dump_id = ParseObjectUrl(dump->url).object_id;
  std::string dumps = root_ + "/dumps";
  std::string uploads = root_ + "/uploads";

  clock_.Set(kStart + 30 * 60 * 1'000'000ll - 1);
  ASSERT_TRUE(manager_->CollectExpiredObjects().ok());
  EXPECT_EQ(ListTree(dumps), Tree{"f " + dump_id + ".tar.gz"});

  clock_.Set(kStart + 30 * 60 * 1'000'000ll);
  ASSERT_TRUE(manager_->CollectExpiredObjects().ok());
  EXPECT_EQ(ListTree(dumps), Tree{});
  EXPECT_EQ(ListTree(uploads), Tree{"f " + upload + ".tar.gz"});
  auto archives = store_->ListArchives(sb_.id);
  ASSERT_TRUE(archives.ok());
  ASSERT_EQ(archives->size(), 1u);
  EXPECT_EQ((*archives)[0].object_id, upload);
  EXPECT_FALSE(store_->GetArchive(pending_id)->has_value());
  testing::ExpectCode(manager_->ObjectPath(sb_.id, dump_id), ErrorCode::kNotFound);
  // The kept upload still initializes after its URL expired.
  EXPECT_TRUE(manager_->Initialize("alice", sb_.id).ok());
  EXPECT_EQ(Data(), "./x\n");
}

}  // namespace
}  // namespace sbx::sandbox
