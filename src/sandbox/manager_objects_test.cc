// Manager: signed object URLs, uploads, initialize / reset / dump, object
// expiry and start-up recovery.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/ids.h"
#include "sandbox/manager.h"
#include "sandbox/sandbox_test_util.h"

namespace sbx::sandbox {
namespace {

using testing::ArchiveMembers;
using testing::kStart;
using testing::ListTree;
using testing::ObjectUrl;
using testing::ParseObjectUrl;
using testing::ReadAll;
using testing::TarWriter;
using testing::WriteFile;
using Tree = std::vector<std::string>;

constexpr std::int64_t kStartSeconds = kStart / 1'000'000;

class ManagerObjectsTest : public testing::ManagerTest {
 protected:
  void SetUp() override {
    testing::ManagerTest::SetUp();
    sb_ = Acquire("alice");
    work_ = SandboxDir(sb_.id) + "/work";
    base_ = SandboxDir(sb_.id) + "/base";
  }

  Status Verify(const std::string& method, const ObjectUrl& u) {
    return manager_->VerifyObjectUrl(method, u.sandbox_id, u.object_id, u.expires, u.signature);
  }
  void ExpectError(const Status& s, ErrorCode code, const std::string& message) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, code);
    EXPECT_EQ(s.error().message, message);
  }

  store::SandboxRecord sb_;
  std::string work_, base_;
};

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
  // BUG (src/sandbox/manager.cc:269-273, CommitUpload): the part file is renamed to
  // uploads/<object>.tar.gz before CompleteArchive; when the pending record
  // is gone (its URL expired mid-upload and CollectExpiredObjects deleted it)
  // CompleteArchive fails with kNotFound and the renamed file stays on disk
  // with no record (until the next Recover), up to max_upload_bytes each.
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
  WriteFile(work_ + "/marker", "agent work");
  auto r = manager_->Initialize("alice", sb_.id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message, "No archive has been uploaded to local sandbox " + sb_.id +
                                   ": get a URL from POST /local-sandbox/" + sb_.id +
                                   "/upload-url, PUT the tar.gz to it, then call initialize");
  EXPECT_EQ(ListTree(work_), Tree{"f marker"});
  // A pending (never completed) upload does not count either.
  ASSERT_TRUE(manager_->CreateUploadUrl("alice", sb_.id).ok());
  EXPECT_EQ(manager_->Initialize("alice", sb_.id).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(manager_->Initialize("bob", sb_.id).error().code, ErrorCode::kNotFound);
}

TEST_F(ManagerObjectsTest, InitializeReplacesWorkAndBaseWithTheLatestUpload) {
  WriteFile(work_ + "/marker", "agent work");
  Upload("alice", sb_.id, [](TarWriter& w) { w.File("stale", "old upload"); });
  Upload("alice", sb_.id, [](TarWriter& w) {
    w.Dir("./").File("./README.md", "hello\n").Dir("src").File("src/main.py", "print(1)\n", 0755);
  });
  clock_.AdvanceSeconds(5);
  auto r = manager_->Initialize("alice", sb_.id);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->entries, 3u);
  EXPECT_EQ(r->bytes, 15u);
  const Tree expected = {"d src", "f README.md", "f src/main.py"};
  EXPECT_EQ(ListTree(work_), expected);
  EXPECT_EQ(ListTree(base_), expected);
  EXPECT_EQ(ReadAll(work_ + "/src/main.py"), "print(1)\n");
  EXPECT_EQ(ListTree(SandboxDir(sb_.id) + "/tmp"), Tree{});
  // The status was re-stamped at the initialize time.
  auto got = manager_->Get("alice", sb_.id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->status, "occupied");
  EXPECT_EQ(got->servers[0].updated_at, kStart + 5'000'000);
}

