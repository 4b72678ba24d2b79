// resources/* and prompts/* of a Session: advertised and answered only by
// servers that have them, with the upstream SDKs' answers to bad requests.
#include <gtest/gtest.h>

#include "mcp/jsonrpc.h"
#include "mcp/server.h"

namespace sbx::mcp {
namespace {

Json Req(int id, const std::string& method, Json params = Json::object()) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

std::shared_ptr<ServerDefinition> Bare() {
  return std::make_shared<ServerDefinition>(ServerInfo{"s", "1", "", ""}, std::vector<Tool>{});
}

std::shared_ptr<ServerDefinition> WithFeatures() {
  auto def = Bare();
  Resource r;
  r.uri = "test://doc";
  r.name = "doc";
  r.title = "Doc";
  r.mime_type = "text/plain";
  r.read = [] { return Json::array({Json{{"uri", "test://doc"}, {"mimeType", "text/plain"}, {"text", "hello"}}}); };
  Resource broken;
  broken.uri = "test://broken";
  broken.name = "broken";
  broken.read = []() -> Json { throw ProtocolError("the file is corrupt"); };
  def->SetResources(ResourceOptions{{r, broken}, true, true});
  PromptOptions prompts;
  prompts.prompts.push_back(Prompt{"greet", "", "Says hello", {PromptArgument{"who", "whom to greet", true}}});
  prompts.get = [](const std::string& name, const Json& args) -> Json {
    if (name != "greet") throw ProtocolError("Prompt not found: " + name, 0);
    return Json{{"messages", Json::array({Json{{"role", "user"},
                                               {"content", Json{{"type", "text"}, {"text", "hi " + args.value("who", std::string("?"))}}}}})}};
  };
  def->SetPrompts(std::move(prompts));
  return def;
}

// The reply: at once, or after running the deferred work.
Json Answer(Session& s, const Json& message) {
  auto outcome = s.Handle(message);
  if (outcome.call) return outcome.call->Run({});
  return outcome.reply ? *outcome.reply : Json();
}

std::shared_ptr<Session> Open(std::shared_ptr<const ServerDefinition> def) {
  auto s = std::make_shared<Session>(std::move(def));
  s->Handle(Req(0, "initialize", Json{{"protocolVersion", "2025-06-18"}}));
  return s;
}

TEST(ServerFeaturesTest, CapabilitiesSayWhatTheServerHas) {
  auto bare = Open(Bare());
  Json init = Answer(*std::make_shared<Session>(Bare()), Req(1, "initialize", Json{{"protocolVersion", "2025-06-18"}}));
  EXPECT_EQ(init["result"]["capabilities"].dump(), R"({"tools":{"listChanged":true}})");
  init = Answer(*std::make_shared<Session>(WithFeatures()), Req(1, "initialize", Json{{"protocolVersion", "2025-06-18"}}));
  EXPECT_EQ(init["result"]["capabilities"].dump(),
            R"({"tools":{"listChanged":true},"resources":{"listChanged":true,"subscribe":true},"prompts":{"listChanged":false}})");
  auto fixed = Bare();
  fixed->SetCapabilities(Json{{"experimental", Json::object()}, {"tools", Json{{"listChanged", false}}}});
  init = Answer(*std::make_shared<Session>(fixed), Req(1, "initialize", Json{{"protocolVersion", "2025-06-18"}}));
  EXPECT_EQ(init["result"]["capabilities"].dump(), R"({"experimental":{},"tools":{"listChanged":false}})");
  // A server without them: every feature method is unknown, as upstream says.
  for (const char* m : {"resources/list", "resources/read", "resources/templates/list", "resources/subscribe",
                        "prompts/list", "prompts/get", "logging/setLevel", "completion/complete"})
    EXPECT_EQ(Answer(*bare, Req(2, m)).dump(), R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}})") << m;
}

