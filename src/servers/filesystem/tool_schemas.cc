// The upstream tools' schemas and annotations, built from the few shapes the
// upstream SDK emits (zod → draft-07), so each appears once. They must equal
// shared/reference/tools/filesystem.json key for key, order included;
// tools_test.cc compares them with it byte for byte.
#include "servers/filesystem/tool_schemas.h"

#include <initializer_list>
#include <string>
#include <utility>

namespace sbx::servers::filesystem {
namespace {

using Props = std::initializer_list<std::pair<const char*, Json>>;

Json Type(const char* type) { return Json{{"type", type}}; }

// A draft-07 object schema, as zod-to-json-schema writes a tool's arguments:
// "required" only when something is.
Json Arguments(Props properties, std::initializer_list<const char*> required) {
  Json props = Json::object();
  for (const auto& [name, schema] : properties) props[name] = schema;
  Json out{{"$schema", "http://json-schema.org/draft-07/schema#"}, {"type", "object"}, {"properties", props}};
  if (required.size() > 0) {
    Json names = Json::array();
    for (const char* r : required) names.push_back(r);
    out["required"] = names;
  }
  return out;
}

// The structured result of the text tools: {content: string}, closed.
Json TextOutput() {
  Json out = Arguments({{"content", Type("string")}}, {"content"});
  out["additionalProperties"] = false;
  return out;
}

Json MediaOutput() {
  Json blocks = Json::parse(R"({"anyOf":[
    {"type":"object","properties":{"type":{"type":"string","enum":["image","audio"]},"data":{"type":"string"},
      "mimeType":{"type":"string"}},"required":["type","data","mimeType"],"additionalProperties":false},
    {"type":"object","properties":{"type":{"type":"string","const":"resource"},"resource":{"type":"object",
      "properties":{"uri":{"type":"string"},"mimeType":{"type":"string"},"blob":{"type":"string"}},
      "required":["uri","blob"],"additionalProperties":false}},"required":["type","resource"],
      "additionalProperties":false}]})");
  Json out = Arguments({{"content", Json{{"type", "array"}, {"items", blocks}}}}, {"content"});
  out["additionalProperties"] = false;
  return out;
}

Json ReadOnly() { return Json{{"readOnlyHint", true}, {"openWorldHint", false}}; }
Json Writes(bool idempotent, bool destructive) {
  return Json{{"readOnlyHint", false}, {"idempotentHint", idempotent}, {"destructiveHint", destructive},
              {"openWorldHint", false}};
}

Json Entry(Json input, Json output, Json annotations) {
  return Json{{"inputSchema", std::move(input)}, {"outputSchema", std::move(output)},
              {"annotations", std::move(annotations)}};
}

Json Build() {
  const Json path_only = Arguments({{"path", Type("string")}}, {"path"});
  const Json head_tail = Arguments({{"path", Type("string")}, {"tail", Type("number")}, {"head", Type("number")}},
                                   {"path"});
  Json excludes{{"default", Json::array()}, {"type", "array"}, {"items", Type("string")}};
  Json edit{{"type", "object"},
            {"properties", {{"oldText", Type("string")}, {"newText", Type("string")}}},
            {"required", {"oldText", "newText"}}};
  Json out = Json::object();
  out["read_file"] = Entry(head_tail, TextOutput(), ReadOnly());
  out["read_text_file"] = Entry(head_tail, TextOutput(), ReadOnly());
  out["read_media_file"] = Entry(path_only, MediaOutput(), ReadOnly());
  out["read_multiple_files"] = Entry(
      Arguments({{"paths", Json{{"minItems", 1}, {"type", "array"}, {"items", Type("string")}}}}, {"paths"}),
      TextOutput(), ReadOnly());
  out["write_file"] = Entry(Arguments({{"path", Type("string")}, {"content", Type("string")}}, {"path", "content"}),
                            TextOutput(), Writes(true, true));
  out["edit_file"] = Entry(Arguments({{"path", Type("string")},
                                      {"edits", Json{{"type", "array"}, {"items", edit}}},
                                      {"dryRun", Json{{"default", false}, {"type", "boolean"}}}},
                                     {"path", "edits"}),
                           TextOutput(), Writes(false, true));
  out["create_directory"] = Entry(path_only, TextOutput(), Writes(true, false));
  out["list_directory"] = Entry(path_only, TextOutput(), ReadOnly());
  out["list_directory_with_sizes"] = Entry(
      Arguments({{"path", Type("string")},
                 {"sortBy", Json{{"default", "name"}, {"type", "string"}, {"enum", {"name", "size"}}}}},
                {"path"}),
      TextOutput(), ReadOnly());
  out["directory_tree"] = Entry(Arguments({{"path", Type("string")}, {"excludePatterns", excludes}}, {"path"}),
                                TextOutput(), ReadOnly());
  out["move_file"] = Entry(
      Arguments({{"source", Type("string")}, {"destination", Type("string")}}, {"source", "destination"}),
      TextOutput(), Writes(false, true));
  out["search_files"] = Entry(
      Arguments({{"path", Type("string")}, {"pattern", Type("string")}, {"excludePatterns", excludes}},
                {"path", "pattern"}),
      TextOutput(), ReadOnly());
  out["get_file_info"] = Entry(path_only, TextOutput(), ReadOnly());
  out["list_allowed_directories"] = Entry(Arguments({}, {}), TextOutput(), ReadOnly());
  return out;
}

}  // namespace

const Json& ToolSchemas() {
  static const Json schemas = Build();
  return schemas;
}

}  // namespace sbx::servers::filesystem
