// Test fixture for the desktop-commander server: a fresh temporary tree with
// the workspace ("root"), a home directory, and beside them an "outside"
// directory and siblings whose names start with the root's ("<root>2",
// "<root>base"); calls go through a real mcp::Session (schema validation
// and defaults included). TearDown checks nothing outside the root and the
// home changed, and removes everything.
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
#include "servers/desktop_commander/desktop_commander.h"

namespace sbx::servers::desktop_commander::testing {

class DcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/sbx_dc_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    base_ = tmpl;
    root_ = base_ + "/root";
    home_ = base_ + "/home";
    outside_ = base_ + "/outside";
    for (const auto& d : {root_, home_, outside_, root_ + "2", root_ + "base"}) ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
    WriteAbs(outside_ + "/secret.txt", "SECRET\n");
    ASSERT_EQ(::mkdir((outside_ + "/dir").c_str(), 0755), 0);
    WriteAbs(outside_ + "/dir/inner.txt", "OUTSIDE INNER\n");
    WriteAbs(root_ + "2/file.txt", "SIBLING2\n");
    WriteAbs(root_ + "base/file.txt", "SIBLINGBASE\n");
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
    session_ = std::make_shared<mcp::Session>(server_);
    Json init = {{"jsonrpc", "2.0"},
                 {"id", 0},
                 {"method", "initialize"},
                 {"params",
                  {{"protocolVersion", "2025-06-18"},
                   {"capabilities", Json::object()},
                   {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
    (void)session_->Handle(init);
    session_->Handle(Json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }

  Json Call(const std::string& tool, Json args = Json::object()) {
    Json req = {{"jsonrpc", "2.0"},
                {"id", ++id_},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
    auto outcome = session_->Handle(req);
    if (outcome.reply) return (*outcome.reply)["result"];
    return outcome.call->Run([](Json) {})["result"];
  }
  std::string Ok(const std::string& tool, Json args = Json::object()) {
    Json r = Call(tool, std::move(args));
    EXPECT_FALSE(r.value("isError", false)) << tool << ": " << r.dump();
    return r["content"][0].value("text", "");
  }
  std::string Err(const std::string& tool, Json args = Json::object()) {
    Json r = Call(tool, std::move(args));
    EXPECT_TRUE(r.value("isError", false)) << tool << ": " << r.dump();
    return r["content"][0].value("text", "");
  }

  std::string R(const std::string& rel = "") const { return rel.empty() ? root_ : root_ + "/" + rel; }
  std::string O(const std::string& rel = "") const { return rel.empty() ? outside_ : outside_ + "/" + rel; }

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
  std::string Read(const std::string& rel) const { return ReadAbs(R(rel)); }
  void Mkdir(const std::string& rel) { ASSERT_TRUE(fs::MakeDirs(R(rel), 0755).ok()); }
  void Symlink(const std::string& target, const std::string& rel) {
    ASSERT_EQ(::symlink(target.c_str(), R(rel).c_str()), 0) << rel;
  }
  static bool Exists(const std::string& abs) {
    struct stat st;
    return ::lstat(abs.c_str(), &st) == 0;
  }

  // upstream's message for a path outside the allowed directories.
  std::string NotAllowed(const std::string& requested) const {
    return "Error: Path not allowed: " + requested + ". Must be within one of these directories: " + root_;
  }

  std::map<std::string, std::string> OutsideSnapshot() const {
    std::map<std::string, std::string> out;
    Walk(base_, out);
    return out;
  }

  std::string base_, root_, home_, outside_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::shared_ptr<mcp::Session> session_;
  std::map<std::string, std::string> before_;
  int id_ = 0;

 private:
  void Walk(const std::string& dir, std::map<std::string, std::string>& out) const {
    for (const auto& name : fs::ListDir(dir)) {
      std::string path = dir + "/" + name;
      if (path == root_ || path == home_) continue;
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

}  // namespace sbx::servers::desktop_commander::testing
