// Test fixture for the desktop-commander server: a fresh temporary tree with
// the workspace ("root"), a home directory, and beside them an "outside"
// directory and siblings whose names start with the root's ("<root>2",
// "<root>base"); calls go through a real mcp::Session (schema validation
// and defaults included, see test_support::ServerTest). TearDown checks nothing outside the root and the
// home changed, and removes everything.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <regex>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/desktop_commander/desktop_commander.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::desktop_commander::testing {

class DcTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    auto tree = test_support::MakeEscapeTree("sbx_dc_test");
    ASSERT_FALSE(tree.base.empty());
    base_ = tree.base, root_ = tree.workspace, outside_ = tree.outside;
    home_ = base_ + "/home";
    ASSERT_EQ(::mkdir(home_.c_str(), 0755), 0);
    Restart();
    before_ = OutsideSnapshot();
  }

  void TearDown() override {
    session_.reset();
    server_.reset();
    EXPECT_EQ(OutsideSnapshot(), before_) << "the tree outside the workspace changed";
    (void)fs::RemoveTree(base_);
  }

  virtual Options MakeOptions() {
    Options o;
    o.workspace = root_;
    o.home = home_;
    o.allowed_directories = {root_};
    o.max_wait = std::chrono::milliseconds(20'000);
    return o;
  }

  // A fresh server (configuration and sessions start over).
  void Restart() {
    session_.reset();
    server_.reset();
    server_ = MakeServer(MakeOptions());
    OpenSession(server_);
  }

  std::string R(const std::string& rel = "") const { return rel.empty() ? root_ : root_ + "/" + rel; }
  std::string O(const std::string& rel = "") const { return rel.empty() ? outside_ : outside_ + "/" + rel; }

  void Write(const std::string& rel, const std::string& data) {
    std::string path = R(rel);
    (void)fs::MakeDirs(path.substr(0, path.rfind('/')), 0755);
    WriteAbs(path, data);
  }
  std::string Read(const std::string& rel) const { return ReadAbs(R(rel)); }
  void Mkdir(const std::string& rel) { ASSERT_TRUE(fs::MakeDirs(R(rel), 0755).ok()); }
  void Symlink(const std::string& target, const std::string& rel) {
    ASSERT_EQ(::symlink(target.c_str(), R(rel).c_str()), 0) << rel;
  }

  // upstream's message for a path outside the allowed directories.
  std::string NotAllowed(const std::string& requested) const {
    return "Error: Path not allowed: " + requested + ". Must be within one of these directories: " + root_;
  }

  // Everything but the workspace and the home: what no call may change.
  std::map<std::string, std::string> OutsideSnapshot() const {
    return test_support::TreeSnapshot(base_, {root_, home_});
  }

  std::string base_, root_, home_, outside_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::map<std::string, std::string> before_;
};

}  // namespace sbx::servers::desktop_commander::testing
