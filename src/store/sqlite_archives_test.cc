#include <string>
#include <vector>

#include "store/store_test_util.h"

namespace sbx::store::testing_util {
namespace {

// --- archive objects

TEST_F(SqliteStoreTest, ArchiveLifecyclePendingThenComplete) {
  ASSERT_OK(store_->InsertSandbox(Sandbox("sb1", "alice", 1000)));
  ArchiveRecord upload = Archive("o1", "sb1", ArchiveKind::kUpload, 2000);
  ASSERT_OK(store_->InsertArchive(upload));
  ASSERT_OK_AND_ASSIGN(pending, store_->GetArchive("o1"));
  ASSERT_TRUE(pending.has_value());
  EXPECT_EQ(*pending, upload);
  EXPECT_FALSE(pending->complete);
  ASSERT_OK_AND_ASSIGN(none, store_->LatestComplete("sb1", ArchiveKind::kUpload, ""));
  EXPECT_FALSE(none.has_value());

  // Larger than 2^32 and close to 2^63, to catch a narrowing on the way.
  const std::uint64_t size = (1ull << 62) + 12345;
  ASSERT_OK(store_->CompleteArchive("o1", size, 3000));
  ASSERT_OK_AND_ASSIGN(done, store_->GetArchive("o1"));
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->complete);
  EXPECT_EQ(done->size, size);
  EXPECT_EQ(done->created_at, 2000);

  Status missing = store_->CompleteArchive("nope", 1, 3000);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);

  Status dup = store_->InsertArchive(Archive("o1", "sb1", ArchiveKind::kDump, 4000));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().code, ErrorCode::kConflict);
  ASSERT_OK_AND_ASSIGN(kept, store_->GetArchive("o1"));
  EXPECT_EQ(kept->kind, ArchiveKind::kUpload);

  Status orphan = store_->InsertArchive(Archive("o9", "no-such-sandbox", ArchiveKind::kDump, 1));
  ASSERT_FALSE(orphan.ok());
  EXPECT_EQ(orphan.error().code, ErrorCode::kNotFound);
}

TEST_F(SqliteStoreTest, ArchiveRoundTripEveryKindAndField) {
  ASSERT_OK(store_->InsertSandbox(Sandbox("sb1", "alice", 1000)));
  ASSERT_OK(store_->InsertSandbox(Sandbox("sb2", "alice", 1000)));
  std::vector<ArchiveRecord> inserted;
  int t = 100;
  for (ArchiveKind kind : {ArchiveKind::kUpload, ArchiveKind::kDump, ArchiveKind::kExecutionUpload,
                           ArchiveKind::kArtifacts}) {
    ArchiveRecord a = Archive("obj" + std::to_string(t), "sb1", kind, t);
    a.complete = kind == ArchiveKind::kDump;
    a.size = a.complete ? 777 : 0;
    a.label = kind == ArchiveKind::kExecutionUpload ? "run-1" : "";
    ASSERT_OK(store_->InsertArchive(a));
    inserted.push_back(a);
    t += 100;
  }
  ASSERT_OK(store_->InsertArchive(Archive("other", "sb2", ArchiveKind::kDump, 50)));

  ASSERT_OK_AND_ASSIGN(listed, store_->ListArchives("sb1"));
  EXPECT_EQ(listed, inserted);
}

