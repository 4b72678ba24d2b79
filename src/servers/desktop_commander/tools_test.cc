// tools/list against the upstream capture, the configuration and usage
// tools (golden texts of 0.2.7's tools/config.ts, utils/usageTracker.ts and
// tools/feedback.ts), the usage counters every call updates, and the
// deployment settings parser.
#include <fstream>

#include "servers/desktop_commander/test_support.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::desktop_commander::testing {
namespace {

class ToolsTest : public DcTest {};

TEST_F(ToolsTest, ToolListMatchesTheReferenceExactly) {
  Json init = *session_->Handle(Json{{"jsonrpc", "2.0"},
                                     {"id", 98},
                                     {"method", "initialize"},
                                     {"params",
                                      {{"protocolVersion", "2024-11-05"},
                                       {"capabilities", Json::object()},
                                       {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}})
                   .reply;
  // Upstream 0.2.7's constant capabilities and its two empty lists.
  EXPECT_EQ(init["result"]["capabilities"].dump(), R"({"tools":{},"resources":{},"prompts":{},"logging":{}})");
  auto ask = [&](const char* method) {
    return session_->Handle(Json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", method}, {"params", Json::object()}})
        .reply->dump();
  };
  EXPECT_EQ(ask("resources/list"), R"({"jsonrpc":"2.0","id":7,"result":{"resources":[]}})");
  EXPECT_EQ(ask("prompts/list"), R"({"jsonrpc":"2.0","id":7,"result":{"prompts":[]}})");
  EXPECT_EQ(ask("logging/setLevel"), R"({"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}})");
  Json tools = ListTools();
  auto ref = test_support::ReadJsonFile(DC_REFERENCE_JSON);
  if (!ref) GTEST_SKIP() << "reference not found: " << DC_REFERENCE_JSON;
  EXPECT_EQ(server_->info().name, (*ref)["server_info"]["name"]);
  EXPECT_EQ(server_->info().version, (*ref)["server_info"]["version"]);
  ASSERT_EQ(tools.size(), 21u);
  // Key order too.
  ASSERT_NO_FATAL_FAILURE(test_support::ExpectToolsMatch(tools, (*ref)["tools"], {.exact = {"inputSchema"}}));
}

std::string DefaultConfigJson(const std::string& root, const std::string& indent) {
  std::string blocked;
  for (const auto& c : DefaultBlockedCommands()) blocked += (blocked.empty() ? "" : ",\n") + indent + "    \"" + c + "\"";
  return "{\n" + indent + "  \"blockedCommands\": [\n" + blocked + "\n" + indent + "  ],\n" + indent +
         "  \"defaultShell\": \"/bin/sh\",\n" + indent + "  \"allowedDirectories\": [\n" + indent + "    \"" + root +
         "\"\n" + indent + "  ],\n" + indent + "  \"telemetryEnabled\": false,\n" + indent +
         "  \"fileWriteLineLimit\": 50,\n" + indent + "  \"fileReadLineLimit\": 1000,\n" + indent +
         "  \"version\": \"0.2.7\"";
}

TEST_F(ToolsTest, GetConfigOnAFreshServer) {
  EXPECT_EQ(Ok("get_config"),
            "Current configuration:\n" + DefaultConfigJson(root_, "") +
                ",\n  \"currentClient\": {\n    \"name\": \"unknown\",\n    \"version\": \"unknown\"\n  },\n"
                "  \"systemInfo\": {\n    \"platform\": \"linux\",\n    \"platformName\": \"Linux\",\n"
                "    \"defaultShell\": \"bash\",\n    \"pathSeparator\": \"/\",\n    \"isWindows\": false,\n"
                "    \"isMacOS\": false,\n    \"isLinux\": true,\n    \"examplePaths\": {\n"
                "      \"home\": \"/home/username\",\n      \"temp\": \"/tmp\",\n"
                "      \"absolute\": \"/path/to/file.txt\"\n    }\n  }\n}");
}

TEST_F(ToolsTest, SetConfigValueCoercesAsUpstream) {
  // The call after get_config sees the counters get_config's call left.
  std::string text = Ok("set_config_value", {{"key", "blockedCommands"}, {"value", "[\"rm\", \"sudo\"]"}});
  EXPECT_EQ(text.substr(0, text.find("\n\nUpdated")), "Successfully set blockedCommands to [\n  \"rm\",\n  \"sudo\"\n]");
  std::regex updated("\n\nUpdated configuration:\n\\{\n  \"blockedCommands\": \\[\n    \"rm\",\n    \"sudo\"\n  \\],"
                     "(.|\n)*\n  \"version\": \"0\\.2\\.7\"\n\\}");
  EXPECT_TRUE(std::regex_match(text.substr(text.find("\n\nUpdated")), updated)) << text;
  auto stored = [&](Json args) {
    std::string t = Ok("set_config_value", std::move(args));
    return t.substr(0, t.find("\n\nUpdated"));
  };
  EXPECT_EQ(stored({{"key", "blockedCommands"}, {"value", "curl"}}), "Successfully set blockedCommands to [\n  \"curl\"\n]");
  EXPECT_EQ(stored({{"key", "blockedCommands"}, {"value", 5}}), "Successfully set blockedCommands to [\n  5\n]");
  EXPECT_EQ(stored({{"key", "blockedCommands"}, {"value", "7"}}), "Successfully set blockedCommands to [\n  \"7\"\n]");
  EXPECT_EQ(stored({{"key", "blockedCommands"}, {"value", "[oops"}}),
            "Successfully set blockedCommands to [\n  \"[oops\"\n]");
  EXPECT_EQ(stored({{"key", "allowedDirectories"}}), "Successfully set allowedDirectories to [\n  null\n]");
  EXPECT_EQ(stored({{"key", "custom"}, {"value", "{\"a\": 1}"}}), "Successfully set custom to {\n  \"a\": 1\n}");
  EXPECT_EQ(stored({{"key", "custom"}}), "Successfully set custom to undefined");
  EXPECT_EQ(stored({{"key", "fileReadLineLimit"}, {"value", 2.5}}), "Successfully set fileReadLineLimit to 2.5");
  EXPECT_EQ(Ok("get_config").find("\"custom\""), std::string::npos);
}

TEST_F(ToolsTest, UsageCountersAndSummary) {
  // Before any call: upstream's default stats (one session).
  EXPECT_EQ(Ok("get_usage_stats"),
            "\U0001F4CA **Usage Summary**\n\u2022 Total calls: 0 (0 successful, 0 failed)\n\u2022 Success rate: 0%\n"
            "\u2022 Days using: 0\n\u2022 Sessions: 1\n\u2022 Unique tools: 0\n\u2022 Most used: None\n"
            "\u2022 Feedback given: No\n\n**By Category:**\n\u2022 Filesystem: 0\n\u2022 Terminal: 0\n"
            "\u2022 Editing: 0\n\u2022 Search: 0\n\u2022 Config: 0\n\u2022 Process: 0");
  Write("a.txt", "a\n");
  Ok("read_file", {{"path", R("a.txt")}});
  Ok("read_file", {{"path", R("a.txt")}});
  Err("read_file", {{"path", R("missing")}});
  Ok("list_sessions");
  // The first tracked call starts a session, which upstream counts on top of its default 1.
  EXPECT_EQ(Ok("get_usage_stats"),
            "\U0001F4CA **Usage Summary**\n\u2022 Total calls: 5 (4 successful, 1 failed)\n\u2022 Success rate: 80%\n"
            "\u2022 Days using: 0\n\u2022 Sessions: 2\n\u2022 Unique tools: 3\n"
            "\u2022 Most used: read_file: 3, get_usage_stats: 1, list_sessions: 1\n\u2022 Feedback given: No\n\n"
            "**By Category:**\n\u2022 Filesystem: 3\n\u2022 Terminal: 1\n\u2022 Editing: 0\n\u2022 Search: 0\n"
            "\u2022 Config: 0\n\u2022 Process: 0");
  std::string config = Ok("get_config");
  EXPECT_NE(config.find("\"usageStats\": {\n    \"filesystemOperations\": 3,\n    \"terminalOperations\": 1,"),
            std::string::npos)
      << config;
  EXPECT_NE(config.find("\"totalToolCalls\": 6,\n    \"successfulCalls\": 5,\n    \"failedCalls\": 1,"), std::string::npos);
}

TEST_F(ToolsTest, FeedbackGivesTheFormsAddress) {
  Ok("list_sessions");
  Ok("set_config_value", {{"key", "clientId"}, {"value", "a b&c"}});
  EXPECT_EQ(Ok("give_feedback_to_desktop_commander"),
            "\u26A0\uFE0F **Couldn't open browser automatically**\n\nPlease copy and paste this URL into your browser to "
            "access the feedback form:\n\nhttps://tally.so/r/mYB6av?tool_call_count=2&days_using=0&platform=linux&"
            "client_id=a+b%26c\n\nThe form has been pre-filled with your information. Thank you for your feedback!");
}

TEST_F(ToolsTest, ArgumentsAreCheckedBeforeAnyTool) {
  Json r = Call("read_file", {{"path", 5}});
  EXPECT_TRUE(r.value("isError", false));
  EXPECT_EQ(r["content"][0]["text"],
            "MCP error -32602: Input validation error: Invalid arguments for tool read_file: Invalid input: expected "
            "string, received number at path");
}

TEST(OptionsTest, ParsesAndRejects) {
  auto o = OptionsFromSettings(Json::parse(
      R"({"workspace":"/w","home":"/h","blockedCommands":["x"],"defaultShell":"/bin/bash","fileReadLineLimit":5,
          "fileWriteLineLimit":7,"maxSessions":3,"maxSessionOutputBytes":4096,"maxWaitMs":5000,"ripgrep":"/usr/bin/rg"})"));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->workspace, "/w");
  EXPECT_EQ(o->allowed_directories, std::vector<std::string>{"/w"});
  EXPECT_EQ(o->blocked_commands, std::vector<std::string>{"x"});
  EXPECT_EQ(o->max_sessions, 3u);
  EXPECT_EQ(o->max_wait, std::chrono::milliseconds(5000));
  auto d = OptionsFromSettings(Json::object());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->workspace, "/data");
  EXPECT_EQ(d->allowed_directories, std::vector<std::string>{"/data"});
  auto bad = [](const char* json) {
    auto r = OptionsFromSettings(Json::parse(json));
    return r.ok() ? std::string("ok") : r.error().message;
  };
  EXPECT_EQ(bad(R"({"nope":1})"),
            "desktop-commander settings: unknown key 'nope' (known: workspace, home, allowedDirectories, "
            "blockedCommands, defaultShell, fileReadLineLimit, fileWriteLineLimit, maxSessions, "
            "maxSessionOutputBytes, maxWaitMs, ripgrep)");
  EXPECT_EQ(bad(R"({"workspace":"rel"})"), "desktop-commander settings: workspace must be an absolute path");
  EXPECT_EQ(bad(R"({"maxSessions":0})"), "desktop-commander settings: maxSessions must be an integer from 1 to 1024");
  EXPECT_EQ(bad(R"({"blockedCommands":[1]})"), "desktop-commander settings: blockedCommands must be an array of strings");
  EXPECT_EQ(bad(R"({"blockedCommands":[]})"),
            "desktop-commander settings: blockedCommands must not be empty (leave it out for upstream's list)");
  EXPECT_EQ(bad(R"({"defaultShell":""})"), "desktop-commander settings: defaultShell must be a non-empty string");
  EXPECT_EQ(bad("[]"), "desktop-commander settings: expected a JSON object");
}

}  // namespace
}  // namespace sbx::servers::desktop_commander::testing
