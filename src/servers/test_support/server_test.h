// The base of the servers' GoogleTest fixtures: one MCP session on the
// server under test and the call and file helpers every fixture had its
// own copy of. A fixture adds its tree layout, options and checks.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "core/json.h"
#include "mcp/server.h"
#include "servers/test_support/files.h"
#include "servers/test_support/session.h"

namespace sbx::servers::test_support {

class ServerTest : public ::testing::Test {
 protected:
  // A new session on `server`, initialized (the code-executor tests skip the
  // initialized notification, as their expectations were taken without it).
  void OpenSession(std::shared_ptr<const mcp::ServerDefinition> server, bool send_initialized = true) {
    session_ = std::make_shared<mcp::Session>(std::move(server));
    init_reply_ = Initialize(*session_, send_initialized);
  }

  // tools/list through the session; the tools array.
  Json ListTools(int id = 99) {
    return (*session_->Handle(Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/list"}}).reply)["result"]["tools"];
  }

  // The whole JSON-RPC response of a tools/call.
  Json Reply(const std::string& tool, Json args = Json::object()) {
    return CallTool(*session_, ++id_, tool, std::move(args));
  }
  // tools/call through the session; returns the result object.
  Json Call(const std::string& tool, Json args = Json::object()) { return Reply(tool, std::move(args))["result"]; }
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

  static void WriteAbs(const std::string& path, const std::string& data) { WriteFile(path, data); }
  static std::string ReadAbs(const std::string& path) { return ReadFile(path); }
  static bool Exists(const std::string& path) { return test_support::Exists(path); }

  std::shared_ptr<mcp::Session> session_;
  Json init_reply_;
  int id_ = 0;
};

}  // namespace sbx::servers::test_support
