// Finding the hierarchy from mountinfo: refusals and other hosts' layouts.
#include "jail/cgroup_test_util.h"

namespace sbx::jail {
namespace {

using namespace cgroup_testing;  // NOLINT: shared fixture and helpers

TEST_F(CgroupTest, OpenRefusesCgroup2WithoutControllers) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string mountinfo =
      tmp.Write("mountinfo", std::string("41 31 0:38 / ") + kUnifiedMount +
                                 " rw,relatime - cgroup2 cgroup2 rw\n");
  auto opened = CgroupTree::Open(parent_ + "-v2", mountinfo);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::kInternal);
  EXPECT_EQ(opened.error().message,
            "no usable cgroup hierarchy in " + mountinfo + ": cgroup2 at " + kUnifiedMount +
                " lacks memory, pids, cpu, no cgroup v1 mount of " + "memory, pids, cpu");
  EXPECT_FALSE(fs::Exists(std::string(kUnifiedMount) + "/" + parent_ + "-v2"));
}

TEST_F(CgroupTest, OpenFailsClearlyWithoutCgroupMounts) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string mountinfo =
      tmp.Write("mountinfo",
                "22 1 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:5 - proc proc rw\n"
                "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
                "32 31 0:29 / /sys/fs/cgroup/memory rw,relatime - tmpfs cgroup rw,memory\n");
  auto opened = CgroupTree::Open(parent_, mountinfo);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, ErrorCode::kInternal);
  EXPECT_EQ(opened.error().message,
            "no usable cgroup hierarchy in " + mountinfo +
                ": no cgroup2 mount, no cgroup v1 mount of memory, pids, cpu");

  auto missing = CgroupTree::Open(parent_, tmp.path() + "/nothing");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find(tmp.path() + "/nothing"), std::string::npos);
}

// Open's parsing on plain directories standing in for cgroup mounts: the
// layouts of other hosts (shared mounts, escaped paths, a capable cgroup2).
TEST_F(CgroupTest, OpenReadsOtherHostLayouts) {
  TempDir tmp;
  ASSERT_FALSE(tmp.path().empty());
  const std::string t = tmp.path();
  for (const char* d : {"cpu,cpuacct", "mp", "systemd", "v2"})
    ASSERT_EQ(::mkdir((t + "/" + d).c_str(), 0755), 0);
  const std::string v1 = "35 31 0:40 / " + Escaped(t) +
                         "/cpu,cpuacct rw,nosuid shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
                         "36 31 0:41 / " +
                         Escaped(t) +
                         "/mp rw master:3 shared:10 - cgroup cgroup rw,memory,pids\n"
                         "37 31 0:42 / " +
                         Escaped(t) + "/systemd rw - cgroup cgroup rw,xattr,name=systemd\n";
  auto opened = CgroupTree::Open("p", tmp.Write("v1", v1));
  ASSERT_TRUE(opened) << opened.error().message;
  EXPECT_FALSE(opened->unified());
  EXPECT_EQ(opened->DirsOf("g"), (std::vector<std::string>{t + "/mp/p/g", t + "/cpu,cpuacct/p/g"}));
  EXPECT_TRUE(IsDir(t + "/mp/p"));
  EXPECT_TRUE(IsDir(t + "/cpu,cpuacct/p"));
  EXPECT_FALSE(fs::Exists(t + "/systemd/p"));

  // A cgroup2 mount with the controllers wins over v1 and gets them enabled
  // down to the parent.
  tmp.Write("v2/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
  tmp.Write("v2/cgroup.subtree_control", "");
  ASSERT_EQ(::mkdir((t + "/v2/q").c_str(), 0755), 0);
  tmp.Write("v2/q/cgroup.subtree_control", "");
  auto unified = CgroupTree::Open(
      "q", tmp.Write("v2.mountinfo", v1 + "38 31 0:43 / " + Escaped(t) +
                                         "/v2 rw - cgroup2 cgroup2 rw,nsdelegate\n"));
  ASSERT_TRUE(unified) << unified.error().message;
  EXPECT_TRUE(unified->unified());
  EXPECT_EQ(unified->DirsOf("g"), std::vector<std::string>{t + "/v2/q/g"});
  EXPECT_EQ(Slurp(t + "/v2/cgroup.subtree_control"), "+memory +pids +cpu");
  EXPECT_EQ(Slurp(t + "/v2/q/cgroup.subtree_control"), "+memory +pids +cpu");
  EXPECT_FALSE(fs::Exists(t + "/mp/q"));
}

}  // namespace
}  // namespace sbx::jail
