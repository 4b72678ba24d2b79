#include "mcp/server.h"

#include <gtest/gtest.h>

#include <thread>

#include "mcp/jsonrpc.h"

namespace sbx::mcp {
namespace {

Json Req(int id, const std::string& method, Json params = Json::object()) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

std::shared_ptr<const ServerDefinition> MakeDefinition(std::size_t page_size = 100) {
  std::vector<Tool> tools;
  Tool echo;
  echo.name = "echo";
  echo.title = "Echo";
  echo.description = "Returns its text";
  echo.input_schema = Json::parse(R"({"type":"object","properties":{"text":{"type":"string"},
      "loud":{"type":"boolean","default":false}},"required":["text"]})");
  echo.output_schema = Json::parse(R"({"type":"object","properties":{"content":{"type":"string"}}})");
  echo.annotations = Json{{"readOnlyHint", true}};
  echo.handler = [](const Json& args, const ToolContext&) {
    std::string text = args["text"].get<std::string>();
    return ToolResult::TextWithStructured(args["loud"].get<bool>() ? text + "!" : text);
  };
  tools.push_back(echo);
  Tool fail;
  fail.name = "fail";
  fail.input_schema = Json{{"type", "object"}};
  fail.handler = [](const Json&, const ToolContext&) -> ToolResult { throw ToolError("Error: it broke"); };
  tools.push_back(fail);
  Tool wait;
  wait.name = "wait";
  wait.input_schema = Json{{"type", "object"}};
  wait.handler = [](const Json&, const ToolContext& ctx) {
    ctx.Progress(1, 2, "half");
    while (!ctx.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return ToolResult::Text("stopped");
  };
  tools.push_back(wait);
  return std::make_shared<ServerDefinition>(ServerInfo{"test-server", "1.2.3", "", "Be nice"}, tools, page_size);
}

std::shared_ptr<Session> Initialized(std::size_t page_size = 100) {
  auto s = std::make_shared<Session>(MakeDefinition(page_size));
  s->Handle(Req(0, "initialize", Json{{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()},
                                      {"clientInfo", Json{{"name", "t"}, {"version", "1"}}}}));
  return s;
}

Json RunCall(Session& s, const Json& message) {
  auto outcome = s.Handle(message);
  EXPECT_TRUE(outcome.call) << (outcome.reply ? outcome.reply->dump() : "");
  return outcome.call ? outcome.call->Run({}) : Json();
}

TEST(Session, InitializeEchoesASupportedVersion) {
  for (std::string v : {"2025-11-25", "2025-06-18", "2025-03-26"}) {
    Session s(MakeDefinition());
    auto out = s.Handle(Req(1, "initialize", Json{{"protocolVersion", v}, {"capabilities", Json::object()}}));
    ASSERT_TRUE(out.reply);
    EXPECT_EQ(out.reply->dump(),
              R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":")" + v +
                  R"(","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"test-server","version":"1.2.3"},"instructions":"Be nice"}})");
    EXPECT_TRUE(s.initialized());
    EXPECT_EQ(s.protocol_version(), v);
  }
}

TEST(Session, InitializeOffersTheNewestForAnUnknownVersion) {
  Session s(MakeDefinition());
  auto out = s.Handle(Req(1, "initialize", Json{{"protocolVersion", "1999-01-01"}}));
  EXPECT_EQ((*out.reply)["result"]["protocolVersion"], "2025-11-25");
}

TEST(Session, InitializeWithoutVersionIsInvalidParams) {
  Session s(MakeDefinition());
  auto out = s.Handle(Req(1, "initialize"));
  EXPECT_EQ((*out.reply)["error"]["code"], -32602);
  EXPECT_FALSE(s.initialized());
}

TEST(Session, PingAndUnknownMethods) {
  auto s = Initialized();
  EXPECT_EQ(s->Handle(Req(2, "ping")).reply->dump(), R"({"jsonrpc":"2.0","id":2,"result":{}})");
  EXPECT_EQ(s->Handle(Req(3, "resources/list")).reply->dump(),
            R"({"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}})");
}

