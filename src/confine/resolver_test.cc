// Attacks on the resolver (Root::Resolve, the filesystem server's rules):
// each asserts the exact error or the exact place it resolves to.
#include "confine/resolver.h"

#include "confine/create.h"
#include "confine/realpath_by_name.h"
#include "confine/test_tree.h"

namespace sbx::confine::testing {
namespace {

class ResolverTest : public TreeTest {
 protected:
  void SetUp() override {
    TreeTest::SetUp();
    auto r = Root::Open(root_);
    ASSERT_TRUE(r.ok());
    root_obj_.emplace(std::move(*r));
  }
  // "<real path> [rest...] exists|missing", or "error: <message>".
  std::string Where(std::string_view path) {
    auto r = root_obj_->Resolve(path);
    if (!r) return "error: " + r.error().message;
    std::string out = r->path;
    for (const auto& n : r->rest) out += " [" + n + "]";
    return out + (r->exists ? " exists" : " missing");
  }
  std::string Refused(const std::string& path, const char* why) {
    return "error: realpath '" + path + "': " + why;
  }
  static constexpr const char* kOut = "Invalid cross-device link";

  std::optional<Root> root_obj_;
};

TEST_F(ResolverTest, InsidePathsResolveToARealPathAndAHeldDirectory) {
  EXPECT_EQ(Where(root_ + "/sub/f"), root_ + "/sub/f [f] exists");
  EXPECT_EQ(Where("sub/f"), root_ + "/sub/f [f] exists");  // relative to the root
  EXPECT_EQ(Where(root_), root_ + " exists");
  EXPECT_EQ(Where(root_ + "/sub"), root_ + "/sub [sub] exists");
  EXPECT_EQ(Where(root_ + "/sub/new/x"), root_ + "/sub/new/x [new] [x] missing");
  auto r = root_obj_->Resolve(root_ + "/sub/f");
  ASSERT_TRUE(r.ok());
  UniqueFd f(::openat(r->base.get(), r->rest[0].c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  EXPECT_EQ(ReadFd(f.get()), "inside");
}

TEST_F(ResolverTest, DotDotEscapesAreRefused) {
  EXPECT_EQ(Where(root_ + "/../outside/secret"), Refused(outside_ + "/secret", kOut));
  EXPECT_EQ(Where("../outside/secret"), Refused(outside_ + "/secret", kOut));
  EXPECT_EQ(Where(root_ + "/sub/../../outside"), Refused(outside_, kOut));
  EXPECT_EQ(Where(root_ + "2/x"), Refused(root_ + "2/x", kOut));  // a sibling sharing the prefix
  EXPECT_EQ(Where(root_ + "/sub/../sub/f"), root_ + "/sub/f [f] exists");
}

TEST_F(ResolverTest, AbsoluteLinksFollowInsideAndAreRefusedOutside) {
  Link(root_ + "/sub/f", "abs_in");
  EXPECT_EQ(Where(root_ + "/abs_in"), root_ + "/sub/f [f] exists");
  Link(outside_ + "/secret", "abs_out");
  EXPECT_EQ(Where(root_ + "/abs_out"), Refused(outside_ + "/secret", kOut));
  Link(outside_, "abs_dir");
  EXPECT_EQ(Where(root_ + "/abs_dir/new"), Refused(outside_, kOut));  // where the walk left
}

TEST_F(ResolverTest, RelativeLinksClimbingOutAreRefused) {
  Link("../outside/secret", "rel_out");
  EXPECT_EQ(Where(root_ + "/rel_out"), Refused(outside_ + "/secret", kOut));
  Link("../../outside", "sub/up2");
  EXPECT_EQ(Where(root_ + "/sub/up2/secret"), Refused(outside_ + "/secret", kOut));
  // Out and back in again is inside: realpath's answer decides.
  Link("../root/sub", "round_trip");
  EXPECT_EQ(Where(root_ + "/round_trip/f"), root_ + "/sub/f [f] exists");
}

TEST_F(ResolverTest, LoopsAndDanglingLinksAreErrors) {
  Link("b", "a");
  Link("a", "b");
  EXPECT_EQ(Where(root_ + "/a"), Refused(root_ + "/a", "Too many levels of symbolic links"));
  Link("nothing/here", "dangling");
  EXPECT_EQ(Where(root_ + "/dangling"), Refused(root_ + "/dangling", "No such file or directory"));
}

TEST_F(ResolverTest, MagicLinksAreReadNotFollowed) {
  UniqueFd secret(::open((outside_ + "/secret").c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(secret.valid());
  const std::string n = std::to_string(secret.get());
  Link("/proc/self/fd/" + n, "magic");
  EXPECT_EQ(Where(root_ + "/magic"), Refused(outside_ + "/secret", kOut));
  // With /proc/self as the root the magic link is inside, its text is not.
  auto proc = Root::Open("/proc/self");
  ASSERT_TRUE(proc.ok());
  auto r = proc->Resolve("/proc/self/fd/" + n);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "realpath '" + outside_ + "/secret': " + kOut);
}

TEST_F(ResolverTest, ARootThatIsALinkIsResolvedOnce) {
  const std::string link = base_ + "/rootlink";
  ASSERT_EQ(::symlink(root_.c_str(), link.c_str()), 0);
  auto via_link = Root::Open(link);
  ASSERT_TRUE(via_link.ok());
  EXPECT_EQ(via_link->real(), root_);
  auto r = via_link->Resolve(link + "/sub/f");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->path, root_ + "/sub/f");
  // Re-pointing the link at the outside changes nothing for the root.
  ASSERT_EQ(::unlink(link.c_str()), 0);
  ASSERT_EQ(::symlink(outside_.c_str(), link.c_str()), 0);
  auto s = via_link->Resolve(link + "/secret");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->path, root_ + "/secret");
  EXPECT_FALSE(s->exists);
}

TEST_F(ResolverTest, HardLinksToOutsideReadSharedContentAndAreReplacedNotWritten) {
  if (::link((outside_ + "/secret").c_str(), (root_ + "/hard").c_str()) != 0)
    GTEST_SKIP() << "link(2): " << std::strerror(errno);
  // A name inside is inside: the resolver cannot and does not refuse it.
  EXPECT_EQ(Where(root_ + "/hard"), root_ + "/hard [hard] exists");
  EXPECT_EQ(Read(root_ + "/hard"), "secret");
  // Writing replaces the inode, so the outside name keeps its content.
  auto r = root_obj_->Resolve(root_ + "/hard");
  ASSERT_TRUE(r.ok());
  Replacement how;
  how.temp_name = "hard.tmp";
  ASSERT_TRUE(ReplaceFile(r->base.get(), "hard", "changed", how).ok());
  EXPECT_EQ(Read(root_ + "/hard"), "changed");
  EXPECT_EQ(Read(outside_ + "/secret"), "secret");
}

TEST_F(ResolverTest, LongPathsAndNulBytes) {
  std::string long_name(300, 'n');
  EXPECT_EQ(Where(root_ + "/" + long_name), Refused(root_ + "/" + long_name, "File name too long"));
  // A chain of links back to the root keeps every real prefix short; the
  // link budget ends it.
  Link(".", "here");
  std::string many = root_;
  for (int i = 0; i < 41; ++i) many += "/here";
  EXPECT_EQ(Where(many + "/sub/f"), Refused(many + "/sub/f", "Too many levels of symbolic links"));
  const std::string nul = root_ + std::string("/sub/f\0/../../../outside/secret", 31);
  EXPECT_EQ(Where(nul), Refused(nul, "Invalid argument"));
  auto by_name = RealpathByName(nul);
  ASSERT_FALSE(by_name.ok());
  EXPECT_EQ(by_name.error().message, "a path component contains a NUL byte");
}

TEST_F(ResolverTest, RealpathByNameAndItsKernelCheck) {
  Link("../outside", "out");
  Link("sub", "in");
  EXPECT_EQ(*RealpathByName(root_ + "/in/f"), root_ + "/sub/f");
  EXPECT_EQ(*RealpathByName(root_ + "/out/secret"), outside_ + "/secret");
  EXPECT_EQ(*RealpathByName(root_ + "/in/missing/../x"), root_ + "/sub/x");
  EXPECT_TRUE(ResolvedBeneath(root_ + "/sub/f", root_));
  EXPECT_FALSE(ResolvedBeneath(outside_ + "/secret", root_));
  EXPECT_FALSE(ResolvedBeneath(root_ + "/in/f", root_));  // a link where a real directory was claimed
  EXPECT_FALSE(ResolvedBeneath(root_ + "2/f", root_));
}

}  // namespace
}  // namespace sbx::confine::testing