TEST_F(SqliteStoreTest, LatestCompleteOrdersByCompletionAndFiltersLabelAndKind) {
  ASSERT_OK(store_->InsertSandbox(Sandbox("sb1", "alice", 1000)));
  ASSERT_OK(store_->InsertSandbox(Sandbox("sb2", "alice", 1000)));
  // Created a before b, but b completes first: the latest is a.
  ASSERT_OK(store_->InsertArchive(Archive("a", "sb1", ArchiveKind::kUpload, 100)));
  ASSERT_OK(store_->InsertArchive(Archive("b", "sb1", ArchiveKind::kUpload, 200)));
  ASSERT_OK(store_->InsertArchive(Archive("pending", "sb1", ArchiveKind::kUpload, 900)));
  ASSERT_OK(store_->CompleteArchive("b", 10, 300));
  ASSERT_OK(store_->CompleteArchive("a", 20, 400));
  // Other kinds and other sandboxes must not leak in, however recent.
  ArchiveRecord dump = Archive("d", "sb1", ArchiveKind::kDump, 5000);
  dump.complete = true;
  ASSERT_OK(store_->InsertArchive(dump));
  ASSERT_OK(store_->InsertArchive(Archive("x", "sb2", ArchiveKind::kUpload, 100)));
  ASSERT_OK(store_->CompleteArchive("x", 30, 6000));

  ASSERT_OK_AND_ASSIGN(latest, store_->LatestComplete("sb1", ArchiveKind::kUpload, ""));
  ASSERT_TRUE(latest.has_value());
  EXPECT_EQ(latest->object_id, "a");
  EXPECT_EQ(latest->size, 20u);
  ASSERT_OK_AND_ASSIGN(latest_dump, store_->LatestComplete("sb1", ArchiveKind::kDump, ""));
  ASSERT_TRUE(latest_dump.has_value());
  EXPECT_EQ(latest_dump->object_id, "d");

  // Execution archives: the label picks the execution.
  ArchiveRecord run1 = Archive("r1", "sb1", ArchiveKind::kExecutionUpload, 100);
  run1.label = "run1";
  ArchiveRecord run2 = Archive("r2", "sb1", ArchiveKind::kExecutionUpload, 100);
  run2.label = "run2";
  ASSERT_OK(store_->InsertArchive(run1));
  ASSERT_OK(store_->InsertArchive(run2));
  ASSERT_OK(store_->CompleteArchive("r1", 1, 500));
  ASSERT_OK(store_->CompleteArchive("r2", 2, 600));
  ASSERT_OK_AND_ASSIGN(by_label,
                       store_->LatestComplete("sb1", ArchiveKind::kExecutionUpload, "run1"));
  ASSERT_TRUE(by_label.has_value());
  EXPECT_EQ(by_label->object_id, "r1");
  ASSERT_OK_AND_ASSIGN(any_label, store_->LatestComplete("sb1", ArchiveKind::kExecutionUpload, ""));
  ASSERT_TRUE(any_label.has_value());
  EXPECT_EQ(any_label->object_id, "r2");
  ASSERT_OK_AND_ASSIGN(no_label,
                       store_->LatestComplete("sb1", ArchiveKind::kExecutionUpload, "run3"));
  EXPECT_FALSE(no_label.has_value());

  // Re-completing an older upload (a second PUT) makes it the latest again.
  ASSERT_OK(store_->CompleteArchive("b", 11, 700));
  ASSERT_OK_AND_ASSIGN(again, store_->LatestComplete("sb1", ArchiveKind::kUpload, ""));
  EXPECT_EQ(again->object_id, "b");
  EXPECT_EQ(again->size, 11u);
}

TEST_F(SqliteStoreTest, ExpiredArchivesByKindAndDeleteArchive) {
  ASSERT_OK(store_->InsertSandbox(Sandbox("sb1", "alice", 1000)));
  auto with_expiry = [](std::string id, ArchiveKind kind, UnixMicros expires_at) {
    ArchiveRecord a = Archive(std::move(id), "sb1", kind, 1);
    a.expires_at = expires_at;
    return a;
  };
  ASSERT_OK(store_->InsertArchive(with_expiry("d-late", ArchiveKind::kDump, 900)));
  ASSERT_OK(store_->InsertArchive(with_expiry("d-early", ArchiveKind::kDump, 100)));
  ASSERT_OK(store_->InsertArchive(with_expiry("d-exact", ArchiveKind::kDump, 1000)));
  ASSERT_OK(store_->InsertArchive(with_expiry("d-future", ArchiveKind::kDump, 1001)));
  ASSERT_OK(store_->InsertArchive(with_expiry("u-old", ArchiveKind::kUpload, 5)));

  ASSERT_OK_AND_ASSIGN(dumps, store_->ExpiredArchives(ArchiveKind::kDump, 1000));
  std::vector<std::string> ids;
  for (const ArchiveRecord& a : dumps) ids.push_back(a.object_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"d-early", "d-late", "d-exact"}));
  ASSERT_OK_AND_ASSIGN(uploads, store_->ExpiredArchives(ArchiveKind::kUpload, 1000));
  ASSERT_EQ(uploads.size(), 1u);
  EXPECT_EQ(uploads[0], with_expiry("u-old", ArchiveKind::kUpload, 5));
  ASSERT_OK_AND_ASSIGN(artifacts, store_->ExpiredArchives(ArchiveKind::kArtifacts, 1000));
  EXPECT_TRUE(artifacts.empty());

  ASSERT_OK(store_->DeleteArchive("d-early"));
  ASSERT_OK(store_->DeleteArchive("d-early"));  // missing is fine
  ASSERT_OK_AND_ASSIGN(gone, store_->GetArchive("d-early"));
  EXPECT_FALSE(gone.has_value());
  ASSERT_OK_AND_ASSIGN(left, store_->ExpiredArchives(ArchiveKind::kDump, 1000));
  EXPECT_EQ(left.size(), 2u);
}

}  // namespace
}  // namespace sbx::store::testing_util