TEST(Session, MalformedMessagesAreInvalidRequests) {
  auto s = Initialized();
  EXPECT_EQ((*s->Handle(Json::parse(R"({"id":1,"method":"ping"})")).reply)["error"]["code"], -32600);
  EXPECT_EQ((*s->Handle(Json::parse(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})")).reply)["error"]["code"], -32600);
  EXPECT_EQ((*s->Handle(Json::parse(R"({"jsonrpc":"2.0","id":1,"method":7})")).reply)["id"], 1);
  EXPECT_EQ((*s->Handle(Json::parse("[1]")).reply)["id"], nullptr);
  // Notifications and responses get no answer.
  EXPECT_FALSE(s->Handle(Json::parse(R"({"jsonrpc":"2.0","method":"notifications/initialized"})")).reply);
  EXPECT_FALSE(s->Handle(Json::parse(R"({"jsonrpc":"2.0","id":9,"result":{}})")).reply);
}

TEST(Session, ToolsListDescribesEachTool) {
  auto s = Initialized();
  Json tools = (*s->Handle(Req(2, "tools/list")).reply)["result"]["tools"];
  ASSERT_EQ(tools.size(), 3u);
  EXPECT_EQ(tools[0].dump(),
            R"({"name":"echo","title":"Echo","description":"Returns its text","inputSchema":{"type":"object","properties":{"text":{"type":"string"},"loud":{"type":"boolean","default":false}},"required":["text"]},"annotations":{"readOnlyHint":true},"execution":{"taskSupport":"forbidden"},"outputSchema":{"type":"object","properties":{"content":{"type":"string"}}}})");
}

TEST(Session, ToolsListPagesWithCursors) {
  auto s = Initialized(2);
  Json first = (*s->Handle(Req(2, "tools/list")).reply)["result"];
  ASSERT_EQ(first["tools"].size(), 2u);
  ASSERT_EQ(first["nextCursor"], "2");
  Json second = (*s->Handle(Req(3, "tools/list", Json{{"cursor", first["nextCursor"]}})).reply)["result"];
  EXPECT_EQ(second["tools"].size(), 1u);
  EXPECT_EQ(second["tools"][0]["name"], "wait");
  EXPECT_FALSE(second.contains("nextCursor"));
  EXPECT_EQ((*s->Handle(Req(4, "tools/list", Json{{"cursor", "junk"}})).reply)["error"]["code"], -32602);
}

TEST(Session, ToolsCallRunsWithDefaultsAndStructuredContent) {
  auto s = Initialized();
  Json reply = RunCall(*s, Req(5, "tools/call", Json{{"name", "echo"}, {"arguments", Json{{"text", "hi"}}}}));
  EXPECT_EQ(reply.dump(),
            R"({"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hi"}],"structuredContent":{"content":"hi"}}})");
}

TEST(Session, InvalidArgumentsAreAToolErrorNamingTheArgument) {
  auto s = Initialized();
  auto out = s->Handle(Req(6, "tools/call", Json{{"name", "echo"}, {"arguments", Json{{"text", 3}}}}));
  ASSERT_TRUE(out.reply);
  EXPECT_EQ(out.reply->dump(),
            R"({"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"MCP error -32602: Input validation error: Invalid arguments for tool echo: Invalid input: expected string, received number at text"}],"isError":true}})");
}

TEST(Session, UnknownToolIsAToolError) {
  auto s = Initialized();
  auto out = s->Handle(Req(7, "tools/call", Json{{"name", "nope"}}));
  EXPECT_EQ((*out.reply)["result"]["content"][0]["text"], "MCP error -32602: Tool nope not found");
  EXPECT_EQ((*out.reply)["result"]["isError"], true);
  EXPECT_EQ((*s->Handle(Req(8, "tools/call", Json::object())).reply)["error"]["code"], -32602);
}

TEST(Session, AThrownToolErrorBecomesIsError) {
  auto s = Initialized();
  Json reply = RunCall(*s, Req(9, "tools/call", Json{{"name", "fail"}}));
  EXPECT_EQ(reply["result"].dump(), R"({"content":[{"type":"text","text":"Error: it broke"}],"isError":true})");
}

TEST(Session, AThrownProtocolErrorBecomesAJsonRpcError) {
  Tool reject;
  reject.name = "reject";
  reject.input_schema = Json{{"type", "object"}};
  reject.handler = [](const Json&, const ToolContext&) -> ToolResult { throw ProtocolError("Code is required"); };
  auto s = std::make_shared<Session>(
      std::make_shared<ServerDefinition>(ServerInfo{"t", "1", "", ""}, std::vector<Tool>{reject}));
  Json reply = RunCall(*s, Req(9, "tools/call", Json{{"name", "reject"}}));
  EXPECT_EQ(reply.dump(), R"({"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"Code is required"}})");
}

// A server whose one tool takes its arguments raw and prints what it got.
std::shared_ptr<ServerDefinition> RawDefinition() {
  Tool raw;
  raw.name = "raw";
  raw.input_schema = Json::parse(R"({"type":"object","properties":{"n":{"type":"integer","default":1}},
      "required":["n"],"additionalProperties":false})");
  raw.raw_arguments = true;
  raw.handler = [](const Json& args, const ToolContext&) { return ToolResult::Text(args.dump()); };
  return std::make_shared<ServerDefinition>(ServerInfo{"t", "1", "", ""}, std::vector<Tool>{raw});
}

