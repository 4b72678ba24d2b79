#include "servers/filesystem/listing_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include <gtest/gtest.h>

#include "core/unique_fd.h"

namespace sbx::servers::filesystem {
namespace {

namespace fs = std::filesystem;

class ListingCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/listing-cache-XXXXXX";
    root_ = ::mkdtemp(tmpl);
    for (const char* name : {"b", "a", "c"}) Touch(name);
    fs::create_directory(root_ / "d");
  }
  void TearDown() override { fs::remove_all(root_); }
  void Touch(const std::string& name) { std::fclose(std::fopen((root_ / name).c_str(), "w")); }
  UniqueFd Open() { return UniqueFd(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)); }
  static std::string Names(const Entries& e) {
    std::string out;
    for (const auto& x : *e) out += x.name + (x.type == DT_DIR ? "/ " : " ");
    return out;
  }
  // Lets the directory's change time fall behind the settle time.
  static void Settle() { std::this_thread::sleep_for(ListingCache::kSettleTime + std::chrono::milliseconds(30)); }
  fs::path root_;
};

TEST_F(ListingCacheTest, KeepsASettledListingAndSeesEveryLaterChange) {
  ListingCache cache(8, 1 << 20);
  Settle();
  UniqueFd dir = Open();
  Entries first, second;
  ASSERT_EQ(cache.Read(dir.get(), 100, first), 0);
  EXPECT_EQ(Names(first), "a b c d/ ");
  ASSERT_EQ(cache.Read(dir.get(), 100, second), 0);
  EXPECT_EQ(first.get(), second.get()) << "a settled directory is read from the cache";

  // Changes right after the cached read, in the same clock tick.
  Touch("e");
  ASSERT_EQ(cache.Read(dir.get(), 100, second), 0);
  EXPECT_EQ(Names(second), "a b c d/ e ");
  Settle();
  ASSERT_EQ(cache.Read(dir.get(), 100, first), 0);
  fs::rename(root_ / "a", root_ / "z");
  ASSERT_EQ(cache.Read(dir.get(), 100, second), 0);
  EXPECT_EQ(Names(second), "b c d/ e z ");
  Settle();
  ASSERT_EQ(cache.Read(dir.get(), 100, first), 0);
  fs::remove(root_ / "b");
  fs::remove(root_ / "d");
  fs::create_directory(root_ / "b");  // same name, new type
  ASSERT_EQ(cache.Read(dir.get(), 100, second), 0);
  EXPECT_EQ(Names(second), "b/ c e z ");
}

TEST_F(ListingCacheTest, DoesNotKeepADirectoryThatJustChanged) {
  ListingCache cache(8, 1 << 20);
  Touch("fresh");
  UniqueFd dir = Open();
  Entries first, second;
  ASSERT_EQ(cache.Read(dir.get(), 100, first), 0);
  ASSERT_EQ(cache.Read(dir.get(), 100, second), 0);
  EXPECT_NE(first.get(), second.get());
  EXPECT_EQ(Names(second), "a b c d/ fresh ");
}

TEST_F(ListingCacheTest, BoundsAndEntryLimit) {
  ListingCache cache(1, 1 << 20);
  fs::create_directory(root_ / "d" / "x");
  Settle();
  UniqueFd dir = Open();
  UniqueFd sub(::open((root_ / "d").c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  Entries a, b, again;
  ASSERT_EQ(cache.Read(dir.get(), 100, a), 0);
  ASSERT_EQ(cache.Read(sub.get(), 100, b), 0);  // evicts the first: one slot
  ASSERT_EQ(cache.Read(dir.get(), 100, again), 0);
  EXPECT_NE(a.get(), again.get());
  // A cached listing larger than the caller's limit is not handed out.
  EXPECT_EQ(cache.Read(dir.get(), 2, again), E2BIG);
}

}  // namespace
}  // namespace sbx::servers::filesystem
