// The 21 tools' input schemas, as upstream's zod-to-json-schema writes
// them; tools_test.cc compares them with shared/reference/tools/
// desktop-commander.json byte for byte, key order included.
#include "servers/desktop_commander/tool_schemas.h"

#include <initializer_list>
#include <utility>

namespace sbx::servers::desktop_commander {
namespace {

using Props = std::initializer_list<std::pair<const char*, Json>>;

Json Type(const char* type) { return Json{{"type", type}}; }
Json WithDefault(const char* type, Json value) { return Json{{"type", type}, {"default", std::move(value)}}; }

Json Arguments(Props properties, std::initializer_list<const char*> required) {
  Json props = Json::object();
  for (const auto& [name, schema] : properties) props[name] = schema;
  Json out{{"type", "object"}, {"properties", props}};
  if (required.size() > 0) {
    Json names = Json::array();
    for (const char* r : required) names.push_back(r);
    out["required"] = names;
  }
  out["additionalProperties"] = false;
  out["$schema"] = "http://json-schema.org/draft-07/schema#";
  return out;
}

Json Build() {
  const Json none = Arguments({}, {});
  const Json path_only = Arguments({{"path", Type("string")}}, {"path"});
  const Json pid_only = Arguments({{"pid", Type("number")}}, {"pid"});
  Json mode{{"type", "string"}, {"enum", {"rewrite", "append"}}, {"default", "rewrite"}};
  Json out = Json::object();
  out["get_config"] = none;
  out["set_config_value"] = Arguments({{"key", Type("string")}, {"value", Json::object()}}, {"key"});
  out["read_file"] = Arguments({{"path", Type("string")},
                                {"isUrl", WithDefault("boolean", false)},
                                {"offset", WithDefault("number", 0)},
                                {"length", WithDefault("number", 1000)}},
                               {"path"});
  out["read_multiple_files"] =
      Arguments({{"paths", Json{{"type", "array"}, {"items", Type("string")}}}}, {"paths"});
  out["write_file"] =
      Arguments({{"path", Type("string")}, {"content", Type("string")}, {"mode", mode}}, {"path", "content"});
  out["create_directory"] = path_only;
  out["list_directory"] = path_only;
  out["move_file"] = Arguments({{"source", Type("string")}, {"destination", Type("string")}}, {"source", "destination"});
  out["search_files"] = Arguments(
      {{"path", Type("string")}, {"pattern", Type("string")}, {"timeoutMs", Type("number")}}, {"path", "pattern"});
  out["search_code"] = Arguments({{"path", Type("string")},
                                  {"pattern", Type("string")},
                                  {"filePattern", Type("string")},
                                  {"ignoreCase", Type("boolean")},
                                  {"maxResults", Type("number")},
                                  {"includeHidden", Type("boolean")},
                                  {"contextLines", Type("number")},
                                  {"timeoutMs", Type("number")}},
                                 {"path", "pattern"});
  out["get_file_info"] = path_only;
  out["edit_block"] = Arguments({{"file_path", Type("string")},
                                 {"old_string", Type("string")},
                                 {"new_string", Type("string")},
                                 {"expected_replacements", WithDefault("number", 1)}},
                                {"file_path", "old_string", "new_string"});
  out["start_process"] = Arguments(
      {{"command", Type("string")}, {"timeout_ms", Type("number")}, {"shell", Type("string")}}, {"command", "timeout_ms"});
  out["read_process_output"] = Arguments({{"pid", Type("number")}, {"timeout_ms", Type("number")}}, {"pid"});
  out["interact_with_process"] = Arguments({{"pid", Type("number")},
                                            {"input", Type("string")},
                                            {"timeout_ms", Type("number")},
                                            {"wait_for_prompt", Type("boolean")}},
                                           {"pid", "input"});
  out["force_terminate"] = pid_only;
  out["list_sessions"] = none;
  out["list_processes"] = none;
  out["kill_process"] = pid_only;
  out["get_usage_stats"] = none;
  out["give_feedback_to_desktop_commander"] = none;
  return out;
}

}  // namespace

const Json& ToolSchemas() {
  static const Json schemas = Build();
  return schemas;
}

}  // namespace sbx::servers::desktop_commander
