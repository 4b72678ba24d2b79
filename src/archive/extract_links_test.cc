#include "archive/extract.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "archive/archive_test_util.h"

// Symlink and hard-link members: the ways an archive tries to reach outside
// the extraction root through links.
namespace sbx::archive {
namespace {

using testing::ListTree;
using testing::ReadAll;
using testing::TarWriter;

class ExtractLinksTest : public testing::ExtractFixture {};

// --- symlinks -------------------------------------------------------------

TEST_F(ExtractLinksTest, RefusesSymlinkToAbsolutePath) {
  TarWriter(archive_).Symlink("etc", "/etc");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"etc\" (a symlink to \"/etc\") points to an absolute path: links "
                "must stay inside the workspace");
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

TEST_F(ExtractLinksTest, RefusesSymlinkLeavingTheTree) {
  TarWriter(archive_).Symlink("a", "../..");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"a\" (a symlink to \"../..\") points outside the workspace "
                "(\"..\")");
  TarWriter(archive_).Symlink("sub/l", "../../x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"sub/l\" (a symlink to \"../../x\") points outside the workspace "
                "(\"..\")");
  TarWriter(archive_).Symlink("l", "a/../../x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"l\" (a symlink to \"a/../../x\") points outside the workspace "
                "(\"..\")");
}

TEST_F(ExtractLinksTest, KeepsSymlinksThatStayInside) {
  TarWriter(archive_)
      .File("x", "X")
      .Symlink("sub/l", "../x")
      .Symlink("self", ".")
      .Symlink("dangling", "nowhere/yet");
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ListTree(dest_), (std::vector<std::string>{"d sub", "f x", "l dangling -> nowhere/yet",
                                                       "l self -> .", "l sub/l -> ../x"}));
  EXPECT_EQ(r->entries, 4u);
}

TEST_F(ExtractLinksTest, TwoStepDotLinkEscapeIsRefused) {
  TarWriter(archive_).Symlink("l", ".").File("l/../x", "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"l/../x\" escapes the workspace (\"..\")");
  // Even a link that stays inside is never written through.
  TarWriter(archive_).Symlink("l", ".").File("l/x", "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"l/x\" lies below the symlink \"l\": entries are never written "
                "through links");
  EXPECT_FALSE(fs::Exists(dest_ + "/x"));
}

TEST_F(ExtractLinksTest, ChainedDotDotLinksCannotEscape) {
  // x/y -> .. is the root; z -> x/y/.. is lexically "x" but really the
  // parent of the root; z/evil would land next to dest if links were followed.
  TarWriter(archive_).Dir("x").Symlink("x/y", "..").Symlink("z", "x/y/..").File("z/evil", "E");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"z/evil\" lies below the symlink \"z\": entries are never "
                "written through links");
  EXPECT_FALSE(fs::Exists(parent_ / "evil"));
  EXPECT_EQ(ListTree(dest_), (std::vector<std::string>{"d x", "l x/y -> ..", "l z -> x/y/.."}));
}

TEST_F(ExtractLinksTest, SymlinkToTmpThenFileBelowIt) {
  std::string leaf = outside_abs_.substr(5);  // name below /tmp
  TarWriter(archive_).Symlink("d", "/tmp").File("d/" + leaf, "evil");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"d\" (a symlink to \"/tmp\") points to an absolute path: links "
                "must stay inside the workspace");
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
  // TearDown checks that /tmp/<leaf> does not exist.
}

TEST_F(ExtractLinksTest, PreexistingLinkInDestIsNotFollowed) {
  // Not something the archive can make (the lexical rule stops it); this
  // checks the openat2 layer on its own.
  ASSERT_EQ(::mkdir((parent_ / "victim").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("../victim", (dest_ + "/out").c_str()), 0);
  TarWriter(archive_).File("out/f", "evil");
  auto r = Extract();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "archive entry \"out/f\" lies below the symlink \"out\": entries are never written "
            "through links");
  EXPECT_EQ(ListTree(parent_ / "victim"), std::vector<std::string>{});
  // A file of the same name replaces the link itself, not its target.
  TarWriter(archive_).File("out", "now a file");
  ASSERT_TRUE(Extract().ok());
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{"f out"});
  EXPECT_EQ(ListTree(parent_ / "victim"), std::vector<std::string>{});
}

// --- hard links -----------------------------------------------------------

TEST_F(ExtractLinksTest, RefusesHardLinkToEtcPasswd) {
  struct stat before {};
  ASSERT_EQ(::stat("/etc/passwd", &before), 0);
  TarWriter(archive_).HardLink("p", "/etc/passwd");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"p\" (a hard link to \"/etc/passwd\") has an absolute path: names "
                "must be relative to the workspace");
  struct stat after {};
  ASSERT_EQ(::stat("/etc/passwd", &after), 0);
  EXPECT_EQ(after.st_nlink, before.st_nlink);
  EXPECT_EQ(ListTree(dest_), std::vector<std::string>{});
}

TEST_F(ExtractLinksTest, RefusesHardLinkOutOfTheTree) {
  testing::WriteFile(parent_ / "x", "outside");
  TarWriter(archive_).HardLink("p", "../x");
  auto r = Extract();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message,
            "archive entry \"p\" (a hard link to \"../x\") escapes the workspace (\"..\")");
  struct stat st {};
  ASSERT_EQ(::stat((parent_ / "x").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 1u);
  EXPECT_EQ(Outside(), (std::vector<std::string>{"d dest", "f x"}));
}

TEST_F(ExtractLinksTest, RefusesHardLinkToAnythingButAnExtractedFile) {
  const std::string suffix =
      " does not point to a regular file extracted earlier from this archive";
  testing::WriteFile(dest_ + "/pre", "was here before");
  TarWriter(archive_).HardLink("p", "pre");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"p\" (a hard link to \"pre\")" + suffix);
  TarWriter(archive_).HardLink("p", "later").File("later", "x");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"p\" (a hard link to \"later\")" + suffix);
  TarWriter(archive_).Dir("d").HardLink("p", "d");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"p\" (a hard link to \"d\")" + suffix);
  TarWriter(archive_).File("f", "x").Symlink("f", "pre").HardLink("p", "f");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"p\" (a hard link to \"f\")" + suffix);
  TarWriter(archive_).File("f", "x").HardLink("f", "f");
  ExpectRefused(Extract(), ErrorCode::kInvalidArgument,
                "archive entry \"f\" (a hard link to \"f\") links to itself");
  struct stat st {};
  ASSERT_EQ(::stat((dest_ + "/pre").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 1u);
}

TEST_F(ExtractLinksTest, HardLinkToExtractedFileWorks) {
  TarWriter(archive_).File("dir/a", "shared", 0640).HardLink("b", "./dir//a");
  auto r = Extract();
  ASSERT_TRUE(r.ok()) << r.error().message;
  struct stat a {
  }, b{};
  ASSERT_EQ(::stat((dest_ + "/dir/a").c_str(), &a), 0);
  ASSERT_EQ(::stat((dest_ + "/b").c_str(), &b), 0);
  EXPECT_EQ(a.st_ino, b.st_ino);
  EXPECT_EQ(a.st_nlink, 2u);
  EXPECT_EQ(ReadAll(dest_ + "/b"), "shared");
  EXPECT_EQ(r->entries, 2u);
}

}  // namespace
}  // namespace sbx::archive
