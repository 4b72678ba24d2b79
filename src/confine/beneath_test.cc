// Attacks on OpenBeneath (openat2 RESOLVE_BENEATH): each must fail with the
// exact errno the kernel gives for it, and nothing outside may be opened.
#include "confine/beneath.h"

#include "confine/test_tree.h"

namespace sbx::confine::testing {
namespace {

class BeneathTest : public TreeTest {
 protected:
  // "<code> <message>" of an OpenBeneath failure, or the content it opened.
  std::string Open(const std::string& rel, Links links = Links::kFollowBeneath) {
    auto fd = OpenBeneath(root_fd_.get(), rel, O_RDONLY, PlainWording, 0, links);
    if (fd) return ReadFd(fd->get());
    return std::to_string(static_cast<int>(fd.error().code)) + " " + fd.error().message;
  }
  static std::string Forbidden(const std::string& m) {
    return std::to_string(static_cast<int>(ErrorCode::kForbidden)) + " " + m;
  }
  static std::string NotFound(const std::string& m) {
    return std::to_string(static_cast<int>(ErrorCode::kNotFound)) + " " + m;
  }
  static std::string Invalid(const std::string& m) {
    return std::to_string(static_cast<int>(ErrorCode::kInvalidArgument)) + " " + m;
  }
};

TEST_F(BeneathTest, InsideOpensAndDotDotInsideIsFine) {
  EXPECT_EQ(Open("sub/f"), "inside");
  EXPECT_EQ(Open("sub/../sub/./f"), "inside");
}

TEST_F(BeneathTest, DotDotOutIsRefused) {
  EXPECT_EQ(Open("../outside/secret"), Forbidden("open '../outside/secret': Invalid cross-device link"));
  EXPECT_EQ(Open("sub/../../outside/secret"),
            Forbidden("open 'sub/../../outside/secret': Invalid cross-device link"));
  EXPECT_EQ(Open(".."), Forbidden("open '..': Invalid cross-device link"));
}

TEST_F(BeneathTest, AbsolutePathsAndAbsoluteLinksAreRefused) {
  EXPECT_EQ(Open(outside_ + "/secret"), Forbidden("open '" + outside_ + "/secret': Invalid cross-device link"));
  Link(outside_ + "/secret", "abs_out");
  EXPECT_EQ(Open("abs_out"), Forbidden("open 'abs_out': Invalid cross-device link"));
  // Even one naming a file inside: the kernel cannot tell (resolver.h can).
  Link(root_ + "/sub/f", "abs_in");
  EXPECT_EQ(Open("abs_in"), Forbidden("open 'abs_in': Invalid cross-device link"));
}

TEST_F(BeneathTest, RelativeLinksFollowInsideAndAreRefusedClimbingOut) {
  Link("sub/f", "rel_in");
  EXPECT_EQ(Open("rel_in"), "inside");
  Link("../outside/secret", "rel_out");
  EXPECT_EQ(Open("rel_out"), Forbidden("open 'rel_out': Invalid cross-device link"));
  Link("../../outside", "sub/up2");  // a directory link two levels up
  EXPECT_EQ(Open("sub/up2/secret"), Forbidden("open 'sub/up2/secret': Invalid cross-device link"));
  EXPECT_EQ(Open("rel_in", Links::kNone), Forbidden("open 'rel_in': Too many levels of symbolic links"));
}

TEST_F(BeneathTest, LoopsAreRefused) {
  Link("b", "a");
  Link("a", "b");
  Link("self", "self");
  EXPECT_EQ(Open("a"), Forbidden("open 'a': Too many levels of symbolic links"));
  EXPECT_EQ(Open("self/x"), Forbidden("open 'self/x': Too many levels of symbolic links"));
}

TEST_F(BeneathTest, MagicLinksAreRefused) {
  // A descriptor of the outside file, reachable as /proc/self/fd/N.
  UniqueFd secret(::open((outside_ + "/secret").c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(secret.valid());
  auto proc = OpenRoot("/proc/self");
  ASSERT_TRUE(proc.ok());
  const std::string rel = "fd/" + std::to_string(secret.get());
  auto fd = OpenBeneath(proc->get(), rel, O_RDONLY);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.error().message, "open '" + rel + "': Too many levels of symbolic links");
  EXPECT_EQ(fd.error().code, ErrorCode::kForbidden);
  // Planted inside the root it is an absolute link, refused as such.
  Link("/proc/self/fd/" + std::to_string(secret.get()), "magic");
  EXPECT_EQ(Open("magic"), Forbidden("open 'magic': Invalid cross-device link"));
}

TEST_F(BeneathTest, ARootThatIsALinkIsFollowedOnceWhenOpened) {
  const std::string link = base_ + "/rootlink";
  ASSERT_EQ(::symlink(root_.c_str(), link.c_str()), 0);
  auto fd = OpenRoot(link);
  ASSERT_TRUE(fd.ok());
  // Pointing the link elsewhere later does not move the held root.
  ASSERT_EQ(::unlink(link.c_str()), 0);
  ASSERT_EQ(::symlink(outside_.c_str(), link.c_str()), 0);
  auto f = OpenBeneath(fd->get(), "sub/f", O_RDONLY);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(ReadFd(f->get()), "inside");
  EXPECT_FALSE(OpenBeneath(fd->get(), "secret", O_RDONLY).ok());
}

TEST_F(BeneathTest, LongPathsAndNulBytes) {
  std::string long_name(300, 'n');
  EXPECT_EQ(Open(long_name), Invalid("open '" + long_name + "': File name too long"));
  std::string deep;
  while (deep.size() <= 4096) deep += "sub/../";
  deep += "sub/f";
  EXPECT_EQ(Open(deep), Invalid("open '" + deep + "': File name too long"));
  // A NUL would let the kernel see a shorter name than the one checked.
  const std::string nul("sub/f\0/../../outside/secret", 27);
  EXPECT_EQ(Open(nul), Invalid("open '" + nul + "': Invalid argument"));
  EXPECT_EQ(Open("sub/missing"), NotFound("open 'sub/missing': No such file or directory"));
}

TEST_F(BeneathTest, OpenRootErrors) {
  auto missing = OpenRoot(base_ + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "open '" + base_ + "/nope': No such file or directory");
  auto file = OpenRoot(root_ + "/sub/f");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().message, "open '" + root_ + "/sub/f': Not a directory");
}

}  // namespace
}  // namespace sbx::confine::testing
