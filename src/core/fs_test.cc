#include "core/fs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

namespace sbx::fs {
namespace {

class FsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fs_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { ASSERT_TRUE(RemoveTree(dir_)); }
  void Write(const std::string& rel, const std::string& data) {
    std::ofstream(dir_ + "/" + rel) << data;
  }
  std::string dir_;
};

TEST_F(FsTest, RemoveTreeDoesNotFollowSymlinks) {
  std::string outside = dir_ + "/outside";
  ASSERT_EQ(mkdir(outside.c_str(), 0700), 0);
  std::ofstream(outside + "/keep") << "x";
  ASSERT_TRUE(MakeDirs(dir_ + "/tree/a/b"));
  ASSERT_EQ(symlink(outside.c_str(), (dir_ + "/tree/a/link").c_str()), 0);
  ASSERT_EQ(chmod((dir_ + "/tree/a/b").c_str(), 0), 0);  // unreadable dirs are still removed
  ASSERT_TRUE(RemoveTree(dir_ + "/tree"));
  EXPECT_FALSE(Exists(dir_ + "/tree"));
  EXPECT_TRUE(Exists(outside + "/keep"));
  EXPECT_TRUE(RemoveTree(dir_ + "/missing"));
}

TEST_F(FsTest, CopyTreeKeepsModesLinksAndContent) {
  ASSERT_TRUE(MakeDirs(dir_ + "/src/sub"));
  Write("src/sub/f", "hello");
  ASSERT_EQ(chmod((dir_ + "/src/sub/f").c_str(), 0751), 0);
  ASSERT_EQ(symlink("/etc/passwd", (dir_ + "/src/l").c_str()), 0);
  ASSERT_TRUE(CopyTree(dir_ + "/src", dir_ + "/dst"));
  auto content = ReadFile(dir_ + "/dst/sub/f");
  ASSERT_TRUE(content);
  EXPECT_EQ(*content, "hello");
  struct stat st{};
  ASSERT_EQ(lstat((dir_ + "/dst/sub/f").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0751u);
  ASSERT_EQ(lstat((dir_ + "/dst/l").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  char target[64] = {};
  ASSERT_GT(readlink((dir_ + "/dst/l").c_str(), target, sizeof target - 1), 0);
  EXPECT_STREQ(target, "/etc/passwd");
  EXPECT_FALSE(CopyTree(dir_ + "/src", dir_ + "/dst"));  // target exists
}

TEST_F(FsTest, WriteFileAtomicAndReadFile) {
  std::string p = dir_ + "/secret";
  ASSERT_TRUE(WriteFileAtomic(p, "abc", 0600));
  struct stat st{};
  ASSERT_EQ(stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(*ReadFile(p), "abc");
  EXPECT_EQ(ReadFile(dir_ + "/nope").error().code, ErrorCode::kNotFound);
  EXPECT_EQ(ReadFile(p, 2).error().code, ErrorCode::kTooLarge);
}

TEST_F(FsTest, TreeSizeCountsRegularFilesOnly) {
  ASSERT_TRUE(MakeDirs(dir_ + "/t/a"));
  Write("t/a/x", "12345");
  Write("t/y", "123");
  ASSERT_EQ(symlink("/etc/passwd", (dir_ + "/t/l").c_str()), 0);
  EXPECT_EQ(*TreeSize(dir_ + "/t"), 8u);
}

}  // namespace
}  // namespace sbx::fs