TEST(ServerFeaturesTest, ResourcesAreListedReadAndSubscribed) {
  auto s = Open(WithFeatures());
  EXPECT_EQ(Answer(*s, Req(1, "resources/list")).dump(),
            R"({"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"test://doc","name":"doc","title":"Doc","mimeType":"text/plain"},{"uri":"test://broken","name":"broken"}]}})");
  EXPECT_EQ(Answer(*s, Req(2, "resources/templates/list")).dump(),
            R"({"jsonrpc":"2.0","id":2,"result":{"resourceTemplates":[]}})");
  EXPECT_EQ(Answer(*s, Req(3, "resources/read", Json{{"uri", "test://doc"}})).dump(),
            R"({"jsonrpc":"2.0","id":3,"result":{"contents":[{"uri":"test://doc","mimeType":"text/plain","text":"hello"}]}})");
  EXPECT_EQ(Answer(*s, Req(4, "resources/read", Json{{"uri", "test://nope"}})).dump(),
            R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"MCP error -32602: Resource test://nope not found"}})");
  EXPECT_EQ(Answer(*s, Req(5, "resources/read", Json{{"uri", "test://broken"}})).dump(),
            R"({"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"the file is corrupt"}})");
  EXPECT_EQ(Answer(*s, Req(6, "resources/subscribe", Json{{"uri", "test://doc"}})).dump(),
            R"({"jsonrpc":"2.0","id":6,"result":{}})");
  EXPECT_EQ(Answer(*s, Req(7, "resources/unsubscribe", Json{{"uri", "test://other"}})).dump(),
            R"({"jsonrpc":"2.0","id":7,"result":{}})");
}

TEST(ServerFeaturesTest, ABadUriIsZodsIssueListAsTheTypeScriptSdkAnswers) {
  auto s = Open(WithFeatures());
  auto issue = [](const char* received) {
    return std::string("[\n  {\n    \"expected\": \"string\",\n    \"code\": \"invalid_type\",\n    \"path\": [\n      "
                       "\"params\",\n      \"uri\"\n    ],\n    \"message\": \"Invalid input: expected string, received ") +
           received + "\"\n  }\n]";
  };
  Json missing = Answer(*s, Req(1, "resources/read"));
  EXPECT_EQ(missing["error"]["code"], -32603);
  EXPECT_EQ(missing["error"]["message"], issue("undefined"));
  EXPECT_EQ(Answer(*s, Req(2, "resources/subscribe", Json{{"uri", 5}}))["error"]["message"], issue("number"));
  EXPECT_EQ(Answer(*s, Req(3, "resources/read", Json{{"uri", nullptr}}))["error"]["message"], issue("null"));
}

TEST(ServerFeaturesTest, PromptsAreListedAndGotWithThePythonSdksErrors) {
  auto s = Open(WithFeatures());
  EXPECT_EQ(Answer(*s, Req(1, "prompts/list")).dump(),
            R"({"jsonrpc":"2.0","id":1,"result":{"prompts":[{"name":"greet","description":"Says hello","arguments":[{"name":"who","description":"whom to greet","required":true}]}]}})");
  EXPECT_EQ(Answer(*s, Req(2, "prompts/get", Json{{"name", "greet"}, {"arguments", Json{{"who", "ann"}}}})).dump(),
            R"({"jsonrpc":"2.0","id":2,"result":{"messages":[{"role":"user","content":{"type":"text","text":"hi ann"}}]}})");
  EXPECT_EQ(Answer(*s, Req(3, "prompts/get", Json{{"name", "nope"}})).dump(),
            R"({"jsonrpc":"2.0","id":3,"error":{"code":0,"message":"Prompt not found: nope"}})");
  const char* invalid = R"({"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid request parameters","data":""}})";
  EXPECT_EQ(Answer(*s, Req(4, "prompts/get")).dump(), invalid);
  EXPECT_EQ(Answer(*s, Req(4, "prompts/get", Json{{"name", "greet"}, {"arguments", Json{{"who", 3}}}})).dump(), invalid);
}

}  // namespace
}  // namespace sbx::mcp

namespace sbx::mcp {
namespace {

TEST(ServerFeaturesTest, FixedAnswersAreGivenAsTheyAreAndNothingElseIsAdded) {
  auto def = Bare();
  def->SetCapabilities(Json{{"tools", Json::object()}, {"resources", Json::object()}});
  def->SetFixedAnswers({{"resources/list", Json{{"resources", Json::array()}}}});
  auto s = Open(def);
  EXPECT_EQ(Answer(*s, Req(1, "resources/list")).dump(), R"({"jsonrpc":"2.0","id":1,"result":{"resources":[]}})");
  EXPECT_EQ(Answer(*s, Req(2, "resources/read", Json{{"uri", "x"}})).dump(),
            R"({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}})");
}

}  // namespace
}  // namespace sbx::mcp
