// MakeDirectories and ReplaceFile: creating beneath the root, never through
// a link that leaves, and never writing into an existing inode.
#include "confine/create.h"

#include "confine/test_tree.h"

namespace sbx::confine::testing {
namespace {

using CreateTest = TreeTest;

TEST_F(CreateTest, MakesMissingDirectoriesBeneathTheRoot) {
  auto dir = MakeDirectories(root_fd_.get(), "sub/a/b", 0755);
  ASSERT_TRUE(dir.ok());
  Replacement how;
  how.temp_name = "x.tmp";
  ASSERT_TRUE(ReplaceFile(dir->get(), "x", "made", how).ok());
  EXPECT_EQ(Read(root_ + "/sub/a/b/x"), "made");
  EXPECT_TRUE(MakeDirectories(root_fd_.get(), "", 0755).ok());
}

TEST_F(CreateTest, NeverCreatesThroughALinkThatLeaves) {
  Link(outside_, "out");
  Link("../outside", "rel_out");
  for (const std::string rel : {"out/new", "rel_out/new", "../outside/new"}) {
    auto dir = MakeDirectories(root_fd_.get(), rel, 0755);
    ASSERT_FALSE(dir.ok()) << rel;
    const std::string first = rel.substr(0, rel.find('/'));
    EXPECT_EQ(dir.error().message, "open '" + first + "': Invalid cross-device link") << rel;
  }
  EXPECT_FALSE(std::filesystem::exists(outside_ + "/new"));
  Write(root_ + "/file", "");
  auto through_file = MakeDirectories(root_fd_.get(), "file/x", 0755);
  ASSERT_FALSE(through_file.ok());
  EXPECT_EQ(through_file.error().message, "open 'file': Not a directory");
}

TEST_F(CreateTest, ReplaceFileLeavesTheTargetWholeOnFailure) {
  Write(root_ + "/sub/taken.tmp", "someone else's");
  Replacement how;
  how.temp_name = "taken.tmp";
  auto dir = MakeDirectories(root_fd_.get(), "sub", 0755);
  ASSERT_TRUE(dir.ok());
  auto s = ReplaceFile(dir->get(), "f", "new", how);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "open 'taken.tmp': File exists");
  EXPECT_EQ(Read(root_ + "/sub/f"), "inside");
  EXPECT_EQ(Read(root_ + "/sub/taken.tmp"), "someone else's");
  // A link planted under the temporary's name is not followed either.
  Link(outside_ + "/planted", "sub/link.tmp");
  how.temp_name = "link.tmp";
  auto l = ReplaceFile(dir->get(), "f", "new", how);
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.error().message, "open 'link.tmp': File exists");
  EXPECT_FALSE(std::filesystem::exists(outside_ + "/planted"));
  // A directory in the way of the rename: the temporary is removed.
  ASSERT_EQ(::mkdir((root_ + "/sub/d").c_str(), 0755), 0);
  Write(root_ + "/sub/d/keep", "");
  how.temp_name = "d.tmp";
  auto r = ReplaceFile(dir->get(), "d", "new", how);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "rename 'd.tmp' -> 'd': Is a directory");
  EXPECT_FALSE(std::filesystem::exists(root_ + "/sub/d.tmp"));
}

TEST_F(CreateTest, ExactModeIgnoresTheUmask) {
  Replacement how;
  how.temp_name = "m.tmp";
  how.mode = 0644;
  how.exact_mode = true;
  mode_t old = ::umask(0077);
  auto s = ReplaceFile(root_fd_.get(), "m", "x", how);
  ::umask(old);
  ASSERT_TRUE(s.ok());
  struct stat st {};
  ASSERT_EQ(::stat((root_ + "/m").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

}  // namespace
}  // namespace sbx::confine::testing
