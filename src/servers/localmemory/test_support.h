// Test fixture for the localmemory server: a fresh temporary directory with
// a workspace ("root") and, beside it, an "outside" directory and a sibling
// whose name starts with the root's ("root2"), plus helpers to call tools
// through a real mcp::Session and to read and write files.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/localmemory/localmemory.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::localmemory::testing {

class MemoryTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    auto tree = test_support::MakeEscapeTree("sbx_localmemory_test");
    ASSERT_FALSE(tree.base.empty());
    base_ = tree.base, root_ = tree.workspace, outside_ = tree.outside;
    options_.workspace = root_;
    options_.memory_file = "memory.jsonl";
    Restart();
  }

  void TearDown() override { (void)fs::RemoveTree(base_); }

  // A new server and session with the current options_.
  void Restart() {
    server_ = MakeServer(options_);
    OpenSession(server_);
  }

  // Another initialized session on the same server (for concurrent clients;
  // init_reply_ stays the first session's, so threads never write it).
  std::shared_ptr<mcp::Session> NewSession() const {
    auto session = std::make_shared<mcp::Session>(server_);
    (void)test_support::Initialize(*session);
    return session;
  }

  // tools/call through a session (argument validation included); returns
  // the result object.
  static Json CallOn(mcp::Session& session, int id, const std::string& tool, Json args) {
    return test_support::CallTool(session, id, tool, std::move(args))["result"];
  }
  Json CallText(const std::string& tool, const std::string& args_json) {
    return Call(tool, Json::parse(args_json));
  }
  // The text of a successful call (fails the test on an error result).
  std::string Ok(const std::string& tool, const std::string& args_json = "{}") {
    Json r = CallText(tool, args_json);
    EXPECT_FALSE(r.value("isError", false)) << tool << ": " << r.dump();
    return r["content"][0].value("text", "");
  }
  // The text of a failed call (fails the test on success).
  std::string Err(const std::string& tool, const std::string& args_json = "{}") {
    Json r = CallText(tool, args_json);
    EXPECT_TRUE(r.value("isError", false)) << tool << ": " << r.dump();
    return r["content"][0].value("text", "");
  }

  std::string MemoryPath() const { return root_ + "/" + options_.memory_file; }
  void WriteMemory(const std::string& data) const { WriteAbs(MemoryPath(), data); }
  std::string ReadMemory() const { return ReadAbs(MemoryPath()); }
  // Names in a directory other than . and .. (sorted).
  static std::vector<std::string> Names(const std::string& dir) {
    auto names = fs::ListDir(dir);
    std::sort(names.begin(), names.end());
    return names;
  }

  std::string base_, root_, outside_;
  Options options_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
};

}  // namespace sbx::servers::localmemory::testing
