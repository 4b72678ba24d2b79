// A link swapped in between check and use: a thread exchanges a directory
// inside the root with a link to the outside (renameat2 RENAME_EXCHANGE, so
// the name always exists) while opens and resolutions run. Every answer must
// be the inside content or the exact refusal; the outside is never read.
#include <linux/fs.h>
#include <stdio.h>

#include <atomic>
#include <thread>

#include "confine/beneath.h"
#include "confine/resolver.h"
#include "confine/test_tree.h"

namespace sbx::confine::testing {
namespace {

class RaceTest : public TreeTest {
 protected:
  void SetUp() override {
    TreeTest::SetUp();
    // root/flip is the directory sub; root/other a link to the outside; the
    // flipper exchanges the two names.
    ASSERT_EQ(::rename((root_ + "/sub").c_str(), (root_ + "/flip").c_str()), 0);
    Link(outside_, "other");
    Write(outside_ + "/f", "secret");
  }
  void Flip(std::atomic<bool>& stop) {
    while (!stop.load()) {
      ::renameat2(AT_FDCWD, (root_ + "/flip").c_str(), AT_FDCWD, (root_ + "/other").c_str(),
                  RENAME_EXCHANGE);
    }
  }
};

TEST_F(RaceTest, OpenBeneathNeverReadsTheOutside) {
  std::atomic<bool> stop{false};
  std::thread flipper([&] { Flip(stop); });
  int inside = 0, refused = 0, other = 0;
  for (int i = 0; i < 20000; ++i) {
    auto fd = OpenBeneath(root_fd_.get(), "flip/f", O_RDONLY);
    if (fd && ReadFd(fd->get()) == "inside") {
      ++inside;
    } else if (!fd && fd.error().message == "open 'flip/f': Invalid cross-device link") {
      ++refused;
    } else {
      ++other;
    }
  }
  stop = true;
  flipper.join();
  EXPECT_EQ(other, 0);
  EXPECT_GT(inside + refused, 0);
}

TEST_F(RaceTest, ResolvedDescriptorsNeverLeadOutside) {
  auto root = Root::Open(root_);
  ASSERT_TRUE(root.ok());
  std::atomic<bool> stop{false};
  std::thread flipper([&] { Flip(stop); });
  int inside = 0, refused = 0, other = 0;
  const std::string out = "realpath '" + outside_ + "/f': Invalid cross-device link";
  for (int i = 0; i < 20000; ++i) {
    auto r = root->Resolve(root_ + "/flip/f");
    if (r) {
      // Used after the check: the held descriptor, not the name.
      UniqueFd fd(::openat(r->base.get(), r->rest[0].c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
      if (fd.valid() && ReadFd(fd.get()) == "inside") ++inside;
      else ++other;
    } else if (r.error().message == out) {
      ++refused;
    } else {
      ++other;
    }
  }
  stop = true;
  flipper.join();
  EXPECT_EQ(other, 0);
  EXPECT_GT(inside + refused, 0);
}

}  // namespace
}  // namespace sbx::confine::testing
