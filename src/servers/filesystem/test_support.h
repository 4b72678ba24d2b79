// Test fixture for the filesystem server: a fresh temporary tree with an
// allowed root and, beside it, an "outside" directory and sibling
// directories whose names start with the root's ("<root>2", "<root>base"),
// on the shared test_support::ServerTest (calls through a real
// mcp::Session, file helpers) with a snapshot of everything outside the root.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/filesystem/filesystem.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::filesystem::testing {

class FsTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    auto tree = test_support::MakeEscapeTree("sbx_fs_test");
    ASSERT_FALSE(tree.base.empty());
    base_ = tree.base, root_ = tree.workspace, outside_ = tree.outside;
    server_ = MakeServer(Options{{root_}});
    OpenSession(server_);
    before_ = OutsideSnapshot();
  }

  void TearDown() override {
    // Nothing outside the root may have changed, whatever the test did.
    EXPECT_EQ(OutsideSnapshot(), before_) << "the tree outside the allowed root changed";
    (void)fs::RemoveTree(base_);
  }

  std::string R(const std::string& rel = "") const {
    return rel.empty() ? root_ : root_ + "/" + rel;
  }
  std::string O(const std::string& rel = "") const {
    return rel.empty() ? outside_ : outside_ + "/" + rel;
  }

  void Write(const std::string& rel, const std::string& data) {
    std::string path = R(rel);
    (void)fs::MakeDirs(path.substr(0, path.rfind('/')), 0755);
    WriteAbs(path, data);
  }
  void Mkdir(const std::string& rel) { ASSERT_EQ(fs::MakeDirs(R(rel), 0755).ok(), true); }
  void Symlink(const std::string& target, const std::string& rel) {
    ASSERT_EQ(::symlink(target.c_str(), R(rel).c_str()), 0) << rel;
  }

  // Every path under the base directory except the root's subtree, with
  // type and content: what no call may ever change.
  std::map<std::string, std::string> OutsideSnapshot() const { return test_support::TreeSnapshot(base_, {root_}); }

  std::string base_, root_, outside_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::map<std::string, std::string> before_;
};

}  // namespace sbx::servers::filesystem::testing
