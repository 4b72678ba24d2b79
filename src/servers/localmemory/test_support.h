// Test fixture for the localmemory server: a fresh temporary directory with
// a workspace ("root") and, beside it, an "outside" directory and a sibling
// whose name starts with the root's ("root2"), plus helpers to call tools
// through a real mcp::Session and to read and write files.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/localmemory/localmemory.h"

namespace sbx::servers::localmemory::testing {

class MemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/sbx_localmemory_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base_ = tmpl;
    root_ = base_ + "/root";
    outside_ = base_ + "/outside";
    for (const auto& d : {root_, outside_, root_ + "2"}) ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
    options_.workspace = root_;
    options_.memory_file = "memory.jsonl";
    Restart();
  }

  void TearDown() override { (void)fs::RemoveTree(base_); }

  // A new server and session with the current options_.
  void Restart() {
    server_ = MakeServer(options_);
    session_ = NewSession();
  }

  std::shared_ptr<mcp::Session> NewSession() const {
    auto session = std::make_shared<mcp::Session>(server_);
    Json init = {{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-06-18"},
                   {"capabilities", Json::object()},
                   {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
    init_reply_ = *session->Handle(init).reply;
    session->Handle(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    return session;
  }

  // tools/call through a session (argument validation included); returns
  // the result object.
  static Json CallOn(mcp::Session& session, int id, const std::string& tool, Json args) {
    Json req = {{"jsonrpc", "2.0"},
                {"id", id},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
    auto outcome = session.Handle(req);
    if (outcome.reply) return (*outcome.reply)["result"];
    return outcome.call->Run([](Json) {})["result"];
  }
  Json Call(const std::string& tool, Json args = Json::object()) {
    return CallOn(*session_, ++id_, tool, std::move(args));
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
  static void WriteAbs(const std::string& path, const std::string& data) {
    std::ofstream f(path, std::ios::binary);
    f << data;
  }
  static std::string ReadAbs(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  static bool Exists(const std::string& path) {
    struct stat st;
    return ::lstat(path.c_str(), &st) == 0;
  }
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
  std::shared_ptr<mcp::Session> session_;
  mutable Json init_reply_;
  int id_ = 0;
};

}  // namespace sbx::servers::localmemory::testing
