#include "servers/localmemory/variants.h"

#include <set>
#include <string>
#include <utility>

#include "core/json_text.h"
#include "mcp/schema.h"
#include "mcp/server.h"

namespace sbx::servers::localmemory {
namespace {

using mcp::ToolResult;

// An item as 2025.8.4's loadGraph keeps it: the parsed line itself, so its
// "type" key comes first (today's copies only the named fields).
Json AsRead(const char* type, const Json& item) {
  Json out{{"type", type}};
  for (const auto& [key, value] : item.items()) out[key] = value;
  return out;
}

// The graph of read_graph/search_nodes/open_nodes in 2025.8.4's form.
// `both_ends`: keep only relations between entities found (today's keeps
// those with at least one end among them, a superset in the same order).
Json GraphAsRead(const Json& graph, bool both_ends) {
  std::set<std::string> names;
  Json entities = Json::array(), relations = Json::array();
  for (const auto& e : graph.at("entities")) {
    names.insert(e.value("name", ""));
    entities.push_back(AsRead("entity", e));
  }
  for (const auto& r : graph.at("relations")) {
    if (both_ends && (!names.count(r.value("from", "")) || !names.count(r.value("to", "")))) continue;
    relations.push_back(AsRead("relation", r));
  }
  return Json{{"entities", std::move(entities)}, {"relations", std::move(relations)}};
}

std::string Indented(const Json& value) {
  std::string text;
  AppendJsonIndented(text, value, 2);
  return text;
}

void Present2025(std::vector<mcp::Tool>& tools) {
  for (auto& tool : tools) {
    tool.title.clear();
    tool.input_schema.erase("$schema");
    tool.output_schema = nullptr;
    tool.annotations = nullptr;
    const bool graph = tool.name == "read_graph" || tool.name == "search_nodes" || tool.name == "open_nodes";
    const bool both_ends = graph && tool.name != "read_graph";
    // Its one handler checked only that arguments came (read_graph needed
    // none); what it then read wrongly failed in JavaScript. Those failures
    // are not reproduced: arguments that are there are still validated
    // against the schema (today's text, as a JSON-RPC error like its others).
    tool.raw_arguments = true;
    tool.handler = [inner = std::move(tool.handler), graph, both_ends, name = tool.name,
                    schema = tool.input_schema](const Json& raw, const mcp::ToolContext& ctx) {
      if (raw.is_null() && name != "read_graph") throw mcp::ProtocolError("No arguments provided for tool: " + name);
      Json args = raw.is_null() ? Json::object() : raw;
      if (auto issues = mcp::Validate(schema, args); !issues.empty())
        throw mcp::ProtocolError("Invalid arguments for tool " + name + ": " + mcp::FormatIssues(issues));
      ToolResult r = inner(mcp::WithDefaults(schema, std::move(args)), ctx);
      // The low-level Server turned a thrown error into a JSON-RPC error.
      if (r.is_error) throw mcp::ProtocolError(r.content.at(0).value("text", ""));
      if (graph && r.structured) r = ToolResult::Text(Indented(GraphAsRead(*r.structured, both_ends)));
      r.structured.reset();
      return r;
    };
  }
}

}  // namespace

void ConfigureVariant(const std::string& variant, mcp::ServerDefinition& server) {
  if (variant != kVariant2025_8_4) return;
  // Its low-level Server declared bare {tools: {}}, its SDK (1.0.1) knew
  // two protocol versions, and its switch threw for a tool it did not know.
  server.SetCapabilities(Json{{"tools", Json::object()}});
  server.SetProtocolVersions({"2024-11-05", "2024-10-07"});
  server.SetUnknownTool([](const std::string& name) -> mcp::ToolResult {
    throw mcp::ProtocolError("Unknown tool: " + name);
  });
}

void PresentVariant(const std::string& variant, std::vector<mcp::Tool>& tools) {
  if (variant == kVariant2025_8_4) Present2025(tools);
}

}  // namespace sbx::servers::localmemory
