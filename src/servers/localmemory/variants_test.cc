// The 2025.8.4 variant (variants.h): its tools/list against the capture and
// each behaviour it changes, with the texts upstream 2025.8.4 gives.
#include "servers/localmemory/test_support.h"
#include "servers/localmemory/variants.h"
#include "servers/test_support/tool_list.h"

namespace sbx::servers::localmemory::testing {
namespace {

// Descriptions (ours are our own) left out of a schema, recursively.
Json WithoutDescriptions(Json j) {
  if (j.is_object()) {
    j.erase("description");
    for (auto& [_, v] : j.items()) v = WithoutDescriptions(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = WithoutDescriptions(v);
  }
  return j;
}

class Variant2025Test : public MemoryTest {
 protected:
  void SetUp() override {
    MemoryTest::SetUp();
    options_.variant = kVariant2025_8_4;
    Restart();
  }
};

TEST_F(Variant2025Test, ToolList) {
  auto ref = test_support::ReadJsonFile(LOCALMEMORY_VARIANT_JSON);
  if (!ref) GTEST_SKIP() << "variant capture not found";
  EXPECT_EQ(init_reply_["result"]["capabilities"], (Json{{"tools", Json::object()}}));
  Json tools = ListTools();
  Json want = (*ref)["tools"];
  ASSERT_EQ(tools.size(), want.size());
  for (std::size_t i = 0; i < tools.size(); ++i) {
    EXPECT_EQ(tools[i]["name"], want[i]["name"]);
    EXPECT_EQ(WithoutDescriptions(tools[i]["inputSchema"]).dump(), WithoutDescriptions(want[i]["inputSchema"]).dump());
    EXPECT_FALSE(tools[i].contains("outputSchema") || tools[i].contains("annotations") || tools[i].contains("title"));
  }
}

TEST_F(Variant2025Test, GraphAsReadWithTypeKeysAndBothEndRelations) {
  EXPECT_EQ(CallText("create_entities", R"({"entities":[{"name":"a","entityType":"t","observations":["x"]},
      {"name":"b","entityType":"t","observations":[]}]})").dump(),
            R"({"content":[{"type":"text","text":"[\n  {\n    \"name\": \"a\",\n    \"entityType\": \"t\",\n)"
            R"(    \"observations\": [\n      \"x\"\n    ]\n  },\n  {\n    \"name\": \"b\",\n    \"entityType\": \"t\",\n)"
            R"(    \"observations\": []\n  }\n]"}]})");
  Ok("create_relations", R"({"relations":[{"from":"a","to":"b","relationType":"r"},{"from":"a","to":"zz","relationType":"r"}]})");
  EXPECT_EQ(Ok("open_nodes", R"({"names":["a"]})"),
            "{\n  \"entities\": [\n    {\n      \"type\": \"entity\",\n      \"name\": \"a\",\n      \"entityType\": \"t\",\n"
            "      \"observations\": [\n        \"x\"\n      ]\n    }\n  ],\n  \"relations\": []\n}");
  EXPECT_EQ(Ok("search_nodes", R"({"query":"T"})"),
            "{\n  \"entities\": [\n    {\n      \"type\": \"entity\",\n      \"name\": \"a\",\n      \"entityType\": \"t\",\n"
            "      \"observations\": [\n        \"x\"\n      ]\n    },\n    {\n      \"type\": \"entity\",\n      \"name\": \"b\",\n"
            "      \"entityType\": \"t\",\n      \"observations\": []\n    }\n  ],\n  \"relations\": [\n    {\n"
            "      \"type\": \"relation\",\n      \"from\": \"a\",\n      \"to\": \"b\",\n      \"relationType\": \"r\"\n    }\n  ]\n}");
  Json r = Call("read_graph");
  EXPECT_FALSE(r.contains("structuredContent"));
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("\"to\": \"zz\""), std::string::npos);
  EXPECT_EQ(CallText("delete_entities", R"({"entityNames":["b"]})").dump(),
            R"({"content":[{"type":"text","text":"Entities deleted successfully"}]})");
}

TEST_F(Variant2025Test, FailuresAreJsonRpcErrors) {
  Json reply = Reply("add_observations", Json::parse(R"({"observations":[{"entityName":"nobody","contents":["x"]}]})"));
  EXPECT_FALSE(reply.contains("result"));
  EXPECT_EQ(reply["error"].dump(), R"({"code":-32603,"message":"Entity with name nobody not found"})");
}

// Answers of the session itself: what the SDK 1.0.1 server and its one
// handler said for an unknown tool, absent arguments and a newer version.
TEST_F(Variant2025Test, UnknownToolMissingArgumentsAndProtocolVersion) {
  auto call = [&](Json params) {
    auto session = NewSession();
    Json msg{{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"}, {"params", std::move(params)}};
    auto out = session->Handle(msg);
    return out.reply ? *out.reply : out.call->Run({});
  };
  EXPECT_EQ(call(Json{{"name", "nope"}, {"arguments", Json::object()}})["error"].dump(),
            R"({"code":-32603,"message":"Unknown tool: nope"})");
  EXPECT_EQ(call(Json{{"name", "create_entities"}})["error"].dump(),
            R"({"code":-32603,"message":"No arguments provided for tool: create_entities"})");
  EXPECT_FALSE(call(Json{{"name", "read_graph"}}).contains("error"));
  auto session = std::make_shared<mcp::Session>(server_);
  Json init{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"protocolVersion", "2025-06-18"}}}};
  EXPECT_EQ((*session->Handle(init).reply)["result"]["protocolVersion"], "2024-11-05");
}

}  // namespace
}  // namespace sbx::servers::localmemory::testing
