// Test fixture for the code-runner server: a fresh working directory and
// temp directory, calls through a real mcp::Session, and the per-call
// directory in result texts replaced by "<TMP>" so texts compare exactly.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <regex>
#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "mcp/server.h"
#include "servers/code_runner/code_runner.h"
#include "servers/process/process.h"
#include "servers/test_support/server_test.h"

namespace sbx::servers::code_runner::testing {

class CodeRunnerTest : public test_support::ServerTest {
 protected:
  void SetUp() override {
    base_ = test_support::MakeTempDir("sbx_code_runner_test");
    ASSERT_FALSE(base_.empty());
    options_.working_directory = base_ + "/work";
    options_.temp_dir = base_ + "/tmp";
    ASSERT_TRUE(fs::MakeDirs(options_.working_directory));
    ASSERT_TRUE(fs::MakeDirs(options_.temp_dir));
    Start();
  }
  void TearDown() override {
    // Every call removes its directory, whatever the code left there.
    EXPECT_EQ(fs::ListDir(options_.temp_dir).size(), 0u) << "a call left its directory behind";
    (void)fs::RemoveTree(base_);
  }

  // (Re)builds the server from options_ and opens an initialized session.
  void Start() {
    OpenSession(MakeServer(options_));
  }

  // tools/call run-code; the result object with "<TMP>" for the call's directory.
  Json Call(Json arguments) {
    Json result = Reply("run-code", std::move(arguments))["result"];
    for (auto& block : result["content"])
      if (block.contains("text")) block["text"] = Normalise(block["text"].get<std::string>());
    return result;
  }
  Json Run(const std::string& language, const std::string& code) {
    return Call({{"code", code}, {"languageId", language}});
  }
  // The whole result as compact JSON, for exact comparisons.
  std::string Dump(const std::string& language, const std::string& code) { return Run(language, code).dump(); }

  std::string Normalise(const std::string& text) const {
    static const std::regex dir("code-runner-[A-Za-z0-9]{6}");
    return std::regex_replace(ReplaceAll(text, options_.temp_dir + "/", ""), dir, "<TMP>");
  }
  static std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
      text.replace(at, from.size(), to);
    return text;
  }

  // {"content":[{"type":"text","text":text}]} (+ "isError":true).
  static std::string Result(const std::string& text, bool error = false) {
    Json r{{"content", Json::array({Json{{"type", "text"}, {"text", text}}})}};
    if (error) r["isError"] = true;
    return r.dump();
  }
  static bool Installed(const std::string& program) {
    std::string path = process::DefaultEnvironment()[0].substr(5);
    return process::FindExecutable(program, path).has_value();
  }
  // What python runs as here: upstream's "python -u", or python3 on hosts without `python`.
  static std::string Python() { return Installed("python") ? "python -u" : "python3 -u"; }

  std::string base_;
  Options options_;
};

}  // namespace sbx::servers::code_runner::testing
