#include "daemon/bootstrap.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "core/crypto.h"
#include "core/fs.h"
#include "core/ids.h"
#include "store/store.h"

namespace sbx::daemon {
namespace {

mode_t ModeOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return static_cast<mode_t>(-1);
  return st.st_mode & 07777;
}

class BootstrapTest : public ::testing::Test {
 protected:
  void SetUp() override {
    old_umask_ = ::umask(022);
    char tmpl[] = "/tmp/sbx-bootstrap-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    tmp_ = tmpl;
  }
  void TearDown() override {
    (void)fs::RemoveTree(tmp_);
    ::umask(old_umask_);
  }

  std::unique_ptr<store::Store> OpenStore() {
    auto s = store::OpenSqliteStore(tmp_ + "/state.db");
    EXPECT_TRUE(s.ok()) << s.error().message;
    return s.ok() ? std::move(s).value() : nullptr;
  }

  mode_t old_umask_ = 022;
  std::string tmp_;
};

TEST_F(BootstrapTest, PrepareDataDirCreatesNestedDirsPrivate) {
  std::string dir = tmp_ + "/a/b/data";
  ASSERT_TRUE(PrepareDataDir(dir).ok());
  EXPECT_EQ(ModeOf(dir), 0700u);
  EXPECT_EQ(ModeOf(tmp_ + "/a"), 0700u);
  // Preparing again is fine and changes nothing.
  ASSERT_TRUE(PrepareDataDir(dir).ok());
  EXPECT_EQ(ModeOf(dir), 0700u);
}

TEST_F(BootstrapTest, PrepareDataDirTightensADirOthersCanWrite) {
  for (mode_t loose : {0777u, 0775u, 0757u, 0722u}) {
    std::string dir = tmp_ + "/loose" + std::to_string(loose);
    ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
    ASSERT_EQ(::chmod(dir.c_str(), loose), 0);
    ASSERT_TRUE(PrepareDataDir(dir).ok());
    EXPECT_EQ(ModeOf(dir), 0700u) << std::oct << loose;
  }
}

TEST_F(BootstrapTest, PrepareDataDirLeavesAnAlreadySafeDirAlone) {
  std::string dir = tmp_ + "/readable";
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  ASSERT_TRUE(PrepareDataDir(dir).ok());
  EXPECT_EQ(ModeOf(dir), 0755u);
}

TEST_F(BootstrapTest, PrepareDataDirRefusesAFile) {
  std::string file = tmp_ + "/file";
  ASSERT_TRUE(fs::WriteFileAtomic(file, "x").ok());
  Status s = PrepareDataDir(file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "not a directory: " + file);
}

TEST_F(BootstrapTest, SecretIsCreatedOnceWith32BytesAndMode0600) {
  auto first = LoadOrCreateSecret(tmp_);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(first->size(), 32u);
  EXPECT_EQ(ModeOf(tmp_ + "/secret.key"), 0600u);
  EXPECT_EQ(fs::ReadFile(tmp_ + "/secret.key").value(), *first);
  EXPECT_FALSE(fs::Exists(tmp_ + "/secret.key.tmp"));
  auto second = LoadOrCreateSecret(tmp_);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, *first);
  // Another data dir gets another secret.
  ASSERT_TRUE(PrepareDataDir(tmp_ + "/other").ok());
  auto other = LoadOrCreateSecret(tmp_ + "/other");
  ASSERT_TRUE(other.ok());
  EXPECT_NE(*other, *first);
}

TEST_F(BootstrapTest, AnExistingLongerSecretIsUsedAsIs) {
  std::string secret(48, 'z');
  ASSERT_TRUE(fs::WriteFileAtomic(tmp_ + "/secret.key", secret).ok());
  auto r = LoadOrCreateSecret(tmp_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, secret);
}

TEST_F(BootstrapTest, AShortSecretFileIsRefusedNotReplaced) {
  ASSERT_TRUE(fs::WriteFileAtomic(tmp_ + "/secret.key", "too short").ok());
  auto r = LoadOrCreateSecret(tmp_);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  EXPECT_EQ(r.error().message, tmp_ + "/secret.key is too short");
  EXPECT_EQ(fs::ReadFile(tmp_ + "/secret.key").value(), "too short");
}

TEST_F(BootstrapTest, AdminKeyIsCreatedExactlyOnce) {
  auto store = OpenStore();
  ASSERT_TRUE(store);
  auto key = EnsureAdminKey(*store, tmp_);
  ASSERT_TRUE(key.ok()) << key.error().message;
  ASSERT_EQ(key->size(), 4u + 43u);
  EXPECT_EQ(key->substr(0, 4), "sbx_");
  EXPECT_TRUE(ids::IsTokenShaped(key->substr(4)));

  std::string path = tmp_ + "/admin.key";
  EXPECT_EQ(ModeOf(path), 0600u);
  EXPECT_EQ(fs::ReadFile(path).value(), *key + "\n");

  auto keys = store->ListKeys();
  ASSERT_TRUE(keys.ok());
  ASSERT_EQ(keys->size(), 1u);
  const store::ApiKeyRecord& k = (*keys)[0];
  EXPECT_TRUE(ids::IsUuid(k.id));
  EXPECT_EQ(k.owner, "admin");
  EXPECT_TRUE(k.admin);
  EXPECT_EQ(k.key_hash, crypto::Sha256Hex(*key));
  EXPECT_EQ(k.prefix, key->substr(0, 12));
  EXPECT_EQ(k.revoked_at, std::nullopt);
  EXPECT_GT(k.created_at, 1'600'000'000'000'000);
  auto found = store->FindActiveKeyByHash(crypto::Sha256Hex(*key));
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->id, k.id);

  auto again = EnsureAdminKey(*store, tmp_);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, "");
  EXPECT_EQ(store->CountKeys().value(), 1);
  EXPECT_EQ(fs::ReadFile(path).value(), *key + "\n");
}

TEST_F(BootstrapTest, NoAdminKeyWhenTheStoreAlreadyHasKeys) {
  auto store = OpenStore();
  ASSERT_TRUE(store);
  store::ApiKeyRecord existing{ids::NewUuid(), "alice", "hash", "sbx_abcdefgh", false, 1, 5};
  ASSERT_TRUE(store->InsertKey(existing).ok());  // even a revoked one counts
  auto r = EnsureAdminKey(*store, tmp_);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "");
  EXPECT_FALSE(fs::Exists(tmp_ + "/admin.key"));
  EXPECT_EQ(store->CountKeys().value(), 1);
}

TEST_F(BootstrapTest, AdminKeyFileFailureInsertsNoKey) {
  auto store = OpenStore();
  ASSERT_TRUE(store);
  auto r = EnsureAdminKey(*store, tmp_ + "/missing-dir");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInternal);
  EXPECT_EQ(store->CountKeys().value(), 0);
}

}  // namespace
}  // namespace sbx::daemon
