#include "servers/pdf_tools/schemas.h"

#include "python_text/fastmcp_arguments.h"

namespace sbx::servers::pdf_tools {
namespace {

Json TypeOf(Kind kind) {
  switch (kind) {
    case Kind::kString: return "string";
    case Kind::kInt: return "integer";
    default: return "array";
  }
}

}  // namespace

Json FastMcpInput(const std::string& tool, const std::vector<Field>& fields) {
  Json properties = Json::object(), required = Json::array();
  for (const Field& f : fields) {
    Json p = Json::object();
    if (f.fallback) p["default"] = *f.fallback;
    if (f.kind == Kind::kStringList) p["items"] = Json{{"type", "string"}};
    if (f.kind == Kind::kIntList) p["items"] = Json{{"type", "integer"}};
    p["title"] = py::FieldTitle(f.name);
    p["type"] = TypeOf(f.kind);
    properties[f.name] = std::move(p);
    if (!f.fallback) required.push_back(f.name);
  }
  Json schema = Json::object();
  schema["properties"] = std::move(properties);
  schema["required"] = std::move(required);
  schema["title"] = tool + "Arguments";
  schema["type"] = "object";
  return schema;
}

Json FastMcpOutput(const std::string& tool) {
  Json schema = Json::object();
  schema["properties"] = Json{{"result", Json{{"title", "Result"}, {"type", "string"}}}};
  schema["required"] = Json::array({"result"});
  schema["title"] = tool + "Output";
  schema["type"] = "object";
  return schema;
}

}  // namespace sbx::servers::pdf_tools
