// Test fixture for the git server: a fresh temporary tree with a workspace
// root, an empty HOME and an "outside" directory beside the root (holding a
// repository of its own and a secret file), helpers that run the real git
// to build repositories with fixed dates and identities, and helpers that
// call the tools through a real mcp::Session (test_support::ServerTest).
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/git/git.h"
#include "servers/process/process.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::git::testing {

class GitTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    auto tree = test_support::MakeEscapeTree("sbx_git_test");
    ASSERT_FALSE(tree.base.empty());
    base_ = tree.base, root_ = tree.workspace, outside_ = tree.outside;
    home_ = base_ + "/home";
    ASSERT_EQ(::mkdir(home_.c_str(), 0755), 0);
    WriteAbs(root_ + "2/sibling.txt", "SIBLING\n");
    options_.workspace_root = root_;
    options_.home = home_;
    options_.timeout = std::chrono::milliseconds(30'000);
    Restart();
  }

  void TearDown() override { (void)fs::RemoveTree(base_); }

  // A new server (and session) built from options_.
  void Restart() {
    server_ = MakeServer(options_);
    OpenSession(server_);
  }

  // Runs the real git in `dir` (absolute) with a fixed identity and date;
  // returns stdout; fails the test on a non-zero exit.
  std::string Git(const std::string& dir, std::vector<std::string> args, const std::string& input = "",
                  const std::string& date = "1700000000 +0100") {
    process::Spec spec;
    spec.argv = {"/usr/bin/git"};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.env = {"PATH=/usr/bin:/bin", "HOME=" + home_, "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C",
                "GIT_AUTHOR_NAME=Ann Author", "GIT_AUTHOR_EMAIL=ann@example.com",
                "GIT_COMMITTER_NAME=Carl Committer", "GIT_COMMITTER_EMAIL=carl@example.com",
                "GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date};
    spec.cwd = dir;
    process::RunOptions run;
    run.input = input;
    auto r = process::Run(spec, run);
    EXPECT_TRUE(r.ok());
    if (!r.ok()) return "";
    EXPECT_EQ(r->exit.code, 0) << "git " << (args.empty() ? "" : args[0]) << ": " << r->err;
    std::string out = r->out;
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  // <root>/<name>: a repository on branch main with README.md committed.
  std::string MakeRepo(const std::string& name = "repo") {
    std::string dir = root_ + "/" + name;
    Git(root_, {"init", "-q", "-b", "main", dir});
    Write(name + "/README.md", "# Demo\n");
    Git(dir, {"add", "README.md"});
    Git(dir, {"commit", "-q", "-m", "Initial commit"});
    return dir;
  }

  std::string Head(const std::string& dir, const std::string& rev = "HEAD") {
    return Git(dir, {"rev-parse", rev});
  }

  void Write(const std::string& rel, const std::string& content) { WriteAbs(root_ + "/" + rel, content); }
  std::string Read(const std::string& rel) { return ReadAbs(root_ + "/" + rel); }

  std::string base_, root_, outside_, home_;
  Options options_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
};

}  // namespace sbx::servers::git::testing