TEST_F(ManagerObjectsTest, HostileArchiveIsRefusedAndWorkSurvives) {
  Upload("alice", sb_.id, [](TarWriter& w) { w.File("good", "fine"); });
  ASSERT_TRUE(manager_->Initialize("alice", sb_.id).ok());
  WriteFile(work_ + "/marker", "agent work");
  Upload("alice", sb_.id, [](TarWriter& w) { w.File("a", "a").File("../x", "evil"); });
  auto r = manager_->Initialize("alice", sb_.id);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message, "archive entry \"../x\" escapes the workspace (\"..\")");
  EXPECT_EQ(ListTree(work_), (Tree{"f good", "f marker"}));
  EXPECT_EQ(ReadAll(work_ + "/marker"), "agent work");
  EXPECT_EQ(ListTree(base_), Tree{"f good"});
  EXPECT_EQ(ListTree(SandboxDir(sb_.id) + "/tmp"), Tree{});
  EXPECT_FALSE(fs::Exists(SandboxDir(sb_.id) + "/x"));
}

TEST_F(ManagerObjectsTest, ResetRestoresTheInitializedTree) {
  Upload("alice", sb_.id, [](TarWriter& w) { w.File("a.txt", "A").Dir("d").File("d/b.txt", "B"); });
  ASSERT_TRUE(manager_->Initialize("alice", sb_.id).ok());
  WriteFile(work_ + "/a.txt", "modified");
  WriteFile(work_ + "/new.txt", "new");
  ASSERT_EQ(::unlink((work_ + "/d/b.txt").c_str()), 0);
  clock_.AdvanceSeconds(9);
  ASSERT_TRUE(manager_->Reset("alice", sb_.id).ok());
  EXPECT_EQ(ListTree(work_), (Tree{"d d", "f a.txt", "f d/b.txt"}));
  EXPECT_EQ(ReadAll(work_ + "/a.txt"), "A");
  EXPECT_EQ(manager_->Get("alice", sb_.id)->servers[0].updated_at, kStart + 9'000'000);
  Status other = manager_->Reset("bob", sb_.id);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, ErrorCode::kNotFound);
}

TEST_F(ManagerObjectsTest, DumpPacksWorkWithExactMembersAndSignsAGetUrl) {
  WriteFile(work_ + "/b.txt", "bee");
  ASSERT_EQ(::mkdir((work_ + "/a").c_str(), 0755), 0);
  WriteFile(work_ + "/a/z.txt", "zed");
  ASSERT_EQ(::symlink("b.txt", (work_ + "/link").c_str()), 0);
  auto dump = manager_->Dump("alice", sb_.id);
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  EXPECT_EQ(dump->expires_in_minutes, 30);
  ObjectUrl u = ParseObjectUrl(dump->url);
  EXPECT_TRUE(Verify("GET", u).ok());
  ExpectError(Verify("PUT", u), ErrorCode::kForbidden, "Signed URL signature is invalid");

  auto path = manager_->DumpPath(sb_.id, u.object_id);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(*path, SandboxDir(sb_.id) + "/dumps/" + u.object_id + ".tar.gz");
  EXPECT_EQ(ArchiveMembers(*path), (Tree{"d ./", "d ./a/", "f ./a/z.txt", "f ./b.txt", "l ./link"}));
  EXPECT_EQ(ListTree(SandboxDir(sb_.id) + "/dumps"), Tree{"f " + u.object_id + ".tar.gz"});

  auto record = store_->GetArchive(u.object_id);
  ASSERT_TRUE(record.ok() && record->has_value());
  EXPECT_EQ((*record)->kind, store::ArchiveKind::kDump);
  EXPECT_TRUE((*record)->complete);
  struct stat st {};
  ASSERT_EQ(::stat(path->c_str(), &st), 0);
  EXPECT_EQ((*record)->size, static_cast<std::uint64_t>(st.st_size));

  // Upload objects and other sandboxes' objects are not dumps.
  std::string upload = Upload("alice", sb_.id, [](TarWriter& w) { w.File("x", "x"); });
  EXPECT_EQ(manager_->DumpPath(sb_.id, upload).error().code, ErrorCode::kNotFound);
  EXPECT_EQ(manager_->DumpPath(Acquire("alice").id, u.object_id).error().message,
            "The requested object no longer exists");
}

