#include "mcp/tool.h"

namespace sbx::mcp {

ToolResult ToolResult::Text(std::string text) {
  ToolResult r;
  r.content.push_back(Json{{"type", "text"}, {"text", std::move(text)}});
  return r;
}

ToolResult ToolResult::Error(std::string text) {
  ToolResult r = Text(std::move(text));
  r.is_error = true;
  return r;
}

ToolResult ToolResult::TextWithStructured(std::string text, const std::string& key) {
  ToolResult r;
  r.structured = Json{{key, text}};
  r.content.push_back(Json{{"type", "text"}, {"text", std::move(text)}});
  return r;
}

Json ToolResult::ToJson() const& { return ToolResult(*this).ToJson(); }

Json ToolResult::ToJson() && {
  Json out{{"content", std::move(content)}};
  if (structured) out["structuredContent"] = std::move(*structured);
  if (is_error) out["isError"] = true;
  return out;
}

Json Tool::Describe() const {
  Json out{{"name", name}};
  if (!title.empty()) out["title"] = title;
  out["description"] = description;
  out["inputSchema"] = input_schema;
  if (!annotations.is_null()) out["annotations"] = annotations;
  // Tools run to completion within the call; none is a long-running task.
  out["execution"] = Json{{"taskSupport", "forbidden"}};
  // Last, where the TypeScript SDK puts it: clients that print tools/list
  // see the upstream servers' layout.
  if (!output_schema.is_null()) out["outputSchema"] = output_schema;
  return out;
}

}  // namespace sbx::mcp
