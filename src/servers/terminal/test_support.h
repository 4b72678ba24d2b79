// Test fixture for the terminal server: a fresh temporary tree
//   <base>/root/            the allowed directory (see Layout below)
//   <base>/outside/secret.txt
//   <base>/root2/file.txt   a sibling whose name starts with the root's
// and helpers to call the tools through a real mcp::Session. Expected texts
// write the root as "{R}" and the base as "{B}"; X() substitutes them.
// TearDown checks nothing outside the root changed.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/terminal/terminal.h"

namespace sbx::servers::terminal::testing {

class TerminalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/sbx_terminal_test_XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    char real[PATH_MAX];
    ASSERT_NE(::realpath(tmpl, real), nullptr);
    base_ = real;
    root_ = base_ + "/root";
    // Layout, the same the expected upstream outputs were taken on.
    for (const char* d : {"/root", "/root/sub", "/root/dir with space", "/root/http:", "/root/http:/x", "/outside",
                          "/root2"})
      ASSERT_EQ(::mkdir((base_ + d).c_str(), 0755), 0) << d;
    WriteAbs(base_ + "/root/a.txt", "hello\n");
    WriteAbs(base_ + "/root/sub/b.txt", "bee\n");
    WriteAbs(base_ + "/root/dir with space/c.txt", "c\n");
    WriteAbs(base_ + "/root/run.sh", "#!/bin/sh\necho script\n");
    ASSERT_EQ(::chmod((base_ + "/root/run.sh").c_str(), 0755), 0);
    WriteAbs(base_ + "/root/noexec.sh", "no shebang");
    WriteAbs(base_ + "/outside/secret.txt", "SECRET\n");
    WriteAbs(base_ + "/root2/file.txt", "S2\n");
    Link("..", "/root/sub/up");
    Link(base_ + "/outside", "/root/link_out");
    Link("../outside", "/root/link_out_rel");
    Link("loop", "/root/loop");
    Link("a.txt", "/root/alias.txt");
    before_ = OutsideSnapshot();
    Configure(Options{});
  }

  void TearDown() override {
    EXPECT_EQ(OutsideSnapshot(), before_) << "the tree outside the allowed root changed";
    (void)fs::RemoveTree(base_);
  }

  // Rebuilds the server with `options` (allowed_dir set to the root) and
  // opens an initialized session on it.
  void Configure(Options options) {
    options.allowed_dir = root_;
    options_ = options;
    server_ = MakeServer(options);
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
  }
  Options AllCommands() const {
    Options o;
    o.allow_all_commands = true;
    o.allow_all_flags = true;
    return o;
  }

  // tools/call through the session; returns the result object.
  Json Call(const std::string& tool, Json args = Json::object()) {
    Json req = {{"jsonrpc", "2.0"},
                {"id", ++id_},
                {"method", "tools/call"},
                {"params", {{"name", tool}, {"arguments", std::move(args)}}}};
    auto outcome = session_->Handle(req);
    if (outcome.reply) return (*outcome.reply)["result"];
    return outcome.call->Run([](Json) {})["result"];
  }
  // run_command's result, dumped (compact JSON, as on the wire).
  std::string Run(const std::string& command) { return Call("run_command", {{"command", command}}).dump(); }

  // `text` with {R} and {B} replaced by the root and base paths.
  std::string X(std::string text) const {
    for (auto [key, value] : {std::pair<std::string, std::string>{"{R}", root_}, {"{B}", base_}})
      for (std::size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), value);
    return text;
  }
  // The wire form of upstream's results: content blocks, never isError.
  std::string Ok(const std::string& out, const std::string& err, int code) const {
    Json content = Json::array();
    if (!out.empty()) content.push_back(Json{{"type", "text"}, {"text", X(out)}});
    if (!err.empty()) content.push_back(Json{{"type", "text"}, {"text", X(err)}, {"error", true}});
    content.push_back(Json{{"type", "text"}, {"text", "\nCommand completed with return code: " + std::to_string(code)}});
    return Json{{"content", content}}.dump();
  }
  std::string Fail(const std::string& text) const {
    return Json{{"content", Json::array({Json{{"type", "text"}, {"text", X(text)}, {"error", true}}})}}.dump();
  }
  std::string Violation(const std::string& text) const { return Fail("Security violation: " + text); }

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
  void Link(const std::string& target, const std::string& at) {
    ASSERT_EQ(::symlink(target.c_str(), (base_ + at).c_str()), 0) << at;
  }

  std::string base_, root_;
  Options options_;
  std::shared_ptr<const mcp::ServerDefinition> server_;
  std::shared_ptr<mcp::Session> session_;
  Json init_reply_;
  int id_ = 0;

 private:
  std::map<std::string, std::string> OutsideSnapshot() const {
    std::map<std::string, std::string> out;
    Walk(base_, out);
    return out;
  }
  void Walk(const std::string& dir, std::map<std::string, std::string>& out) const {
    for (const auto& name : fs::ListDir(dir)) {
      std::string path = dir + "/" + name;
      if (path == root_) continue;
      struct stat st {};
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
  std::map<std::string, std::string> before_;
};

}  // namespace sbx::servers::terminal::testing