TEST_F(ManagerObjectsTest, DumpOfAnEmptyWorkspaceHoldsOnlyTheRoot) {
  auto dump = manager_->Dump("alice", sb_.id);
  ASSERT_TRUE(dump.ok());
  auto path = manager_->DumpPath(sb_.id, ParseObjectUrl(dump->url).object_id);
  ASSERT_TRUE(path.ok());
  EXPECT_EQ(ArchiveMembers(*path), Tree{"d ./"});
  EXPECT_EQ(manager_->Dump("bob", sb_.id).error().code, ErrorCode::kNotFound);
}

TEST_F(ManagerObjectsTest, CollectExpiredObjectsDeletesDumpsAndPendingUploadsOnly) {
  std::string upload = Upload("alice", sb_.id, [](TarWriter& w) { w.File("x", "x"); });
  auto pending = manager_->CreateUploadUrl("alice", sb_.id);
  ASSERT_TRUE(pending.ok());
  std::string pending_id = ParseObjectUrl(pending->url).object_id;
  auto dump = manager_->Dump("alice", sb_.id);
  ASSERT_TRUE(dump.ok());
  std::string dump_id = ParseObjectUrl(dump->url).object_id;
  std::string dumps = SandboxDir(sb_.id) + "/dumps";
  std::string uploads = SandboxDir(sb_.id) + "/uploads";

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
  // The kept upload still initializes after its URL expired.
  EXPECT_TRUE(manager_->Initialize("alice", sb_.id).ok());
  EXPECT_EQ(ListTree(work_), Tree{"f x"});
}

TEST_F(ManagerObjectsTest, RecoverReconcilesTheDiskWithTheStore) {
  std::string root = SandboxDir(sb_.id);
  std::string upload = Upload("alice", sb_.id, [](TarWriter& w) { w.File("x", "x"); });
  WriteFile(work_ + "/kept", "k");
  WriteFile(root + "/uploads/" + upload + ".zz.part", "partial");
  WriteFile(root + "/uploads/stray.tar.gz", "no record");
  WriteFile(root + "/dumps/d.tar.gz.part", "partial");
  ASSERT_EQ(::mkdir((root + "/tmp/stage-x").c_str(), 0755), 0);
  WriteFile(root + "/tmp/stage-x/f", "half");
  ASSERT_TRUE(fs::RemoveTree(root + "/base").ok());

  auto releasing = Acquire("alice");
  ASSERT_TRUE(manager_->BeginRelease("alice", releasing.id).ok());
  WriteFile(SandboxDir(releasing.id) + "/work/left", "l");

  std::string orphan = SandboxDir(ids::NewUuid());
  ASSERT_TRUE(fs::MakeDirs(orphan + "/work/deep").ok());
  WriteFile(orphan + "/work/deep/f", "orphaned");
  WriteFile(data_dir_ + "/sandboxes/not-a-dir", "junk");

  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, std::vector<std::string>{releasing.id});
  std::vector<std::string> top;
  for (const auto& line : ListTree(data_dir_ + "/sandboxes"))
    if (line.find('/') == std::string::npos) top.push_back(line);
  Tree expected_top = {"d " + sb_.id, "d " + releasing.id};
  std::sort(expected_top.begin(), expected_top.end());
  EXPECT_EQ(top, expected_top);
  EXPECT_EQ(ListTree(root), (Tree{"d base", "d dumps", "d tmp", "d uploads", "d work",
                                  "f uploads/" + upload + ".tar.gz", "f work/kept"}));
  // The releasing sandbox is left for FinishRelease.
  EXPECT_EQ(ReadAll(SandboxDir(releasing.id) + "/work/left"), "l");
  ASSERT_TRUE(manager_->FinishRelease(releasing.id).ok());
  EXPECT_FALSE(fs::Exists(SandboxDir(releasing.id)));
}

TEST_F(ManagerObjectsTest, RecoverRecreatesAMissingSandboxDirectory) {
  ASSERT_TRUE(fs::RemoveTree(SandboxDir(sb_.id)).ok());
  auto r = manager_->Recover();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->empty());
  EXPECT_EQ(ListTree(SandboxDir(sb_.id)), (Tree{"d base", "d dumps", "d tmp", "d uploads", "d work"}));
}

}  // namespace
}  // namespace sbx::sandbox