TEST(Session, RawArgumentsReachTheToolUnvalidatedAndWithoutDefaults) {
  auto s = std::make_shared<Session>(RawDefinition());
  auto text = [&](const Json& params) {
    return RunCall(*s, Req(1, "tools/call", params))["result"]["content"][0]["text"].get<std::string>();
  };
  EXPECT_EQ(text(Json{{"name", "raw"}, {"arguments", Json{{"n", "x"}, {"extra", true}}}}), R"({"n":"x","extra":true})");
  EXPECT_EQ(text(Json{{"name", "raw"}, {"arguments", Json::object()}}), "{}");
  EXPECT_EQ(text(Json{{"name", "raw"}}), "null");
  EXPECT_EQ(text(Json{{"name", "raw"}, {"arguments", nullptr}}), "null");
  // Arguments that are no object at all are still the protocol's error.
  Json bad = Json{{"name", "raw"}, {"arguments", 5}};
  EXPECT_EQ((*s->Handle(Req(2, "tools/call", bad)).reply)["error"]["code"], -32602);
}

TEST(Session, TheUnknownToolAnswerIsTheServers) {
  auto def = RawDefinition();
  def->SetUnknownTool([](const std::string& name) { return ToolResult::Error("Error: Unknown tool: " + name); });
  auto s = std::make_shared<Session>(def);
  EXPECT_EQ(s->Handle(Req(3, "tools/call", Json{{"name", "nope"}})).reply->dump(),
            R"({"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Error: Unknown tool: nope"}],"isError":true}})");
  def = RawDefinition();
  def->SetUnknownTool([](const std::string& name) -> ToolResult { throw ProtocolError("Unknown tool: " + name); });
  s = std::make_shared<Session>(def);
  EXPECT_EQ(s->Handle(Req(4, "tools/call", Json{{"name", "nope"}})).reply->dump(),
            R"({"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Unknown tool: nope"}})");
}

TEST(Session, AServersOwnProtocolVersionsAreNegotiatedAmong) {
  auto def = RawDefinition();
  def->SetProtocolVersions({"2024-11-05", "2024-10-07"});
  for (auto [asked, answered] : {std::pair{"2025-06-18", "2024-11-05"}, std::pair{"2024-10-07", "2024-10-07"},
                                 std::pair{"2024-11-05", "2024-11-05"}}) {
    Session s(def);
    auto out = s.Handle(Req(1, "initialize", Json{{"protocolVersion", asked}}));
    EXPECT_EQ((*out.reply)["result"]["protocolVersion"], answered) << asked;
    EXPECT_EQ(s.protocol_version(), answered);
  }
}

TEST(Session, CancelledCallsStopAndAnswerNothing) {
  auto s = Initialized();
  Json call = Req(10, "tools/call", Json{{"name", "wait"}, {"_meta", Json{{"progressToken", "p1"}}}});
  auto out = s->Handle(call);
  ASSERT_TRUE(out.call);
  std::vector<Json> notes;
  Json reply;
  std::thread runner([&] { reply = out.call->Run([&](Json n) { notes.push_back(std::move(n)); }); });
  s->Handle(Json::parse(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10,"reason":"x"}})"));
  runner.join();
  EXPECT_TRUE(reply.is_null());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].dump(),
            R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1.0,"total":2.0,"message":"half"}})");
}

TEST(Session, CancelAllStopsEveryCall) {
  auto s = Initialized();
  auto out = s->Handle(Req(11, "tools/call", Json{{"name", "wait"}}));
  Json reply = Json::object();
  std::thread runner([&] { reply = out.call->Run({}); });
  s->CancelAll();
  runner.join();
  EXPECT_TRUE(reply.is_null());
}

}  // namespace
}  // namespace sbx::mcp

namespace sbx::mcp {
namespace {

TEST(ParseMessageText, LoneSurrogatesBecomeReplacementCharacters) {
  Json j = ParseMessageText(R"({"a":"x\ud800y","b":"\udc00","c":"\ud83d\ude00","d":"\\ud800","e":"\ud800\u0041"})");
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["a"], "x\xEF\xBF\xBDy");
  EXPECT_EQ(j["b"], "\xEF\xBF\xBD");
  EXPECT_EQ(j["c"], "\xF0\x9F\x98\x80");  // a proper pair is kept
  EXPECT_EQ(j["d"], "\\ud800");           // an escaped backslash, not an escape
  EXPECT_EQ(j["e"], "\xEF\xBF\xBD" "A");
  EXPECT_TRUE(ParseMessageText("{not json").is_discarded());
  EXPECT_TRUE(ParseMessageText(R"({"a":"\ud8)").is_discarded());
}

}  // namespace
}  // namespace sbx::mcp
