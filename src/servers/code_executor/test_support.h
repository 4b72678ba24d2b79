// Test fixture for the code-executor server: a fresh temporary tree with a
// workspace (storage directory inside it) and, beside it, an "outside"
// directory and a sibling whose name starts with the workspace's; tools are
// called through a real mcp::Session (test_support::ServerTest), and everything outside the workspace
// is compared before and after each test.
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
#include "servers/code_executor/code_executor.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::code_executor::testing {

class CodeExecutorTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    auto tree = test_support::MakeEscapeTree("sbx_ce_test", "ws");
    ASSERT_FALSE(tree.base.empty());
    base_ = tree.base, ws_ = tree.workspace, outside_ = tree.outside;
    WriteAbs(outside_ + "/secret.py", "print('SECRET')\n");
    WriteAbs(ws_ + "2/file.py", "print('SIBLING')\n");
    store_ = ws_ + "/store";
    venv_ = store_ + "/.venv";
    options_.workspace = ws_;
    options_.storage_dir = store_;
    options_.environment = EnvironmentConfig{"venv-uv", std::nullopt, std::nullopt, venv_};
    Start();
    before_ = OutsideSnapshot();
  }

  void TearDown() override {
    EXPECT_EQ(OutsideSnapshot(), before_) << "the tree outside the workspace changed";
    (void)fs::RemoveTree(base_);
  }

  // (Re)builds the server from options_ and opens a session.
  void Start() {
    server_ = MakeServer(options_);
    OpenSession(server_, /*send_initialized=*/false);
  }

  // The text of the one content block, parsed; `is_error` must match the
  // block's isError (and the result has none of its own).
  Json Body(const std::string& tool, Json args, bool is_error) {
    Json r = Call(tool, std::move(args));
    EXPECT_FALSE(r.contains("isError")) << r.dump();
    EXPECT_EQ(r["content"].size(), 1u) << r.dump();
    EXPECT_EQ(r["content"][0]["isError"], is_error) << r.dump();
    return Json::parse(r["content"][0]["text"].get<std::string>());
  }
  // The text of the one content block.
  std::string Text(const std::string& tool, Json args = Json::object()) {
    return Call(tool, std::move(args))["content"][0]["text"].get<std::string>();
  }

  // The 8-hex suffix of a generated file name "<base>_<hex>.py".
  static std::string Suffix(const std::string& name, const std::string& base) {
    std::smatch m;
    EXPECT_TRUE(std::regex_match(name, m, std::regex(base + "_([0-9a-f]{8})\\.py"))) << name;
    return m.size() > 1 ? m[1].str() : "";
  }

  void MakeStore() { ASSERT_TRUE(fs::MakeDirs(store_, 0755).ok()); }

  // Everything but the workspace: what no call may change.
  std::map<std::string, std::string> OutsideSnapshot() const { return test_support::TreeSnapshot(base_, {ws_}); }

  std::string base_, ws_, outside_, store_, venv_;
  Options options_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::map<std::string, std::string> before_;
};

}  // namespace sbx::servers::code_executor::testing
