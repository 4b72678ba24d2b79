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

#include <map>
#include <memory>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/terminal/terminal.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::terminal::testing {

class TerminalTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    std::string tmp = test_support::MakeTempDir("sbx_terminal_test");
    ASSERT_FALSE(tmp.empty());
    char real[PATH_MAX];
    ASSERT_NE(::realpath(tmp.c_str(), real), nullptr);
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
    OpenSession(server_);
  }
  Options AllCommands() const {
    Options o;
    o.allow_all_commands = true;
    o.allow_all_flags = true;
    return o;
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

  void Link(const std::string& target, const std::string& at) {
    ASSERT_EQ(::symlink(target.c_str(), (base_ + at).c_str()), 0) << at;
  }

  std::string base_, root_;
  Options options_;
  std::shared_ptr<const mcp::ServerDefinition> server_;

 private:
  // Everything but the root: what no call may change.
  std::map<std::string, std::string> OutsideSnapshot() const { return test_support::TreeSnapshot(base_, {root_}); }
  std::map<std::string, std::string> before_;
};

}  // namespace sbx::servers::terminal::testing
