// Test fixture for the filesystem server: a fresh temporary tree with an
// allowed root and, beside it, an "outside" directory and sibling
// directories whose names start with the root's ("<root>2", "<root>base"),
// plus helpers to call tools through a real mcp::Session and to snapshot
// everything outside the root.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/filesystem/filesystem.h"

namespace sbx::servers::filesystem::testing {

class FsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/sbx_fs_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base_ = tmpl;
    root_ = base_ + "/root";
    outside_ = base_ + "/outside";
    for (const auto& d : {root_, outside_, root_ + "2", root_ + "base"})
      ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
    WriteAbs(outside_ + "/secret.txt", "SECRET\n");
    ASSERT_EQ(::mkdir((outside_ + "/dir").c_str(), 0755), 0);
    WriteAbs(outside_ + "/dir/inner.txt", "OUTSIDE INNER\n");
    WriteAbs(root_ + "2/file.txt", "SIBLING2\n");
    WriteAbs(root_ + "base/file.txt", "SIBLINGBASE\n");
    server_ = MakeServer(Options{{root_}});
    session_ = std::make_shared<mcp::Session>(server_);
    Json init = {{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-06-18"},
                   {"capabilities", Json::object()},
                   {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
    init_reply_ = *session_->Handle(init).reply;
    session_->Handle(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    before_ = OutsideSnapshot();
  }

  void TearDown() override {
    // Nothing outside the root may have changed, whatever the test did.
    EXPECT_EQ(OutsideSnapshot(), before_) << "the tree outside the allowed root changed";
    (void)fs::RemoveTree(base_);
  }

  // tools/call through the session (argument validation and defaults
  // included); returns the result object.
  Json Call(const std::string& tool, Json args = Json::object()) {
    Json req = {{"jsonrpc", "2.0"},
                {"id", ++id_},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
    auto outcome = session_->Handle(req);
    if (outcome.reply) return (*outcome.reply)["result"];
    Json reply = outcome.call->Run([](Json) {});
    return reply["result"];
  }
  // The text of a successful call (fails the test on an error result).
  std::string Ok(const std::string& tool, Json args = Json::object()) {
    Json r = Call(tool, std::move(args));
    EXPECT_FALSE(r.value("isError", false)) << tool << ": " << r.dump();
    return r["content"][0].value("text", "");
  }
  // The text of a failed call (fails the test on success).
  std::string Err(const std::string& tool, Json args = Json::object()) {
    Json r = Call(tool, std::move(args));
    EXPECT_TRUE(r.value("isError", false)) << tool << ": " << r.dump();
    return r["content"][0].value("text", "");
  }

  std::string R(const std::string& rel = "") const {
    return rel.empty() ? root_ : root_ + "/" + rel;
  }
  std::string O(const std::string& rel = "") const {
    return rel.empty() ? outside_ : outside_ + "/" + rel;
  }

  static void WriteAbs(const std::string& path, const std::string& data) {
    std::ofstream f(path, std::ios::binary);
    f << data;
  }
  void Write(const std::string& rel, const std::string& data) {
    std::string path = R(rel);
    (void)fs::MakeDirs(path.substr(0, path.rfind('/')), 0755);
    WriteAbs(path, data);
  }
  static std::string ReadAbs(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  void Mkdir(const std::string& rel) { ASSERT_EQ(fs::MakeDirs(R(rel), 0755).ok(), true); }
  void Symlink(const std::string& target, const std::string& rel) {
    ASSERT_EQ(::symlink(target.c_str(), R(rel).c_str()), 0) << rel;
  }
  bool Exists(const std::string& abs) const {
    struct stat st;
    return ::lstat(abs.c_str(), &st) == 0;
  }

  // Every path under the base directory except the root's subtree, with
  // type and content: what no call may ever change.
  std::map<std::string, std::string> OutsideSnapshot() const {
    std::map<std::string, std::string> out;
    Walk(base_, out);
    return out;
  }

  std::string base_, root_, outside_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::shared_ptr<mcp::Session> session_;
  Json init_reply_;
  std::map<std::string, std::string> before_;
  int id_ = 0;

 private:
  void Walk(const std::string& dir, std::map<std::string, std::string>& out) const {
    for (const auto& name : fs::ListDir(dir)) {
      std::string path = dir + "/" + name;
      if (path == root_) continue;
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

}  // namespace sbx::servers::filesystem::testing
