#include "servers/code_executor/tool_schemas.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace sbx::servers::code_executor {
namespace {

using Properties = std::initializer_list<std::pair<const char*, Json>>;

Json Type(const char* type) { return Json{{"type", type}}; }

Json Object(Properties properties, std::initializer_list<const char*> required) {
  Json props = Json::object();
  for (const auto& [name, schema] : properties) props[name] = schema;
  Json out{{"type", "object"}, {"properties", std::move(props)}};
  if (required.size() > 0)
    out["required"] = Json(std::vector<std::string>(required.begin(), required.end()));
  return out;
}

Json StringList() { return Json{{"type", "array"}, {"items", Type("string")}}; }

}  // namespace

Json InputSchema(std::string_view name) {
  if (name == "execute_code")
    return Object({{"code", Type("string")}, {"filename", Type("string")}}, {"code"});
  if (name == "initialize_code_file")
    return Object({{"content", Type("string")}, {"filename", Type("string")}}, {"content"});
  if (name == "append_to_code_file")
    return Object({{"file_path", Type("string")}, {"content", Type("string")}},
                  {"file_path", "content"});
  if (name == "execute_code_file" || name == "read_code_file")
    return Object({{"file_path", Type("string")}}, {"file_path"});
  if (name == "install_dependencies" || name == "check_installed_packages")
    return Object({{"packages", StringList()}}, {"packages"});
  if (name == "configure_environment") {
    Json type{{"type", "string"}, {"enum", {"conda", "venv", "venv-uv"}}};
    return Object({{"type", type},
                   {"conda_name", Type("string")},
                   {"venv_path", Type("string")},
                   {"uv_venv_path", Type("string")}},
                  {"type"});
  }
  if (name == "get_environment_config") return Object({}, {});
  return nullptr;
}

}  // namespace sbx::servers::code_executor
