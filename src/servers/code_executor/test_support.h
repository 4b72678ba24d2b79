// Test fixture for the code-executor server: a fresh temporary tree with a
// workspace (storage directory inside it) and, beside it, an "outside"
// directory and a sibling whose name starts with the workspace's; tools are
// called through a real mcp::Session, and everything outside the workspace
// is compared before and after each test.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/code_executor/code_executor.h"

namespace sbx::servers::code_executor::testing {

class CodeExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/sbx_ce_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base_ = tmpl;
    ws_ = base_ + "/ws";
    outside_ = base_ + "/outside";
    for (const auto& d : {ws_, outside_, ws_ + "2"}) ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
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
    session_ = std::make_shared<mcp::Session>(server_);
    Json init = {{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-06-18"},
                   {"capabilities", Json::object()},
                   {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
    init_reply_ = *session_->Handle(init).reply;
  }

  // The whole JSON-RPC response of a tools/call.
  Json Reply(const std::string& tool, Json args = Json::object()) {
    Json req = {{"jsonrpc", "2.0"},
                {"id", ++id_},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
    auto outcome = session_->Handle(req);
    if (outcome.reply) return *outcome.reply;
    return outcome.call->Run([](Json) {});
  }
  // The result object.
  Json Call(const std::string& tool, Json args = Json::object()) {
    return Reply(tool, std::move(args))["result"];
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
  bool Exists(const std::string& abs) const {
    struct stat st;
    return ::lstat(abs.c_str(), &st) == 0;
  }
  void MakeStore() { ASSERT_TRUE(fs::MakeDirs(store_, 0755).ok()); }

  std::map<std::string, std::string> OutsideSnapshot() const {
    std::map<std::string, std::string> out;
    Walk(base_, out);
    return out;
  }

  std::string base_, ws_, outside_, store_, venv_;
  Options options_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::shared_ptr<mcp::Session> session_;
  Json init_reply_;
  std::map<std::string, std::string> before_;
  int id_ = 0;

 private:
  void Walk(const std::string& dir, std::map<std::string, std::string>& out) const {
    for (const auto& name : fs::ListDir(dir)) {
      std::string path = dir + "/" + name;
      if (path == ws_) continue;
      struct stat st;
      if (::lstat(path.c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        out[path] = "dir";
        Walk(path, out);
      } else if (S_ISLNK(st.st_mode)) {
        char buf[4096];
        ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
        out[path] = "link:" + std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
      } else {
        out[path] = "file:" + ReadAbs(path);
      }
    }
  }
};

}  // namespace sbx::servers::code_executor::testing
