// Client messages to an MCP session: any JSON, through the lifecycle,
// tools/list, and tools/call with JSON Schema validation of the arguments
// (the validator walks client-controlled values against our schemas).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "mcp/server.h"

namespace {

std::shared_ptr<const sbx::mcp::ServerDefinition> Definition() {
  using sbx::Json;
  auto echo = [](const Json& args, const sbx::mcp::ToolContext&) { return sbx::mcp::ToolResult::Text(args.dump()); };
  std::vector<sbx::mcp::Tool> tools;
  tools.push_back({"edit", "", "", Json::parse(R"({"type":"object","properties":{
      "path":{"type":"string"},
      "edits":{"type":"array","items":{"type":"object","properties":{"oldText":{"type":"string"},"newText":{"type":"string"}},"required":["oldText","newText"],"additionalProperties":false}},
      "dryRun":{"type":"boolean","default":false}},"required":["path","edits"],"additionalProperties":false})"),
      nullptr, nullptr, echo});
  tools.push_back({"pick", "", "", Json::parse(R"({"type":"object","properties":{
      "mode":{"type":"string","enum":["a","b","c"]},
      "count":{"type":"integer","minimum":0,"maximum":100},
      "ratio":{"type":"number","exclusiveMinimum":0},
      "tags":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":4},
      "any":{"anyOf":[{"type":"string"},{"type":"null"}]},
      "nested":{"type":"object","additionalProperties":{"type":"integer"}}},"required":["mode"]})"),
      nullptr, nullptr, echo});
  auto def = std::make_shared<sbx::mcp::ServerDefinition>(sbx::mcp::ServerInfo{"fuzz", "1", "", ""}, std::move(tools), 1);
  // Resources and prompts too: their parameter checks see the same input.
  sbx::mcp::Resource doc;
  doc.uri = "test://doc";
  doc.name = "doc";
  doc.read = [] { return Json::array({Json{{"uri", "test://doc"}, {"text", "x"}}}); };
  def->SetResources(sbx::mcp::ResourceOptions{{doc}, true, true});
  sbx::mcp::PromptOptions prompts;
  prompts.prompts.push_back(sbx::mcp::Prompt{"p", "", "d", {sbx::mcp::PromptArgument{"a", "b", true}}});
  prompts.get = [](const std::string& name, const Json& args) {
    return Json{{"messages", Json::array({Json{{"name", name}, {"args", args}}})}};
  };
  def->SetPrompts(std::move(prompts));
  return def;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto definition = Definition();
  auto session = std::make_shared<sbx::mcp::Session>(definition);
  // One session per input: an initialize first (as clients do), then the
  // input, then the same input again (state after a first message matters).
  session->Handle(sbx::Json::parse(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})"));
  sbx::Json message = sbx::Json::parse(data, data + size, nullptr, false);
  if (message.is_discarded()) return 0;
  for (int i = 0; i < 2; ++i) {
    auto outcome = session->Handle(message);
    if (outcome.reply) (void)outcome.reply->dump(-1, ' ', false, sbx::Json::error_handler_t::replace);
    if (outcome.call) (void)outcome.call->Run([](sbx::Json) {}).dump(-1, ' ', false, sbx::Json::error_handler_t::replace);
  }
  return 0;
}
