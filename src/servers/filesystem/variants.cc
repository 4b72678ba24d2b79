#include "servers/filesystem/variants.h"

#include "servers/filesystem/zod3_issues.h"

#include <algorithm>
#include <utility>

namespace sbx::servers::filesystem {
namespace {

using mcp::Tool;
using mcp::ToolResult;

// 2025.7.1 built each schema with zod-to-json-schema 3 on zod 3, which
// closes objects and puts "$schema" last; list_allowed_directories had a
// hand-written schema. Rebuilt from today's schema of the same tool, whose
// properties 2025.7.1 shares except where noted.
Json Closed(const Json& properties, const Json& required) {
  return Json{{"type", "object"}, {"properties", properties}, {"required", required},
              {"additionalProperties", false}};
}

// zod 3 wrote a property's own keys before "default".
Json DefaultLast(Json schema) {
  auto it = schema.find("default");
  if (it == schema.end()) return schema;
  Json value = *it;
  schema.erase(it);
  schema["default"] = std::move(value);
  return schema;
}

Json Schema2025(const std::string& name, const Json& today) {
  if (name == "list_allowed_directories")
    return Json{{"type", "object"}, {"properties", Json::object()}, {"required", Json::array()}};
  Json properties = Json::object();
  for (const auto& [key, schema] : today.at("properties").items()) {
    if (name == "directory_tree" && key == "excludePatterns") continue;  // came later
    Json p = DefaultLast(schema);
    p.erase("minItems");  // read_multiple_files accepted an empty list
    if (key == "edits") p["items"]["additionalProperties"] = false;
    properties[key] = std::move(p);
  }
  Json out = Closed(properties, today.value("required", Json::array()));
  out["$schema"] = today.at("$schema");
  return out;
}

// 2025.7.1's handlers caught every error and answered "Error: <message>".
ToolResult PlainText(ToolResult result) {
  result.structured.reset();
  if (result.is_error) {
    for (auto& block : result.content)
      if (block.value("type", "") == "text") block["text"] = "Error: " + block["text"].get<std::string>();
  }
  return result;
}

void Present2025(std::vector<Tool>& tools) {
  std::erase_if(tools, [](const Tool& t) { return t.name == "read_text_file" || t.name == "read_media_file"; });
  for (auto& tool : tools) {
    tool.title.clear();
    tool.input_schema = Schema2025(tool.name, tool.input_schema);
    tool.output_schema = nullptr;
    tool.annotations = nullptr;
    // Each handler parsed its own arguments with zod 3 (list_allowed_directories
    // read none): wrong ones are its error text, unknown keys are dropped.
    tool.raw_arguments = true;
    tool.handler = [inner = std::move(tool.handler), schema = tool.input_schema, name = tool.name](
                       const Json& args, const mcp::ToolContext& ctx) {
      if (name == "list_allowed_directories") return PlainText(inner(Json::object(), ctx));
      Json issues = Zod3Issues(schema, args.is_null() ? nullptr : &args);
      if (!issues.empty())
        return ToolResult::Error("Error: Invalid arguments for " + name + ": " + Zod3ErrorText(issues));
      return PlainText(inner(Zod3Parsed(schema, args), ctx));
    };
  }
}

// Klavis' read_media_file: one {type, data, mimeType} block, "blob" for
// what is neither image nor audio (today: an embedded resource).
Json KlavisMediaBlock(const Json& block) {
  if (block.value("type", "") != "resource") return block;
  const Json& resource = block.at("resource");
  return Json{{"type", "blob"}, {"data", resource.at("blob")}, {"mimeType", resource.at("mimeType")}};
}

Json KlavisMediaOutput(Json schema) {
  Json item = schema["properties"]["content"]["items"]["anyOf"][0];
  item["properties"]["type"]["enum"] = Json::array({"image", "audio", "blob"});
  schema["properties"]["content"]["items"] = std::move(item);
  return schema;
}

void PresentKlavis(std::vector<Tool>& tools) {
  for (auto& tool : tools) {
    if (tool.annotations.is_object()) {
      tool.annotations.erase("openWorldHint");
      if (tool.name == "move_file") tool.annotations["destructiveHint"] = false;
    }
    if (tool.name == "read_media_file") {
      tool.output_schema = KlavisMediaOutput(std::move(tool.output_schema));
      tool.handler = [inner = std::move(tool.handler)](const Json& args, const mcp::ToolContext& ctx) {
        ToolResult r = inner(args, ctx);
        if (r.is_error) return r;
        for (auto& block : r.content) block = KlavisMediaBlock(block);
        if (r.structured) r.structured = Json{{"content", r.content}};
        return r;
      };
    }
    tool.name = "filesystem_" + tool.name;
  }
}

}  // namespace

void ConfigureVariant(const std::string& variant, mcp::ServerDefinition& server) {
  if (variant != kVariant2025_7_1) return;
  // Its low-level Server declared bare {tools: {}}; its handler's switch
  // threw for a name it did not know, caught like any other error.
  server.SetCapabilities(Json{{"tools", Json::object()}});
  server.SetUnknownTool([](const std::string& name) { return ToolResult::Error("Error: Unknown tool: " + name); });
}

PathPolicy::Rules Rules2025_7_1() {
  PathPolicy::Rules rules;
  rules.missing = PathPolicy::Missing::kParentOnly;
  rules.refuse_windows_drive_paths = false;
  return rules;
}

void PresentVariant(const std::string& variant, std::vector<Tool>& tools) {
  if (variant == kVariant2025_7_1) Present2025(tools);
  if (variant == kVariantKlavis) PresentKlavis(tools);
}

}  // namespace sbx::servers::filesystem
